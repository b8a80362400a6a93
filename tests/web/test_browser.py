"""The web client end to end, in headless Chromium: lobby, a human turn by clicking, a whole match, a spectator.

Everything a player does here goes through the page (clicks and typing); the tests only read the DOM, which
carries stable data-testid / data-district attributes for them.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from firebreak.domain import titles
from firebreak.domain.greatfire.board import load_board
from tests.service import support as h
from tests.service.conftest import Client

VIEWPORT = {"width": 1600, "height": 1000}
TURN_WAIT_MS = 60_000
FINISH_SECONDS = 170

MATCH = "[data-testid=match]"
GREAT_FIRE = {"en": "The Great Fire: London 1666", "de": "Der große Brand: London 1666",  # the title card, by language
              "uk": "Велика пожежа: Лондон 1666"}
IDLE = f"{MATCH}[data-busy=false]"
READY_JS = """() => { const m = document.querySelector('[data-testid=match]');
  return m !== null && m.dataset.busy === 'false'
    && (m.dataset.yourTurn === 'true' || m.dataset.status === 'OVER'); }"""


class Page:
    """A page in its own browser context, recording uncaught errors, HTTP answers and WebSocket frames."""

    def __init__(self, browser: Any, base: str, **options: Any) -> None:
        self.context = browser.new_context(**{"viewport": VIEWPORT, **options}, base_url=base)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.responses: list[Any] = []
        self.frames: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)
        self.page.on("response", lambda response: self.responses.append(response))
        self.page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(
            payload if isinstance(payload, str) else bytes(payload).decode("utf-8", "replace")))

    def bodies(self) -> list[Any]:
        """Every GraphQL answer and pushed WebSocket message, decoded."""
        out = []
        for response in self.responses:
            if response.url.endswith("/graphql") and response.request.method == "POST":
                out.append(response.json())
        out.extend(json.loads(frame) for frame in self.frames)
        return out

    def sent_actions(self) -> list[dict[str, Any]]:
        """The actions the page submitted (act mutations), in order."""
        out = []
        for response in self.responses:
            request = response.request
            if response.url.endswith("/graphql") and request.method == "POST" and request.post_data:
                body = json.loads(request.post_data)
                if "act(input" in body["query"]:
                    out.append(body["variables"]["input"]["action"])
        return out

    def lone_pauses(self) -> int:
        """How many answers left the player a pause whose only choice is endFire or endActions (R18b)."""
        return sum(1 for body in self.bodies()
                   if isinstance(body, dict) and isinstance(body.get("data"), dict)
                   for answer in [body["data"].get("act") or body["data"].get("match")]
                   if isinstance(answer, dict)
                   for match in [answer.get("match", answer)]
                   if isinstance(match, dict) and match.get("legalActions") in (
                       [{"type": "endFire"}], [{"type": "endActions"}]))

    def close(self) -> None:
        self.context.close()


@contextmanager
def opened(browser: Any, base: str, **options: Any) -> Iterator[Page]:
    """A Page; options go to the browser context (a phone's viewport and touch, say)."""
    page = Page(browser, base, **options)
    try:
        yield page
    finally:
        page.close()
    assert page.errors == [], page.errors


def version(page: Any) -> int:
    return int(page.get_attribute(MATCH, "data-version"))


def my_seat(page: Any) -> int:
    viewer = page.get_attribute(MATCH, "data-viewer")
    assert viewer.startswith("seat-"), viewer
    return int(viewer.removeprefix("seat-"))


def start_match(page: Any, name: str, shot: Path | None = None, client: str | None = None) -> str:
    """In the lobby: create a 3-seat match, join it, seat two random bots; return the match id. With client, the
    match page is opened with ?client=<client> (e.g. the generic client) instead of through the play link."""
    match_id = create_match(page, name, 3)
    row = page.locator(f"[data-testid=my-matches] [data-testid=match-row][data-match='{match_id}']")
    row.get_by_test_id("join").click()
    row.locator(".seat.human", has_text=name).wait_for()
    for bots in (1, 2):
        row.get_by_test_id("add-bot").click()
        page.wait_for_function("([id, n]) => document.querySelectorAll("
                               "`[data-testid=my-matches] [data-match='${id}'] .seat.bot`).length === n",
                               arg=[match_id, bots])
    row = page.locator(f"[data-testid=my-matches] [data-testid=match-row][data-match='{match_id}']"
                       "[data-status=ACTIVE]")
    row.wait_for()
    if shot is not None:
        page.screenshot(path=str(shot), full_page=True)
    if client is None:
        row.get_by_test_id("play-link").click()
    else:
        page.goto(f"/#/match/{match_id}?client={client}")
    page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
    page.get_by_test_id("board" if client is None else "view-tree").wait_for()
    return match_id


def create_match(page: Any, name: str, seats: int, options: dict[str, Any] | None = None) -> str:
    """In the lobby: fill the create form (seats, then options by their inputs), create a match; return its id."""
    page.goto("/")
    title = page.locator("[data-testid=title][data-title=greatfire]")  # one card per registered title
    title.wait_for()
    lang = page.evaluate("document.documentElement.lang")  # the page's language (test_words_browser.py plays in others)
    assert GREAT_FIRE[lang] in title.inner_text()
    page.get_by_test_id("create-title").select_option("greatfire")
    page.get_by_test_id("player-name").fill(name)
    page.get_by_test_id("bot-level").select_option("random")
    page.get_by_test_id("create-seats").fill(str(seats))
    for option, value in (options or {}).items():
        field = page.locator(f"[data-testid=create-options] [data-option={option}]")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    rows = "[data-testid=my-matches] [data-testid=match-row]"
    before = set(page.eval_on_selector_all(rows, "els => els.map((e) => e.dataset.match)"))
    page.get_by_test_id("create-match").click()
    page.wait_for_function("([rows, n]) => document.querySelectorAll(rows).length > n", arg=[rows, len(before)])
    created = set(page.eval_on_selector_all(rows, "els => els.map((e) => e.dataset.match)")) - before
    assert len(created) == 1, created
    return created.pop()


def wait_ready(page: Any, timeout: int = TURN_WAIT_MS) -> bool:
    """Wait until it is the human's turn (True) or the match is over (False)."""
    try:
        page.wait_for_function(READY_JS, timeout=timeout)
    except Exception as exc:  # say where the page stood, not only that it timed out
        state = page.evaluate("() => ({match: {...document.querySelector('[data-testid=match]')?.dataset},"
                              " turn: document.querySelector('[data-testid=turn]')?.innerText,"
                              " notice: document.querySelector('[data-testid=notice]')?.innerText})")
        raise AssertionError(f"the human's turn did not come: {state}") from exc
    return page.get_attribute(MATCH, "data-status") != "OVER"


def click_one(page: Any, prefer: tuple[str, ...] = ()) -> str:
    """Click one legal move the page offers, as a person would; return what was clicked.

    The order: a pending choice, then the preferred action buttons, then any action button, a playable card,
    a highlighted district.
    """
    candidates = ["[data-testid=chooser] [data-testid=choice]:not([disabled])"]
    candidates += [f"[data-testid=actions] [data-testid=action][data-type={kind}]" for kind in prefer]
    candidates += ["[data-testid=actions] [data-testid=action]:not([disabled])",
                   "[data-testid=hand-card].playable:not([disabled])",
                   "[data-testid=district].target"]
    for selector in candidates:
        found = page.locator(selector)
        if found.count():
            target = found.first
            label = target.get_attribute("data-type") or target.get_attribute("data-district") or "?"
            kind = "district" if "district" in selector else "card" if "hand-card" in selector else "button"
            target.click()
            page.wait_for_selector(IDLE)
            return f"{kind}:{label}"
    raise AssertionError(f"nothing to click on the human's turn:\n{page.inner_text('[data-testid=turn]')}")


def play_own_turn(page: Any) -> list[str]:
    """Play decisions by clicking until the human has finished one whole fire-and-actions turn."""
    seat = my_seat(page)
    ended = f"[data-testid=log] li.ev[data-type=turnEnded][data-seat='{seat}']"
    before = page.locator(ended).count()
    clicks: list[str] = []
    did_action = False
    deadline = time.monotonic() + 90
    while page.locator(ended).count() == before:
        assert time.monotonic() < deadline, clicks
        assert wait_ready(page), "the match ended during the turn"
        phase_actions = page.locator("[data-testid=actions] [data-type=endActions]").count() > 0
        if phase_actions and not did_action and page.locator("[data-testid=district].target").count():
            # one real action (move, put out, demolish...) before ending the actions phase
            clicks.append(_click_district(page))
            did_action = True
            continue
        clicks.append(click_one(page, prefer=("endActions",)))
    return clicks


def _click_district(page: Any) -> str:
    district = page.locator("[data-testid=district].target").first
    name = district.get_attribute("data-district")
    district.click()
    page.wait_for_selector(IDLE)
    for _ in range(3):  # a district offering several moves opens a chooser; a band waits for its destination
        if page.locator("[data-testid=chooser] [data-testid=choice]").count():
            page.locator("[data-testid=chooser] [data-testid=choice]").first.click()
            page.wait_for_selector(IDLE)
        elif page.locator("[data-testid=band-selected]").count():
            page.locator("[data-testid=district].target:not(.selected)").first.click()
            page.wait_for_selector(IDLE)
        else:
            break
    return f"district:{name}"


# ----- the tests ----------------------------------------------------------------------------------------------

def test_lobby_creates_joins_and_fills_a_match(browser: Any, server: str, screenshots: Path) -> None:
    with opened(browser, server) as p:
        match_id = start_match(p.page, "Ann", shot=screenshots / "lobby.png")
        page = p.page
        assert page.url.endswith(f"#/match/{match_id}")
        board = load_board()
        assert page.locator("[data-testid=district]").count() == len(board.districts)
        for district in board.districts:  # every district drawn from the board data, at its own place
            assert page.locator(f"[data-testid=district][data-district='{district.id}']").count() == 1
        assert page.locator("svg.board line.link").count() == len(_links())
        assert page.locator("svg.board line.link.diagonal").count() == sum(
            1 for link in _links() if len(link["dir"]) == 2)
        assert page.locator("[data-testid=players] [data-testid=player]").count() == 3
        assert page.get_by_test_id("viewer").inner_text().startswith("You are Ann")
        assert (screenshots / "lobby.png").stat().st_size > 10_000


def test_a_human_turn_by_clicking_and_the_bots_answer(browser: Any, server: str, screenshots: Path) -> None:
    with opened(browser, server) as p:
        page = p.page
        start_match(page, "Ben")
        seat = my_seat(page)
        clicks = play_own_turn(page)
        kinds = [c.split(":")[0] for c in clicks]
        assert "card" in kinds, clicks  # a fire card from the hand
        assert kinds.count("district") >= 2, clicks  # the source, then where the fire spreads
        log = page.get_by_test_id("log")
        for kind in ("cardPlayed", "sourceChosen", "actionsEnded"):
            assert log.locator(f"li.ev[data-type={kind}][data-seat='{seat}']").count() >= 1, kind
        assert log.locator("li.ev[data-type=fireSpread]").count() >= 1
        # The bots answer by themselves: steps after the human's turn, by other seats, with no click.
        ended_at = int(log.locator(f"li.ev[data-type=turnEnded][data-seat='{seat}']").first
                       .locator("xpath=ancestor::li[@data-version]").get_attribute("data-version"))
        page.wait_for_function("""([seat, after]) => [...document.querySelectorAll(
            '[data-testid=log] li.step')].some((step) => Number(step.dataset.version) > after
            && step.querySelector(`li.ev[data-type=turnEnded]:not([data-seat='${seat}'])`))""",
                               arg=[seat, ended_at], timeout=TURN_WAIT_MS)
        assert version(page) > ended_at
        bot_seats = {int(x) for x in page.eval_on_selector_all(
            "[data-testid=log] li.ev[data-type=cardPlayed]", "els => els.map((e) => e.dataset.seat)")} - {seat}
        assert bot_seats, "no bot played a fire card"
        # R18b: a pause whose only choice is endFire or endActions is answered by the page itself, not a click.
        sent = [a["type"] for a in p.sent_actions()]
        clicked = [c.removeprefix("button:") for c in clicks if c.startswith("button:")]
        if p.lone_pauses():
            assert sum(t in ("endFire", "endActions") for t in sent) > sum(
                t in ("endFire", "endActions") for t in clicked), (sent, clicks)
        wait_ready(page)
        page.wait_for_selector(IDLE)
        page.screenshot(path=str(screenshots / "board-midgame.png"), full_page=True)
        assert page.locator("[data-testid=district][data-fire]:not([data-fire='0'])").count() >= 1
        assert page.get_by_test_id("hand").locator("[data-testid=hand-card]").count() >= 1
        assert page.get_by_test_id("objectives").locator("li").count() >= 1


def test_a_whole_match_to_its_result_by_clicking(browser: Any, server: str, client: Client,
                                                 screenshots: Path) -> None:
    with opened(browser, server) as p:
        page = p.page
        match_id = start_match(page, "Cat")
        clicks: list[str] = []
        deadline = time.monotonic() + FINISH_SECONDS
        while wait_ready(page):
            assert time.monotonic() < deadline, f"not over after {len(clicks)} clicks"
            clicks.append(click_one(page, prefer=("keepHand", "endActions", "endFire")))
        result = page.get_by_test_id("result")
        result.wait_for()
        assert "Winner" in result.inner_text()
        check_result_table(page, client, match_id)
        page.screenshot(path=str(screenshots / "match-over.png"), full_page=True)
        assert page.get_attribute(MATCH, "data-status") == "OVER"
        game_over = page.get_by_test_id("log").locator("li.ev[data-type=gameOver]")
        game_over.first.wait_for()  # the log follows the event stream, which may arrive after the final read
        assert game_over.count() == 1
        assert len(clicks) > 10
        # R18b: the lone pauses of the whole match were answered without a click (a match may have none: the
        # bots' choices come from the random match id, so the count varies from run to run).
        passes = ("endFire", "endActions")
        auto = sum(a["type"] in passes for a in p.sent_actions()) - sum(c.removeprefix("button:") in passes
                                                                          for c in clicks)
        assert auto >= min(1, p.lone_pauses()), (clicks, p.sent_actions())


def test_a_spectator_sees_the_moves_and_no_secrets(browser: Any, server: str, screenshots: Path) -> None:
    with opened(browser, server) as player, opened(browser, server) as spectator:
        start_match(player.page, "Dan")
        link = player.page.get_by_test_id("spectator-link").get_attribute("href")
        assert link is not None and link.startswith("#/watch/") and "token" not in link.lower()
        watcher = spectator.page
        watcher.goto(f"/{link}")
        watcher.locator(f"{MATCH}[data-viewer=spectator][data-status=ACTIVE]").wait_for()
        seen_first = version(watcher)
        play_own_turn(player.page)
        wait_ready(player.page)
        reached = version(player.page)
        assert reached > seen_first
        watcher.wait_for_function(
            f"() => Number(document.querySelector('[data-testid=match]').dataset.version) >= {reached}")
        assert watcher.get_by_test_id("log").locator("li.ev[data-type=cardPlayed]").count() >= 1
        watcher.screenshot(path=str(screenshots / "spectator.png"), full_page=True)
        # The player sees their secrets (so the checks below are meaningful)...
        assert player.page.get_by_test_id("hand").locator("[data-testid=hand-card]").count() >= 1
        assert any(_private_events(body) for body in player.bodies())
        # ...the spectator never: not in the page, not in any answer or pushed message.
        assert watcher.get_by_test_id("viewer").inner_text() == "Spectating"
        for testid in ("you", "hand", "objectives", "my-tokens", "actions", "hand-card"):
            assert watcher.get_by_test_id(testid).count() == 0, testid
        bodies = spectator.bodies()
        assert any("matchEvents" in json.dumps(body) for body in bodies)
        for body in bodies:
            assert _secrets(body) == [], body
            assert _private_events(body) == [], body


def test_the_lobby_form_is_built_from_the_option_specs(browser: Any, server: str, client: Client) -> None:
    """One input per OptionSpec by its kind, its description as help, only the options for the seat count (the
    2-player tie rule R21 only at 2 seats, optional rule B only at 3-6); a non-default choice reaches the match."""
    specs = titles.get("greatfire").option_specs()
    kinds = {"bool": "checkbox", "int": "number", "choice": "select-one"}
    with opened(browser, server) as p:
        page = p.page
        page.goto("/")
        form = page.get_by_test_id("create-options")
        form.locator("[data-testid=option]").first.wait_for()
        page.get_by_test_id("create-title").select_option("greatfire")  # whatever title the list starts with
        assert form.locator("[data-testid=option]").count() == len(specs)
        for spec in specs:
            row = form.locator(f"[data-testid=option][data-name={spec.name}]")
            assert spec.description in row.inner_text()
            assert row.locator("[data-option]").evaluate("el => el.type") == kinds[spec.kind.value], spec.name
        assert form.locator("[data-option=npcTies] option").all_inner_texts() == ["conductor", "random"]
        assert form.locator("[data-option=startSeat]").get_attribute("placeholder") == "default"  # nullable
        for seats in (2, 3, 6):
            page.get_by_test_id("create-seats").fill(str(seats))
            shown = {spec.name for spec in specs
                     if form.locator(f"[data-testid=option][data-name={spec.name}]").is_visible()}
            assert shown == {spec.name for spec in specs if not spec.seats or seats in spec.seats}, seats
            assert form.locator("[data-option=startSeat]").evaluate("el => el.max") == str(seats - 1)
        three = create_match(page, "Eve", 3, {"hiddenColours": True, "moreDestruction": True, "startSeat": 2})
        two = create_match(page, "Eve", 2, {"npcTies": "random"})
    query = "query($id: ID!) { match(id: $id) { seatCount options } }"
    assert client.gql(query, {"id": three})["match"] == {"seatCount": 3, "options": {
        "hiddenColours": True, "moreDestruction": True, "startSeat": 2, "npcTies": "conductor"}}
    assert client.gql(query, {"id": two})["match"] == {"seatCount": 2, "options": {
        "hiddenColours": False, "moreDestruction": False, "startSeat": None, "npcTies": "random"}}


def test_a_title_without_a_client_module_plays_to_its_end_through_the_generic_client(
        browser: Any, server: str, client: Client, screenshots: Path) -> None:
    """The generic client (web/titles/fallback.js, which any title without web/titles/<id>/ gets; ?client=fallback
    forces it): the view as a tree, the legal actions as buttons labelled from the action, the typed result."""
    with opened(browser, server) as p:
        page = p.page
        match_id = start_match(page, "Gus", client="fallback")
        assert page.get_attribute(MATCH, "data-client") == "fallback"
        assert page.get_by_test_id("board").count() == 0
        assert page.get_by_test_id("view-tree").locator("details").count() > 1
        labels: dict[str, str] = {}
        clicks: list[str] = []
        deadline = time.monotonic() + FINISH_SECONDS
        while wait_ready(page):
            assert time.monotonic() < deadline, f"not over after {len(clicks)} clicks"
            for button in page.locator("[data-testid=actions] [data-testid=action]").all()[:3]:
                labels[button.get_attribute("data-type")] = button.inner_text()
            clicks.append(click_one(page, prefer=("keepHand", "endActions", "endFire")))
        assert len(labels) >= 4, labels
        for kind, label in labels.items():  # the type in words, then the other fields
            assert label.startswith(_words(kind)), (kind, label)
        assert any(": " in label for label in labels.values()), labels
        check_result_table(page, client, match_id)
        assert page.get_by_test_id("log").locator("li.ev[data-type=gameOver]").inner_text() == "Game over"
        page.screenshot(path=str(screenshots / "generic-client-over.png"), full_page=True)


def test_an_abandoned_match_is_shown_plainly_with_its_clocks(browser: Any, redis_url: str, tmp_path: Path) -> None:
    """A match under a turn clock whose person never acts: the players table has a clock per seat; once the
    service abandons it (FIREBREAK_ABANDONED_TTL), the result says so, with its reason and no score table."""
    with h.private_service(redis_url, tmp_path, "firebreak-web-abandon", api=True, FIREBREAK_ABANDONED_TTL="4",
                           FIREBREAK_TICK_SECONDS="0.1") as svc, h.recording(str(svc.base)) as c:
        body = {"title": "greatfire", "seats": 3, "seed": 1301, "clock": {"initialSeconds": 600}}
        created = c.gql(h.CREATE, {"input": body})["createMatch"]
        s = h.Setup(created["matchId"], created["hostToken"], 3, 1301, created["match"]["options"])
        h.join(c, s, "Hal", seat=0)
        h.add_bot(c, s, "random")
        h.add_bot(c, s, "random")
        with opened(browser, str(svc.base)) as p:
            page = p.page
            page.goto(f"/#/watch/{s.match_id}")
            page.locator(f"{MATCH}[data-viewer=spectator]").wait_for()
            page.get_by_test_id("players").locator("[data-clock-seat]").first.wait_for()
            result = page.locator("[data-testid=result][data-end=ABANDONED]")
            result.wait_for(timeout=TURN_WAIT_MS)
            assert "abandoned" in result.inner_text().lower()
            assert "no person acted" in page.get_by_test_id("result-reason").inner_text()
            assert page.get_by_test_id("result-table").count() == 0
            assert page.get_attribute(MATCH, "data-status") == "OVER"
            clocks = page.get_by_test_id("players").locator("[data-clock-seat]").all_inner_texts()
            assert len(clocks) == 3 and all(re.fullmatch(r"\d+:\d\d", text) for text in clocks), clocks
            assert clocks[1:] == ["10:00", "10:00"]  # a bot's clock never runs
            assert page.get_by_test_id("log").locator("li.ev[data-type=matchAbandoned]").inner_text().startswith(
                "The match was abandoned")


# ----- helpers --------------------------------------------------------------------------------------------

def check_result_table(page: Any, client: Client, match_id: str) -> None:
    """The result panel shows the typed MatchResult: a row per seat with its total and one cell per score column
    of the title, the winners highlighted, and the reason."""
    result = client.gql("""query($id: ID!) { match(id: $id) { result { endReason reason winners
        scores { seat total parts { key value } } } } }""", {"id": match_id})["match"]["result"]
    assert result["endReason"] == "FINISHED"
    table = page.get_by_test_id("result-table")
    assert table.locator("thead th").all_inner_texts() == [
        "Player", "Total", *(column.label for column in titles.get("greatfire").score_columns())]
    assert table.locator("[data-testid=result-row]").count() == len(result["scores"]) == 3
    for score in result["scores"]:
        row = table.locator(f"[data-testid=result-row][data-seat='{score['seat']}']")
        assert row.get_attribute("data-winner") == str(score["seat"] in result["winners"]).lower()
        assert row.locator("td[data-key=total]").inner_text() == str(score["total"])
        for part in score["parts"]:
            assert row.locator(f"td[data-key={part['key']}]").inner_text() == str(part["value"])
    assert table.locator("tr.winner").count() == len(result["winners"]) >= 1
    assert page.get_by_test_id("result-reason").inner_text() == result["reason"]


def _words(name: str) -> str:
    """An action type in words, as the generic client writes it: "moveBand" -> "Move band"."""
    return re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).lower().capitalize()


