"""The web client and GraphiQL work under their Content-Security-Policy (issue 47, part 5, item 5), in headless
Chromium: a match started from the lobby draws its board, GraphiQL runs a query, and the browser reports no
violation of the policy (nor any other error)."""

from __future__ import annotations

from typing import Any

from tests.web.test_browser import MATCH, opened, start_match

# every violation the browser reports, kept on the page for the test to read
RECORD_VIOLATIONS = """window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));"""


def test_a_match_from_the_lobby_draws_under_the_policy(browser: Any, server: str) -> None:
    with opened(browser, server) as p:
        p.page.add_init_script(RECORD_VIOLATIONS)
        start_match(p.page, "Policy")
        p.page.locator(f"{MATCH}[data-busy=false]").wait_for()
        assert p.page.evaluate("window.__violations") == []


def test_graphiql_runs_a_query_under_the_policy(browser: Any, server: str) -> None:
    context = browser.new_context()
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.add_init_script(RECORD_VIOLATIONS)
        page.goto(f"{server}/graphql")
        page.wait_for_selector(".graphiql-execute-button", timeout=30_000)
        page.click(".graphiql-query-editor .CodeMirror")
        page.keyboard.press("Control+A")
        page.keyboard.insert_text("{ titles { id botLevels { name } } }")
        page.click(".graphiql-execute-button")
        page.locator(".result-window", has_text="botLevels").wait_for(timeout=30_000)
        assert page.evaluate("window.__violations") == []
    finally:
        context.close()
    assert errors == []
