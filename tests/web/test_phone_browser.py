"""The web client on a phone (issue 50, section 4): a 390x844 touch screen (Playwright's mobile emulation: the
page's viewport meta tag counts, and a page wider than the screen makes the browser zoom out).

For both titles a whole match is played by taps against bots, and at every turn of the person the page is
measured: nothing wider than the screen (no panel scrolls sideways either), no visible thing to tap under 44 px
either way, and the turn and the person's moves on the first screen. The signed-out lobby fits 360 and 414 px;
an over page shows the other person's rematch offer without a reload.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.service.conftest import Client
from tests.service.test_rematch_invites import CREATE
from tests.web.test_browser import IDLE, MATCH, my_seat, opened, wait_ready
from tests.web.test_london_browser import BUTTONS, LOOPS, PREFER, SEED, built, cost

WIDTH, HEIGHT = 390, 844
TOUCH = {"has_touch": True, "is_mobile": True}
PHONE = {"viewport": {"width": WIDTH, "height": HEIGHT}, **TOUCH}
MIN_TARGET = 44
FINISH_SECONDS = 300

# What the page measures: its width against the screen's, the panels that would scroll sideways, every visible
# thing a finger may tap that is smaller than MIN_TARGET (a checkbox or radio counts by its label), and where the
# turn and "Your move" panels start in the page (not on the screen: a tap may have scrolled it).
MEASURE_JS = """(min) => {
  const box = (el) => el.getBoundingClientRect();
  const folded = (el) => { const d = el.closest('details:not([open])'); return d !== null && !el.closest('summary')
    ? d.querySelector(':scope > summary') !== el : false; };
  const visible = (el) => { const r = box(el); return r.width > 0 && r.height > 0 && !folded(el)
    && el.checkVisibility({ visibilityProperty: true }); };
  const small = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary, textarea')) {
    if (el.closest('svg') || el.closest('p, li, dd, td') && el.tagName === 'A' && !el.classList.contains('button')
        && el.closest('p, li, dd, td').textContent.trim() !== el.textContent.trim()) continue; // a link in a sentence
    const target = ['checkbox', 'radio'].includes(el.type) && el.closest('label') ? el.closest('label') : el;
    if (!visible(target)) continue;
    const r = box(target);
    if (r.height < min - 0.5 || r.width < min - 0.5) {
      small.push({ tag: el.tagName.toLowerCase(), testid: el.dataset.testid || null,
        text: (el.innerText || el.value || el.placeholder || '').trim().slice(0, 30),
        width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 });
    }
  }
  const wide = [...document.querySelectorAll('.panel, .match-head, header.top')]
    .filter((el) => visible(el) && el.scrollWidth > el.clientWidth + 1)
    .map((el) => ({ cls: el.className, testid: el.dataset.testid || null, scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth }));
  const top = (sel) => { const el = document.querySelector(sel);
    return el && visible(el) ? Math.round(box(el).top + scrollY) : null; };
  const heights = [...document.querySelectorAll('[data-testid=action], [data-testid=choice]')].filter(visible)
    .map((el) => Math.round(box(el).height * 10) / 10);
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth,
    pageHeight: document.documentElement.scrollHeight, small, wide, turnTop: top('[data-testid=turn]'),
    movesTop: top('[data-testid=actions]'), actionHeights: heights };
}"""


def measure(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(MEASURE_JS, MIN_TARGET)
    return found


def check_fits(page: Any, width: int, where: str) -> dict[str, Any]:
    """Nothing wider than the screen (a zoomed-out page has a wider innerWidth), no panel scrolling sideways."""
    m = measure(page)
    assert m["innerWidth"] == width, (where, m["innerWidth"])
    assert m["scrollWidth"] <= width, (where, m["scrollWidth"], m["wide"])
    assert m["wide"] == [], (where, m["wide"])
    return m


def check_turn(page: Any, where: str) -> dict[str, Any]:
    """At the person's turn: the page fits, every target is big enough, the turn and the moves come first."""
    page.wait_for_selector(IDLE)
    m = check_fits(page, WIDTH, where)
    assert m["small"] == [], (where, m["small"])
    assert m["turnTop"] is not None and m["turnTop"] < HEIGHT, (where, m["turnTop"])
    assert m["movesTop"] is not None and m["movesTop"] < HEIGHT, (where, m["movesTop"])
    return m