def _links() -> list[dict[str, str]]:
    from firebreak.domain.greatfire.board import SHIPPED_BOARD

    links: list[dict[str, str]] = json.loads(SHIPPED_BOARD.read_text(encoding="utf-8"))["links"]
    return links


def _secrets(value: Any, path: str = "") -> list[str]:
    """Where a decoded JSON value holds a seat's secrets: a "you" key anywhere (a view's private part, or the
    caller's seat), or a hand / objectives outside an event (events such as handRevealed show a hand to all)."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "you" or (key in ("hand", "objectives") and "type" not in value):
                found.append(f"{path}.{key}")
            found.extend(_secrets(item, f"{path}.{key}"))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found.extend(_secrets(item, f"{path}[{n}]"))
    return found


def _private_events(value: Any) -> list[Any]:
    """Events (objects with a "type") that carry an audience, anywhere in a decoded JSON value."""
    if isinstance(value, dict):
        found = [value] if "type" in value and "audience" in value else []
        for item in value.values():
            found.extend(_private_events(item))
        return found
    if isinstance(value, list):
        return [event for item in value for event in _private_events(item)]
    return []


def test_a_click_held_while_another_seat_moves_still_counts(browser: Any, server: str) -> None:
    """A person presses Resign, another seat's step redraws the page, and they let go: the click still counts. The
    seat controls stay the same element while they draw the same, and stay where they are, above the panels a step
    changes (web/frame.js: kept(), place()); before, the button under the finger was replaced or moved and the
    click lost, which also made a browser test fail now and then."""
    with opened(browser, server) as p:
        page = p.page
        match_id = create_match(page, "Cleo", 3)
        row = page.locator(f"[data-testid=my-matches] [data-testid=match-row][data-match='{match_id}']")
        row.get_by_test_id("join").click()
        row.locator(".seat.human", has_text="Cleo").wait_for()
        others = {}  # the other two seats, taken over HTTP: nobody moves for them unless this test does
        for n in (1, 2):
            taken = httpx.post(f"{server}/v1/matches/{match_id}/seats", json={"name": f"Other {n}"}, timeout=10)
            assert taken.status_code == 201, taken.text
            others[taken.json()["seat"]] = taken.json()["token"]
        page.goto(f"/#/match/{match_id}")
        page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
        page.wait_for_selector(IDLE)
        while page.get_attribute(MATCH, "data-your-turn") == "true":  # setup decisions pass from seat to seat
            click_one(page)
        (mover,) = httpx.get(f"{server}/v1/matches/{match_id}", timeout=10).json()["toAct"]
        seen = httpx.get(f"{server}/v1/matches/{match_id}", timeout=10,
                         headers={"authorization": f"Bearer {others[mover]}"}).json()
        box = page.get_by_test_id("resign").bounding_box()
        assert box is not None
        centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

        def press() -> None:
            page.mouse.move(*centre)
            page.mouse.down()

        press()  # pressed and let go with nothing in between: the way the test clicks works
        page.mouse.up()
        page.get_by_test_id("resign-confirm-box").wait_for(timeout=5_000)
        page.get_by_test_id("resign-cancel").click()

        turn = page.get_by_test_id("turn").element_handle()
        press()
        acted = httpx.post(f"{server}/v1/matches/{match_id}/actions", timeout=10,
                           headers={"authorization": f"Bearer {others[mover]}"},
                           json={"action": seen["legalActions"][0], "expectedVersion": seen["version"]})
        assert acted.status_code == 200, acted.text
        page.wait_for_function(f"() => Number(document.querySelector('{MATCH}').dataset.version) > {seen['version']}")
        assert turn.evaluate("el => !el.isConnected"), "the page was redrawn while the button was held"
        page.mouse.up()
        page.get_by_test_id("resign-confirm-box").wait_for(timeout=5_000)
        assert page.get_attribute(MATCH, "data-status") == "ACTIVE"  # asked, not resigned
