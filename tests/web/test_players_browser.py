"""The web client as a signed-in guest, in headless Chromium: sign in, create and join a match bound to the player,
"my matches" with the your-turn badge, a move by clicking, resign (confirmed), the result, rematch, and a reload
that stays signed in (a refused access token is refreshed once and the read tried again).

Everything a player does goes through the page; the tests read the DOM through its data-testid attributes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.web.test_browser import MATCH, click_one, opened, wait_ready

TURN_WAIT_MS = 60_000
UNAUTHORIZED_LOGGED = "Failed to load resource: the server responded with a status of 401 (Unauthorized)"


def sign_in(page: Any, name: str) -> str:
    """Sign in as a guest by typing a name in the header; return the player's id."""
    page.goto("/")
    page.get_by_test_id("guest-name").fill(name)
    page.get_by_test_id("sign-in").click()
    who = page.get_by_test_id("signed-in-as")
    who.wait_for()
    assert who.inner_text() == name
    player: str = who.get_attribute("data-player")
    return player


def create_and_fill(page: Any, name: str) -> str:
    """In the lobby, signed in: create a 3-seat match, join it (bound to the player), seat two bots; its id."""
    page.get_by_test_id("playing-as").wait_for()
    assert name in page.get_by_test_id("playing-as").inner_text()
    page.get_by_test_id("create-seats").fill("3")
    page.get_by_test_id("bot-level").select_option("random")
    rows = "[data-testid=my-matches] [data-testid=match-row]"
    page.get_by_test_id("create-match").click()
    page.wait_for_function("rows => document.querySelectorAll(rows).length === 1", arg=rows)
    match_id: str = page.locator(rows).first.get_attribute("data-match")
    row = page.locator(f"{rows}[data-match='{match_id}']")
    row.get_by_test_id("join").click()
    row.locator(".seat.human", has_text=name).wait_for()
    for bots in (1, 2):
        row.get_by_test_id("add-bot").click()
        page.wait_for_function("([id, n]) => document.querySelectorAll("
                               "`[data-testid=my-matches] [data-match='${id}'] .seat.bot`).length === n",
                               arg=[match_id, bots])
    page.locator(f"{rows}[data-match='{match_id}'][data-status=ACTIVE]").wait_for()
    return match_id


def graphql_posts(p: Any) -> list[dict[str, Any]]:
    """The GraphQL requests the page sent: their document, variables and bearer token (or None)."""
    out = []
    for response in p.responses:
        request = response.request
        if response.url.endswith("/graphql") and request.method == "POST" and request.post_data:
            body = json.loads(request.post_data)
            auth = request.headers.get("authorization")
            out.append({"query": body["query"], "variables": body.get("variables") or {},
                        "token": auth.removeprefix("Bearer ") if auth else None})
    return out