def tap(page: Any, target: Any) -> None:
    target.tap()
    page.wait_for_selector(IDLE)


def record(screenshots: Path, name: str, figures: list[dict[str, Any]]) -> None:
    """Keep what was measured beside the screenshots (git-ignored), for the report."""
    (screenshots / f"{name}.json").write_text(json.dumps(figures, indent=1))


def tap_lobby(page: Any, title: str, name: str, seats: int, level: str, seed: int | None = None,
              start_seat: int | None = None, bots: int = 1) -> str:
    """Create a match in the lobby, join it and seat the bots, by taps; open it and return its id."""
    page.goto("/")
    page.get_by_test_id("title").first.wait_for()
    check_fits(page, WIDTH, "lobby")
    page.get_by_test_id("create-title").select_option(title)
    page.get_by_test_id("player-name").fill(name)
    page.get_by_test_id("bot-level").select_option(level)
    page.get_by_test_id("create-seats").fill(str(seats))
    if seed is not None:
        page.get_by_test_id("create-seed").fill(str(seed))
    if start_seat is not None:
        page.locator("[data-testid=create-options] [data-option=startSeat]").fill(str(start_seat))
    rows = "[data-testid=my-matches] [data-testid=match-row]"
    before = set(page.eval_on_selector_all(rows, "els => els.map((e) => e.dataset.match)"))
    page.get_by_test_id("create-match").tap()
    page.wait_for_function("([rows, n]) => document.querySelectorAll(rows).length > n", arg=[rows, len(before)])
    (match_id,) = set(page.eval_on_selector_all(rows, "els => els.map((e) => e.dataset.match)")) - before
    row = page.locator(f"{rows}[data-match='{match_id}']")
    row.get_by_test_id("join").tap()
    row.locator(".seat.human", has_text=name).wait_for()
    for n in range(1, bots + 1):
        row.get_by_test_id("add-bot").tap()
        page.wait_for_function("([id, n]) => document.querySelectorAll("
                               "`[data-testid=my-matches] [data-match='${id}'] .seat.bot`).length === n",
                               arg=[match_id, n])
    m = check_fits(page, WIDTH, "lobby with a match")
    assert m["small"] == [], m["small"]
    row = page.locator(f"{rows}[data-match='{match_id}'][data-status=ACTIVE]")
    row.wait_for()
    row.get_by_test_id("play-link").tap()
    page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
    return str(match_id)


def tap_great_fire(page: Any) -> str:
    """Tap one legal move as a person on a phone would: a pending choice, a button that moves on, a playable card,
    a district named in the list of places to tap (the map's own boxes are small on a phone)."""
    candidates = ["[data-testid=chooser] [data-testid=choice]:not([disabled])",
                  *(f"[data-testid=actions] [data-testid=action][data-type={kind}]"
                    for kind in ("keepHand", "endActions", "endFire")),
                  "[data-testid=actions] [data-testid=action]:not([disabled])",
                  "[data-testid=hand-card].playable:not([disabled])",
                  "[data-testid=target-list]:not([open]) summary",
                  "[data-testid=target-choice]:not([disabled])"]
    for selector in candidates:
        found = page.locator(selector)
        if found.count():
            target = found.first
            label = target.get_attribute("data-type") or target.get_attribute("data-district") or "?"
            if selector.endswith("summary"):  # a long list of districts by name starts folded: unfold it
                target.tap()
                page.locator("[data-testid=target-list][open]").wait_for()
                found = page.locator("[data-testid=target-choice]:not([disabled])")
                target, label = found.first, found.first.get_attribute("data-district")
                selector = "[data-testid=target-choice]"
            tap(page, target)
            return f"{selector.split('=')[1].split(']')[0]}:{label}"
    raise AssertionError(f"nothing to tap on the person's turn:\n{page.inner_text('[data-testid=turn]')}")


