"""The service serves the web client (no browser needed): the page, its modules, and the board data it draws."""

from __future__ import annotations

import json

import httpx

from firebreak.domain.greatfire.board import SHIPPED_BOARD
from tests.service.conftest import Client


def test_the_page_is_served_at_the_root(server: str) -> None:
    response = httpx.get(f"{server}/", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in response.text


def test_the_modules_and_styles_are_served_with_their_types(server: str) -> None:
    for name, kind in (("app.js", "javascript"), ("match.js", "javascript"), ("titles/fallback.js", "javascript"),
                       ("titles/greatfire/index.js", "javascript"), ("titles/greatfire/style.css", "text/css"),
                       ("style.css", "text/css"), ("favicon.svg", "image/svg+xml")):
        response = httpx.get(f"{server}/static/{name}", timeout=10)
        assert response.status_code == 200, name
        assert kind in response.headers["content-type"], (name, response.headers["content-type"])
        assert response.headers["cache-control"] == "no-cache"


def test_nothing_outside_the_client_folder_is_served(server: str) -> None:
    for path in ("/static/../api/app.py", "/static/%2e%2e/pyproject.toml", "/static/", "/static/nope.js"):
        assert httpx.get(f"{server}{path}", timeout=10).status_code == 404, path


def test_the_title_carries_the_board_the_engine_plays_on(client: Client) -> None:
    titles = client.gql("{ titles { id board } }")["titles"]
    board = next(t["board"] for t in titles if t["id"] == "greatfire")
    assert board == json.loads(SHIPPED_BOARD.read_text(encoding="utf-8"))
    assert all({"x", "y", "region", "size", "objective", "tokenSite"} <= set(d) for d in board["districts"])
    assert all({"from", "to", "dir"} == set(link) for link in board["links"])


def test_the_titles_carry_the_option_specs_the_lobby_form_is_built_from(client: Client) -> None:
    """Every spec field the create form reads, a null default (a nullable option) included."""
    from firebreak.domain import titles

    fields = "name kind default description choices nullable minimum maximum seats"
    listed = client.gql(f"{{ titles {{ id options {{ {fields} }} botLevels {{ name }} }} }}")["titles"]
    for title in listed:
        expected = [{**spec.to_dict(), "kind": spec.kind.value.upper()}
                    for spec in titles.get(title["id"]).option_specs()]
        assert title["options"] == expected
        assert title["botLevels"][0]["name"] == "random"
    assert any(spec["default"] is None for title in listed for spec in title["options"])


def test_the_web_catalogue_is_served_per_language_with_an_etag(server: str) -> None:
    """/static/locale.json: the web client's words in the language asked for (?lang=, else Accept-Language, as the
    service's labels), its plural forms by CLDR category, the titles' names; an ETag the browser revalidates."""
    uk = httpx.get(f"{server}/static/locale.json?lang=uk", timeout=10)
    assert uk.status_code == 200 and uk.headers["content-type"].startswith("application/json")
    body = uk.json()
    assert body["lang"] == "uk"
    assert body["plural"] == {"one": 0, "few": 1, "many": 2, "other": 2}
    assert body["messages"]["Lobby"] == "Лобі"
    assert len(body["messages"]["{n} card"]) == 3
    assert body["nouns"]["colour"]["blue"] == "синій"
    assert uk.headers["cache-control"] == "no-cache" and uk.headers["etag"]
    again = httpx.get(f"{server}/static/locale.json?lang=uk", headers={"if-none-match": uk.headers["etag"]},
                      timeout=10)
    assert again.status_code == 304 and again.content == b""
    de = httpx.get(f"{server}/static/locale.json", headers={"accept-language": "de-AT,de;q=0.9,en;q=0.5"},
                   timeout=10)
    assert de.json()["lang"] == "de" and de.json()["plural"] == {"one": 0, "other": 1}
    assert de.headers["etag"] != uk.headers["etag"] and "accept-language" in de.headers["vary"].lower()
    fallback = httpx.get(f"{server}/static/locale.json?lang=fr", timeout=10).json()
    assert fallback["lang"] == "en"
