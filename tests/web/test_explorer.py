"""GraphiQL works with no internet access: every file its page loads is served by us, and it renders offline."""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlparse

import httpx

from firebreak.api.explorer import URLS, VENDOR


def _page(server: str) -> str:
    response = httpx.get(f"{server}/graphql", headers={"accept": "text/html"}, timeout=10)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    return response.text


class _Loads(HTMLParser):
    """(url, integrity) of every script and link the page loads (inline data: URLs aside)."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        url = found.get("src") or found.get("href")
        if tag in ("script", "link") and url and not url.startswith("data:"):
            self.loads.append((url, found.get("integrity")))


def test_every_file_the_explorer_loads_is_ours_and_matches_its_integrity_hash(server: str) -> None:
    parser = _Loads()
    parser.feed(_page(server))
    for url, integrity in parser.loads:
        assert url.startswith(VENDOR), f"loads {url} from elsewhere"
        body = httpx.get(f"{server}{url}", timeout=10)
        assert body.status_code == 200, url
        assert integrity is not None and integrity.startswith("sha384-"), url
        assert base64.b64encode(hashlib.sha384(body.content).digest()).decode() == integrity[7:], url
    assert sorted(url for url, _ in parser.loads) == sorted(VENDOR + name for name in URLS.values())


def test_graphiql_renders_and_runs_a_query_with_the_internet_cut_off(server: str, browser: Any) -> None:
    context = browser.new_context()
    outside: list[str] = []

    def only_ours(route: Any) -> None:
        if urlparse(route.request.url).netloc == urlparse(server).netloc:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_ours)
    page = context.new_page()
    try:
        page.goto(f"{server}/graphql")
        page.wait_for_selector(".graphiql-execute-button", timeout=30_000)
        assert "Loading..." not in page.inner_text("#graphiql")
        page.click(".graphiql-query-editor .CodeMirror")
        page.keyboard.press("Control+A")
        page.keyboard.insert_text("{ titles { id botLevels { name } } }")
        page.click(".graphiql-execute-button")
        # an arrow function: Playwright evaluates it once; a bare expression it evaluates with eval() at every
        # poll, which the page's Content-Security-Policy refuses
        page.wait_for_function("() => document.querySelector('.result-window') && "
                               "document.querySelector('.result-window').innerText.includes('botLevels')",
                               timeout=30_000)
    finally:
        context.close()
    assert outside == []