def test_a_great_fire_match_by_taps_on_a_phone(browser: Any, server: str, screenshots: Path) -> None:
    with opened(browser, server, **PHONE) as p:
        page = p.page
        tap_lobby(page, "greatfire", "Pip", seats=3, level="random", bots=2)
        page.get_by_test_id("board").wait_for()
        figures: list[dict[str, Any]] = []
        taps: list[str] = []
        deadline = time.monotonic() + FINISH_SECONDS
        while wait_ready(page):
            assert time.monotonic() < deadline, f"not over after {len(taps)} taps: {taps[-10:]}"
            figures.append(check_turn(page, f"tap {len(taps)}"))
            if len(taps) == 3:
                page.screenshot(path=str(screenshots / "phone-greatfire-turn.png"))
            taps.append(tap_great_fire(page))
        assert any(t.startswith("target-choice") for t in taps), taps  # districts tapped by name
        assert any(t.startswith("hand-card") for t in taps), taps
        page.get_by_test_id("result").wait_for()
        over = check_fits(page, WIDTH, "over")
        assert over["small"] == [], over["small"]
        stage = page.get_by_test_id("stage").inner_text()
        assert stage.startswith("Phase: Game over"), stage
        page.screenshot(path=str(screenshots / "phone-greatfire-over.png"), full_page=True)
        record(screenshots, "phone-greatfire", figures)


def test_the_great_fire_map_zooms_to_readable_names_on_a_phone(browser: Any, server: str,
                                                               screenshots: Path) -> None:
    """Fitted to 390 px the map's district names are a few pixels high; the zoom shows them at a reading size
    in a frame that pans, and the page itself stays as wide as the screen."""
    with opened(browser, server, **PHONE) as p:
        page = p.page
        tap_lobby(page, "greatfire", "Rue", seats=3, level="random", bots=2)
        names = "svg.board text.d-name"
        page.locator(names).first.wait_for()
        height = ("(sel) => Math.min(...[...document.querySelectorAll(sel)]"
                  ".map((t) => t.getBoundingClientRect().height))")
        fitted = page.evaluate(height, names)
        page.screenshot(path=str(screenshots / "phone-greatfire-first.png"), full_page=True)
        zoom = page.get_by_test_id("map-zoom")
        assert zoom.inner_text() == "Zoom the map"
        tap(page, zoom)
        zoomed = page.evaluate(height, names)
        zoom.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / "phone-greatfire-zoomed.png"))
        assert zoomed >= 11 > fitted, (fitted, zoomed)
        check_fits(page, WIDTH, "zoomed map")
        assert zoom.inner_text() == "Fit the map"
        tap(page, zoom)
        assert abs(page.evaluate(height, names) - fitted) < 0.1


def test_a_london_match_by_taps_on_a_phone(browser: Any, server: str, screenshots: Path) -> None:
    with opened(browser, server, **PHONE) as p:
        page = p.page
        tap_lobby(page, "london", "Quin", seats=2, level="greedy", seed=SEED, start_seat=0)
        page.get_by_test_id("dev-board").wait_for()
        seat = my_seat(page)
        figures: list[dict[str, Any]] = []
        taps: list[str] = []
        asked_develop = has_built = False
        deadline = time.monotonic() + FINISH_SECONDS
        while wait_ready(page):
            assert time.monotonic() < deadline, f"not over after {len(taps)} taps: {taps[-10:]}"
            figures.append(check_turn(page, f"tap {len(taps)}"))
            if len(taps) == 3:
                page.screenshot(path=str(screenshots / "phone-london-turn.png"))
            has_built = has_built or built(page, seat)
            if not has_built:
                develop = page.locator(f"{BUTTONS}[data-type=develop]")
                cards = page.locator("[data-testid=hand-card].playable")
                if develop.count() and not asked_develop:
                    asked_develop = True
                    tap(page, develop.first)
                    taps.append("button:develop")
                    continue
                if cards.count():
                    costliest = max(cards.all(), key=lambda c: cost(c.get_attribute("data-card")))
                    taps.append(f"card:{costliest.get_attribute('data-type')}")
                    tap(page, costliest)
                    continue
            taps.append(tap_button(page))
        assert has_built and "card:play" in taps, taps[:30]
        page.get_by_test_id("result").wait_for()
        over = check_fits(page, WIDTH, "over")
        assert over["small"] == [], over["small"]
        page.screenshot(path=str(screenshots / "phone-london-over.png"), full_page=True)
        record(screenshots, "phone-london", figures)


