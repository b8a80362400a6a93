"""The TypeScript SDK (clients/typescript) in headless Chromium: two tabs of one origin share a session through
localStorageStore() and refresh it at once; the Web Locks API makes them take turns (the second refresh request,
if any, starts after the first has answered and been stored), and both end with the same working session.

Whether the second tab sends a request at all depends on whether the first tab's write to localStorage has reached
it when it gets the lock: Chromium carries localStorage between tabs asynchronously, so it may still read the old
session and present the old refresh token, which the service's reuse grace answers with the same successor. The
built package is served from the service's own origin (scripts/bootstrap.sh --tests builds clients/typescript)."""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import ROOT, _unavailable

SDK = ROOT / "clients" / "typescript"
REFRESH = "/v1/auth/refresh"
FETCH_LIB = SDK / "node_modules" / "openapi-fetch" / "dist" / "index.js"
PAGE = """<!doctype html><meta charset="utf-8"><title>sdk</title>
<script type="importmap">{"imports": {"openapi-fetch": "/sdk/openapi-fetch.js"}}</script>
<script type="module">
import { Firebreak, localStorageStore } from '/sdk/index.js';
window.fb = new Firebreak({ baseUrl: location.origin, store: localStorageStore() });
window.ready = true;
</script>"""


def _serve(server: str) -> Any:
    def fulfil(route: Any) -> None:
        name = route.request.url.removeprefix(f"{server}/sdk/")
        if name == "page.html":
            route.fulfill(status=200, content_type="text/html", body=PAGE)
            return
        path = FETCH_LIB if name == "openapi-fetch.js" else SDK / "dist" / name
        if not path.is_file() or not path.resolve().is_relative_to(SDK):
            route.fulfill(status=404, body="")
            return
        route.fulfill(status=200, content_type="text/javascript", body=path.read_text(encoding="utf-8"))
    return fulfil


def test_two_tabs_refreshing_at_once_take_turns_and_end_with_one_session(browser: Any, server: str) -> None:
    if not (SDK / "dist" / "index.js").is_file() or not FETCH_LIB.is_file():
        _unavailable("clients/typescript is not built: scripts/bootstrap.sh --tests builds it")
    context = browser.new_context(base_url=server)
    refreshes: list[str] = []  # "sent" and "answered", in order
    try:
        context.route(f"{server}/sdk/**", _serve(server))
        for happened, said in (("request", "sent"), ("requestfinished", "answered")):
            context.on(happened, lambda r, said=said: refreshes.append(said) if r.url.endswith(REFRESH) else None)
        tabs = [context.new_page(), context.new_page()]
        for tab in tabs:
            tab.goto("/sdk/page.html")
            tab.wait_for_function("window.ready === true")
        player = tabs[0].evaluate("async () => (await fb.signInAsGuest('ann', crypto.randomUUID())).player.id")
        tabs[1].wait_for_function("localStorage.getItem('firebreak.session') !== null")  # the session reached it
        name = json.dumps(f"firebreak-refresh {server}")
        # tab 0 holds the lock while both tabs ask for a refresh, so both wait on it; then it lets go
        tabs[0].evaluate(f"""() => {{ window.held = new Promise((resolve) => {{ window.release = resolve; }});
            return new Promise((locked) => navigator.locks.request({name}, () => {{ locked(); return held; }})); }}""")
        for tab in tabs:
            tab.evaluate("() => { window.renewed = fb.refresh().then((s) => s.refreshToken); }")
        for tab in tabs:
            tab.wait_for_function(f"""async () => (await navigator.locks.query()).pending
                .filter((l) => l.name === {name}).length === 2""")
        tabs[0].evaluate("() => release()")
        tokens = [tab.evaluate("() => renewed") for tab in tabs]
        assert tokens[0] == tokens[1], refreshes
        assert refreshes in (["sent", "answered"], ["sent", "answered", "sent", "answered"]), refreshes
        stored = tabs[1].evaluate("() => JSON.parse(localStorage.getItem('firebreak.session'))")
        assert stored["refreshToken"] == tokens[0] and stored["player"]["id"] == player
        for tab in tabs:
            assert tab.evaluate("async () => (await fb.me()).id") == player
        assert tabs[1].evaluate("async () => (await fb.refresh()).player.id") == player  # the family lives on
    finally:
        context.close()

