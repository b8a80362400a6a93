"""A player's saved locale (issue 50: "in the caller's language (Accept-Language, or the player's saved
locale)"), against the API process: updateProfile / PATCH /v1/me save it, a request whose Accept-Language names no
language the service speaks is answered in it (labels, problem titles), an Accept-Language that names one wins, and
a locale the service does not speak is refused with UNSUPPORTED_LOCALE and changes nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.service.conftest import Client
from tests.service.players_support import guest, rest

CYRILLIC = re.compile("[\u0400-\u04ff]")
SAVE = """mutation($locale: String) { updateProfile(input: {locale: $locale}) { __typename
  ... on ProfileUpdated { locale player { id } } ... on Problem { code message } } }"""
ME = "{ me { locale language } }"
LANGUAGES = "{ languages { code name } }"
LEGAL = """query($id: ID!) { match(id: $id) { legalActions } }"""


@pytest.fixture
def c(server: str) -> Iterator[Client]:
    client = Client(server)
    yield client
    client.http.close()


def me(c: Client, token: str, header: str | None = None) -> dict[str, str | None]:
    if header is None:
        c.http.headers.pop("accept-language", None)
    else:
        c.http.headers["accept-language"] = header
    answer: dict[str, str | None] = c.gql(ME, {}, token)["me"]
    return answer


def test_languages_are_listed_with_their_own_names(server: str, c: Client) -> None:
    listed = c.gql(LANGUAGES, {})["languages"]
    assert listed == [{"code": "de", "name": "Deutsch"}, {"code": "en", "name": "English"},
                      {"code": "uk", "name": "Українська"}]
    assert rest(server, "GET", "/v1/languages").json() == {"items": listed}


def test_a_saved_locale_speaks_where_the_request_names_no_language(server: str, c: Client) -> None:
    ann = guest(c, "ann")
    assert me(c, ann.access) == {"locale": None, "language": "en"}
    saved = c.gql(SAVE, {"locale": "de-AT"}, ann.access)["updateProfile"]
    assert saved == {"__typename": "ProfileUpdated", "locale": "de", "player": {"id": ann.player}}
    assert me(c, ann.access) == {"locale": "de", "language": "de"}                  # no Accept-Language
    assert me(c, ann.access, "fr-FR, it;q=0.5") == {"locale": "de", "language": "de"}  # none the service speaks
    assert me(c, ann.access, "uk, de;q=0.5") == {"locale": "de", "language": "uk"}   # the request's own wins
    assert me(c, ann.access, "*") == {"locale": "de", "language": "de"}

    # REST reads the same; a problem's title is written in the saved language
    got = rest(server, "GET", "/v1/me", ann.access).json()
    assert (got["locale"], got["language"]) == ("de", "de")
    missing = rest(server, "GET", "/v1/matches/no-such-match", ann.access)
    assert missing.status_code == 404 and missing.json()["title"] == "Nicht gefunden", missing.text
    assert rest(server, "GET", "/v1/matches/no-such-match", None).json()["title"] == "Not Found"  # nobody's

    # the labels of the player's own seat follow the saved locale too
    bob = guest(c, "bob")
    assert c.gql(SAVE, {"locale": "de"}, bob.access)["updateProfile"]["locale"] == "de"
    created = rest(server, "POST", "/v1/matches", body={"title": "greatfire", "seats": 2, "seed": 77}).json()
    for player in (ann.access, bob.access):
        joined = rest(server, "POST", f"/v1/matches/{created['matchId']}/seats", player, body={})
        assert joined.status_code in (200, 201), joined.text
    acting = next(p for p in (ann, bob) if c.gql(LEGAL, {"id": created["matchId"]}, p.access)["match"]["legalActions"])
    labels = [a["label"] for a in c.gql(LEGAL, {"id": created["matchId"]}, acting.access)["match"]["legalActions"]]
    english = [a["label"] for a in rest(server, "GET", f"/v1/matches/{created['matchId']}", acting.access,
                                        headers={"accept-language": "en"}).json()["legalActions"]]
    assert labels and english and labels != english and len(labels) == len(english), (labels[:2], english[:2])

    # PATCH /v1/me saves another; "" forgets it
    patched = rest(server, "PATCH", "/v1/me", acting.access, body={"locale": "uk"})
    assert patched.status_code == 200 and patched.json()["locale"] == "uk", patched.text
    assert me(c, acting.access) == {"locale": "uk", "language": "uk"}
    uk = [a["label"] for a in c.gql(LEGAL, {"id": created["matchId"]}, acting.access)["match"]["legalActions"]]
    assert all(CYRILLIC.search(label) for label in uk), uk[:2]
    assert rest(server, "PATCH", "/v1/me", acting.access, body={"locale": ""}).json()["locale"] is None
    assert me(c, acting.access) == {"locale": None, "language": "en"}


def test_a_locale_the_service_does_not_speak_is_refused_and_changes_nothing(server: str, c: Client) -> None:
    ann = guest(c, "ann")
    assert c.gql(SAVE, {"locale": "de"}, ann.access)["updateProfile"]["locale"] == "de"
    for bad in ("fr", "xx-YY", "de" * 40, " ", "de_DE\n"):
        refused = c.gql(SAVE, {"locale": bad}, ann.access)["updateProfile"]
        assert refused["__typename"] == "InvalidInput" and refused["code"] == "UNSUPPORTED_LOCALE", (bad, refused)
        problem = rest(server, "PATCH", "/v1/me", ann.access, body={"locale": bad})
        assert problem.status_code == 422 and problem.json()["code"] in ("UNSUPPORTED_LOCALE", "VALIDATION_FAILED"), \
            (bad, problem.text)
    assert me(c, ann.access) == {"locale": "de", "language": "de"}


BAD_HANDLE = """mutation { updateProfile(input: {handle: "x"}) { __typename ... on Problem { code message } } }"""


def test_problems_are_written_in_the_readers_language(server: str, c: Client) -> None:
    """A REST problem's detail and a GraphQL problem's message (a result type's, and a request-level error's): the
    precise English message in English, what the code means in another language; the code never changes."""
    ann = guest(c, "ann")
    english = rest(server, "GET", "/v1/matches/no-such-match", ann.access).json()
    german = rest(server, "GET", "/v1/matches/no-such-match", ann.access, headers={"accept-language": "de"}).json()
    assert english["code"] == german["code"] == "MATCH_NOT_FOUND"
    assert german["detail"] == "Diese Partie gibt es nicht oder sie ist abgelaufen." != english["detail"]
    assert "no-such-match" in english["detail"]  # the precise message names what was asked

    c.http.headers.pop("accept-language", None)
    precise = c.gql(BAD_HANDLE, {}, ann.access)["updateProfile"]
    assert precise["code"] == "BAD_HANDLE" and not CYRILLIC.search(precise["message"])
    assert c.gql(SAVE, {"locale": "uk"}, ann.access)["updateProfile"]["locale"] == "uk"
    said = c.gql(BAD_HANDLE, {}, ann.access)["updateProfile"]  # the saved locale: no Accept-Language sent
    assert said["code"] == "BAD_HANDLE" and said["message"].startswith("Псевдонім має містити"), said

    # a refusal met before the credential is checked (the body, here) speaks the saved locale too
    bad_body = rest(server, "POST", "/v1/matches", ann.access, body={"seats": 2})
    assert bad_body.status_code == 422 and bad_body.json()["code"] == "VALIDATION_FAILED", bad_body.text
    assert CYRILLIC.search(bad_body.json()["title"]), bad_body.text
    assert CYRILLIC.search(bad_body.json()["detail"]), bad_body.text

    c.http.headers["accept-language"] = "de"
    refused = c.http.post("/graphql", json={"query": "{ me { id } }"}, headers={"authorization": "Bearer x.y.z"})
    error = refused.json()["errors"][0]
    assert error["extensions"]["code"] == "UNAUTHENTICATED" and error["message"] == "Bitte melde dich erneut an."


TITLES = """{ titles { id options { name description } scoreColumns { key label description } } }"""


def test_a_titles_options_and_score_columns_read_in_the_readers_language(server: str, c: Client) -> None:
    """GET /v1/titles/{id} and GraphQL's title: what each option does and the score columns, in the reader's
    language (over matches' results use the same words: tests/test_labels.py)."""
    for title_id in ("greatfire", "london"):
        english = rest(server, "GET", f"/v1/titles/{title_id}").json()
        ukrainian = rest(server, "GET", f"/v1/titles/{title_id}", headers={"accept-language": "uk"}).json()
        assert [o["name"] for o in english["options"]] == [o["name"] for o in ukrainian["options"]]
        assert all(CYRILLIC.search(o["description"]) for o in ukrainian["options"]), ukrainian["options"]
        assert all(CYRILLIC.search(s["label"] + s["description"]) for s in ukrainian["scoreColumns"])
        assert not any(CYRILLIC.search(s["label"]) for s in english["scoreColumns"])
        c.http.headers["accept-language"] = "uk"
        graphql = next(t for t in c.gql(TITLES, {})["titles"] if t["id"] == title_id)
        assert graphql["options"] == [{k: o[k] for k in ("name", "description")} for o in ukrainian["options"]]
        assert graphql["scoreColumns"] == ukrainian["scoreColumns"]