def tap_button(page: Any) -> str:
    """Tap the first action button of London's plain policy (test_london_browser.PREFER); return its type."""
    for kind in PREFER:
        found = page.locator(f"{BUTTONS}[data-type={kind}]")
        if found.count():
            tap(page, found.first)
            return f"button:{kind}"
    found = page.locator(BUTTONS + "".join(f":not([data-type={kind}])" for kind in LOOPS))
    if not found.count():
        found = page.locator(BUTTONS)
    kind = found.first.get_attribute("data-type")
    tap(page, found.first)
    return f"button:{kind}"


def test_the_signed_out_lobby_fits_small_phones(browser: Any, server: str) -> None:
    for width in (360, 414):
        with opened(browser, server, viewport={"width": width, "height": 800}, **TOUCH) as p:
            p.page.goto("/")
            p.page.get_by_test_id("title").first.wait_for()
            p.page.get_by_test_id("create-match").wait_for()
            assert p.page.get_by_test_id("sign-in-form").count() == 1  # signed out: the header's sign-in form
            m = check_fits(p.page, width, f"lobby at {width}")
            assert m["small"] == [], (width, m["small"])
            help_text = " ".join(p.page.locator("[data-testid=create-options] .help").all_inner_texts())
            assert "null" not in help_text.lower(), help_text


def test_an_over_page_shows_a_rematch_offer_without_a_reload(browser: Any, server: str) -> None:
    """Two people on phones: one resigns by taps, the other opens the over match (from a link, later); then the
    first offers a rematch on their page and the second's page shows it, with no reload, and accepts.

    The second phone's network drops every WebSocket (as some mobile networks and proxies do): its page never
    hears the end of a match stream, so the offer must come by the page's own re-reads of the over match."""
    c = Client(server)
    try:
        created = c.gql(CREATE, {"input": {"title": "greatfire", "seats": 2, "private": True}})["createMatch"]
        match_id = created["matchId"]
        with opened(browser, server, **PHONE) as one, opened(browser, server, **PHONE) as two:
            for person, name in ((one, "Uma"), (two, "Vic")):
                person.page.goto(created["inviteUrl"])
                person.page.get_by_test_id("join-name").fill(name)
                person.page.get_by_test_id("join-invited").tap()
                person.page.wait_for_function("id => location.hash === `#/match/${id}`", arg=match_id)
            first, second = one.page, two.page
            first.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
            second.goto("/")  # the second person is elsewhere when the match ends
            second.get_by_test_id("lobby").wait_for()
            tap(first, first.get_by_test_id("resign"))
            tap(first, first.get_by_test_id("resign-confirm"))
            first.locator(f"{MATCH}[data-status=OVER]").wait_for()
            assert first.get_by_test_id("stage").inner_text().startswith("Phase: Game over")

            two.context.route_web_socket("**/*", lambda socket: socket.close())
            second.goto(f"/#/match/{match_id}")  # opened once the match is over
            second.locator(f"{MATCH}[data-status=OVER]").wait_for()
            offer_button = second.get_by_test_id("rematch")
            offer_button.wait_for()
            assert second.get_by_test_id("rematch-offer").count() == 0
            tap(first, first.get_by_test_id("rematch"))
            first.locator("[data-testid=rematch-offer][data-offer=waiting]").wait_for()
            second.locator("[data-testid=rematch-offer][data-offer=open]").wait_for(timeout=15_000)
            assert second.get_by_test_id("stage").inner_text().startswith("Phase: Game over")
            check_fits(second, WIDTH, "over page with an offer")
            tap(second, second.get_by_test_id("rematch-accept"))
            second.wait_for_function("id => !location.hash.includes(id)", arg=match_id)
            second.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
    finally:
        c.http.close()