def test_a_guest_plays_resigns_and_rematches_from_my_matches(browser: Any, server: str, screenshots: Path) -> None:
    with opened(browser, server) as p:
        page = p.page
        player = sign_in(page, "Guest Gwen")
        session = json.loads(page.evaluate("() => localStorage.getItem('firebreak.session')"))
        device = page.evaluate("() => localStorage.getItem('firebreak.device')")
        assert session["player"]["id"] == player and len(device) >= 16
        match_id = create_and_fill(page, "Guest Gwen")
        joins = [q for q in graphql_posts(p) if "joinMatch(input" in q["query"]]
        assert len(joins) == 1 and joins[0]["token"] == session["accessToken"]  # joined as the player
        assert "name" not in joins[0]["variables"]["input"]  # the seat carries the player's own name
        stored = json.loads(page.evaluate("() => localStorage.getItem('firebreak.matches')"))
        assert "token" not in stored[match_id]  # no per-match seat token is kept: the player's credential acts

        # My matches: the match is listed, first and badged once it is the player's turn.
        page.get_by_test_id("my-matches-link").click()
        page.get_by_test_id("me-view").wait_for()
        row = page.locator(f"[data-testid=me-match][data-match='{match_id}']")
        row.wait_for()
        page.locator(f"[data-testid=me-match][data-match='{match_id}'][data-your-turn=true]").wait_for(
            timeout=TURN_WAIT_MS)
        first = page.locator("[data-testid=me-match]").first
        assert first.get_attribute("data-match") == match_id
        assert first.get_by_test_id("your-turn").inner_text() == "Your turn"
        assert "random bot" in first.get_by_test_id("me-others").inner_text()
        page.screenshot(path=str(screenshots / "my-matches.png"), full_page=True)

        # Play one move by clicking, as the player (no seat token on the page).
        first.get_by_test_id("me-link").click()
        page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
        assert wait_ready(page)
        assert page.get_by_test_id("viewer").inner_text().startswith("You are Guest Gwen")
        before = len([q for q in graphql_posts(p) if "act(input" in q["query"]])
        click_one(page)
        acts = [q for q in graphql_posts(p) if "act(input" in q["query"]][before:]
        assert acts and all(q["token"] is not None and q["token"].count(".") == 2 for q in acts)  # a session JWT

        # Resign, confirmed: the only person leaves, so the match ends at once with the bots ranked.
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm-box").wait_for()
        page.get_by_test_id("resign-cancel").click()  # a second thought changes nothing
        assert page.get_attribute(MATCH, "data-status") == "ACTIVE"
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm").click()
        page.locator(f"{MATCH}[data-status=OVER]").wait_for()
        result = page.get_by_test_id("result")
        result.wait_for()
        assert result.get_attribute("data-end") == "RESIGNED"
        page.get_by_test_id("rematch").wait_for()
        assert page.get_by_test_id("resign").count() == 0
        page.screenshot(path=str(screenshots / "match-resigned.png"), full_page=True)

        # My matches shows the result once over.
        page.goto("/#/me")
        over = page.locator(f"[data-testid=me-match][data-match='{match_id}'][data-status=OVER]")
        over.wait_for()
        assert "resignation" in over.get_by_test_id("me-result").inner_text()
        over.get_by_test_id("me-link").click()

        # Rematch: a new match with the same occupants, started at once; the page goes there.
        page.get_by_test_id("rematch").click()
        page.wait_for_function("old => location.hash.startsWith('#/match/') && !location.hash.includes(old)",
                               arg=match_id)
        rematch_id = page.evaluate("() => decodeURIComponent(location.hash.slice('#/match/'.length))")
        page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
        assert page.get_attribute(MATCH, "data-viewer").startswith("seat-")
        page.get_by_test_id("resign").wait_for()
        page.screenshot(path=str(screenshots / "match-rematch.png"), full_page=True)

        # Reload: still signed in, still the player's seat. A refused access token (here one whose signature does
        # not verify) is refreshed and the read tried once more.
        page.evaluate("""() => { const s = JSON.parse(localStorage.getItem('firebreak.session'));
            const [head, body, sig] = s.accessToken.split('.');
            const forged = sig.slice(0, 5) + (sig[5] === 'A' ? 'B' : 'A') + sig.slice(6);
            s.accessToken = [head, body, forged].join('.');
            localStorage.setItem('firebreak.session', JSON.stringify(s)); }""")
        forged = json.loads(page.evaluate("() => localStorage.getItem('firebreak.session')"))["accessToken"]
        refresh_token = json.loads(page.evaluate("() => localStorage.getItem('firebreak.session')"))["refreshToken"]
        page.reload()
        page.get_by_test_id("signed-in-as").wait_for()
        page.locator(f"{MATCH}[data-viewer^=seat-][data-version]:not([data-version='-1'])").wait_for()
        assert page.get_by_test_id("signed-in-as").get_attribute("data-player") == player
        renewed = json.loads(page.evaluate("() => localStorage.getItem('firebreak.session')"))
        assert renewed["refreshToken"] != refresh_token and renewed["accessToken"] != forged
        # it was sent (a GraphQL call's or the event stream's ticket request, whichever came first), refused, and
        # replaced; a refused REST request is logged by the browser itself, which is no error of the page's
        assert any(r.request.headers.get("authorization") == f"Bearer {forged}" for r in p.responses)
        p.errors[:] = [e for e in p.errors if e != UNAUTHORIZED_LOGGED]

        # The old match shows its rematch to the player; my matches lists both.
        page.goto(f"/#/match/{match_id}")
        page.get_by_test_id("rematch-asked").wait_for()
        assert page.get_by_test_id("rematch").inner_text() == "Go to the rematch"
        page.goto("/#/me")
        page.locator(f"[data-testid=me-match][data-match='{rematch_id}']").wait_for()
        page.get_by_test_id("me-status").select_option("OVER")
        page.wait_for_function("id => [...document.querySelectorAll('[data-testid=me-match]')]"
                               ".every((r) => r.dataset.status === 'OVER') && document.querySelector("
                               "`[data-testid=me-match][data-match='${id}']`) !== null", arg=match_id)

        # Sign out: the header offers the sign-in again and my matches asks for it.
        page.get_by_test_id("sign-out").click()
        page.get_by_test_id("sign-in-form").wait_for()
        page.get_by_test_id("me-signed-out").wait_for()
        assert page.evaluate("() => localStorage.getItem('firebreak.session')") is None


def test_my_matches_pages_on_with_more(browser: Any, server: str) -> None:
    with opened(browser, server) as p:
        page = p.page
        sign_in(page, "Pager Pat")
        page.get_by_test_id("playing-as").wait_for()
        page.get_by_test_id("create-seats").fill("3")
        for n in range(12):  # twelve waiting matches the player sits in
            page.get_by_test_id("create-match").click()
            rows = "[data-testid=my-matches] [data-testid=match-row]"
            page.wait_for_function("([rows, n]) => document.querySelectorAll(rows).length >= n",
                                   arg=[rows, min(n + 1, 10)])
            page.locator(f"{rows} [data-testid=join]").first.click()
            page.wait_for_function("rows => !document.querySelector(`${rows} [data-testid=join]`)", arg=rows)
        page.goto("/#/me")
        page.wait_for_function("() => document.querySelectorAll('[data-testid=me-match]').length === 10")
        page.get_by_test_id("me-more").click()
        page.wait_for_function("() => document.querySelectorAll('[data-testid=me-match]').length === 12")
        ids = page.eval_on_selector_all("[data-testid=me-match]", "els => els.map((e) => e.dataset.match)")
        assert len(set(ids)) == 12
        assert page.get_by_test_id("me-more").is_hidden()
        page.wait_for_timeout(3500)  # a poll reads every row shown again, not only the first page
        assert page.locator("[data-testid=me-match]").count() == 12


def test_the_header_shows_the_handle_and_changes_it(browser: Any, server: str) -> None:
    with opened(browser, server) as p:
        page = p.page
        sign_in(page, "Handle Hana")
        shown = page.get_by_test_id("my-handle")
        page.wait_for_function("() => /^@handle-hana-[0-9]{4}$/.test("
                               "document.querySelector('[data-testid=my-handle]').textContent)")
        assigned = shown.inner_text().removeprefix("@")
        page.get_by_test_id("edit-profile").click()
        page.get_by_test_id("profile-handle").fill("-bad-")
        page.get_by_test_id("save-profile").click()
        error = page.get_by_test_id("profile-error")
        page.wait_for_function("() => document.querySelector('[data-testid=profile-error]').textContent !== ''")
        assert "starts and ends with a letter or a digit" in error.inner_text()
        wanted = f"hana.{player_suffix(page)}"
        page.get_by_test_id("profile-handle").fill(wanted)
        page.get_by_test_id("profile-name").fill("Hana H.")
        page.get_by_test_id("save-profile").click()
        page.get_by_test_id("signed-in-as").wait_for()
        assert page.get_by_test_id("signed-in-as").inner_text() == "Hana H."
        assert page.get_by_test_id("my-handle").inner_text() == f"@{wanted}"
        session = json.loads(page.evaluate("() => localStorage.getItem('firebreak.session')"))
        assert session["player"]["handle"] == wanted != assigned
        page.reload()
        page.get_by_test_id("my-handle").wait_for()
        assert page.get_by_test_id("my-handle").inner_text() == f"@{wanted}"  # kept across a reload
        page.evaluate("""() => {  // a session kept by the page before handles existed: its player has none
          const kept = JSON.parse(localStorage.getItem('firebreak.session'));
          delete kept.player.handle;
          localStorage.setItem('firebreak.session', JSON.stringify(kept));
        }""")
        page.reload()
        page.wait_for_function("h => document.querySelector('[data-testid=my-handle]')?.textContent === '@' + h",
                               arg=wanted)


def player_suffix(page: Any) -> str:
    """Digits of this player's id: a handle no other run of the test holds."""
    session = json.loads(page.evaluate("() => localStorage.getItem('firebreak.session')"))
    return "".join(c for c in session["player"]["id"] if c.isdigit())[:6] or "0"
