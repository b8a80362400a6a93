"""London in the browser with its own client module (web/titles/london/): a whole match by clicking, and no
secret of another seat in the page.

The person plays against one greedy bot (2 seats is the shortest London); everything is done by clicking
buttons and cards in the page, and the tests read the DOM's data-testid / data-card attributes.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from firebreak.domain import titles
from tests.service.conftest import Client
from tests.web.test_browser import IDLE, MATCH, my_seat, opened, wait_ready

FINISH_SECONDS = 240
SEED = 1812  # the dealt hands; the person starts (startSeat 0) and builds its costliest playable card, paid for
# The person's plain policy after their first card: draw (the deck runs out sooner), discard, stop, pay.
PREFER = ("skipDraw", "drawDeck", "drawBoard", "drawThree", "discard", "endRun", "endDevelop", "newStack", "pay",
          "flip", "takeLoan")
LOOPS = ("takeLoan", "repayLoan", "cancel")  # choices that may come back: never the default
BUTTONS = "[data-testid=actions] [data-testid=action]:not([disabled])"
STEP_JS = "() => document.querySelector('[data-testid=prompt]')?.innerText || ''"


def catalogue() -> dict[str, Any]:
    """London's card catalogue as the page gets it (Title.board)."""
    board: dict[str, Any] = titles.get("london").board()
    return board


def cost(card_id: str | None) -> int:
    """A card's printed cost (0 for anything else)."""
    card = catalogue()["cards"].get(card_id or "")
    return int(card["cost"]) if card else 0


def start_london(page: Any, name: str, seed: int | None = None, start_seat: int | None = None) -> str:
    """In the lobby: create a 2-seat London match (a seed, a start seat: L21), join it, seat a greedy bot, open
    it; return the match id."""
    page.goto("/")
    page.get_by_test_id("title").first.wait_for()
    page.get_by_test_id("create-title").select_option("london")
    page.get_by_test_id("player-name").fill(name)
    page.get_by_test_id("bot-level").select_option("greedy")
    page.get_by_test_id("create-seats").fill("2")
    if seed is not None:
        page.get_by_test_id("create-seed").fill(str(seed))
    if start_seat is not None:
        page.locator("[data-testid=create-options] [data-option=startSeat]").fill(str(start_seat))
    rows = "[data-testid=my-matches] [data-testid=match-row]"
    before = set(page.eval_on_selector_all(rows, "els => els.map((e) => e.dataset.match)"))
    page.get_by_test_id("create-match").click()
    page.wait_for_function("([rows, n]) => document.querySelectorAll(rows).length > n", arg=[rows, len(before)])
    (match_id,) = set(page.eval_on_selector_all(rows, "els => els.map((e) => e.dataset.match)")) - before
    row = page.locator(f"{rows}[data-match='{match_id}']")
    row.get_by_test_id("join").click()
    row.locator(".seat.human", has_text=name).wait_for()
    row.get_by_test_id("add-bot").click()
    row = page.locator(f"{rows}[data-match='{match_id}'][data-status=ACTIVE]")
    row.wait_for()
    row.get_by_test_id("play-link").click()
    page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
    page.get_by_test_id("dev-board").wait_for()
    assert page.get_attribute(MATCH, "data-client") == "london"
    return match_id


def click(page: Any, target: Any) -> None:
    target.click()
    page.wait_for_selector(IDLE)


def click_button(page: Any, prefer: tuple[str, ...]) -> str:
    """Click the first action button of the preferred types (else the first that moves on); return its type."""
    for kind in prefer:
        found = page.locator(f"{BUTTONS}[data-type={kind}]")
        if found.count():
            click(page, found.first)
            return f"button:{kind}"
    found = page.locator(BUTTONS + "".join(f":not([data-type={kind}])" for kind in LOOPS))
    if not found.count():  # only loans or a cancel are left
        found = page.locator(BUTTONS)
    assert found.count(), f"no action button on the person's turn: {page.evaluate(STEP_JS)}"
    kind = found.first.get_attribute("data-type")
    click(page, found.first)
    return f"button:{kind}"


def built(page: Any, seat: int) -> bool:
    """Whether the seat has played a card (built or an action card), by the events log."""
    return page.locator(f"[data-testid=log] li.ev[data-seat='{seat}']:is([data-type=cardPlayed],"
                        "[data-type=actionPlayed])").count() > 0


def labels_now(page: Any) -> list[tuple[str, str, str]]:
    """Every action button now: (type, card or borough id, label)."""
    out: list[tuple[str, str, str]] = page.eval_on_selector_all(
        "[data-testid=actions] [data-testid=action]",
        "els => els.map((e) => [e.dataset.type, e.dataset.card || e.dataset.borough || '', e.innerText])")
    return out


def check_labels(seen: list[tuple[str, str, str]]) -> None:
    """Buttons say what they do in the catalogue's names ("Play Hospital", "Discard Vintners", "Pay £2")."""
    cat = catalogue()
    names = {**{k: c["name"] for k, c in cat["cards"].items()}, **{k: b["name"] for k, b in cat["boroughs"].items()}}
    expected = {"play": "Play {}", "discard": "Discard {}", "buyLand": "Buy {}", "activate": "Activate {}",
                "drawBoard": "Draw {} from the board", "flip": "Flip {}"}
    kinds = {kind for kind, _, _ in seen}
    assert {"drawDeck", "develop", "play", "discard", "pay"} <= kinds, kinds
    for kind, ref, label in seen:
        if kind in expected:
            assert label == expected[kind].format(names[ref]), (kind, ref, label)
        elif kind == "pay":
            assert re.fullmatch(r"Pay £\d+", label), label
        elif kind == "takeLoan":
            assert label == "Take a loan"
        assert "{" not in label and "type" not in label, (kind, label)  # never the raw action


def check_result(page: Any, client: Client, match_id: str) -> None:
    """The result panel: a row per seat with its total and London's score columns, the winners marked."""
    result = client.gql("""query($id: ID!) { match(id: $id) { result { endReason reason winners
        scores { seat total parts { key value } } } } }""", {"id": match_id})["match"]["result"]
    assert result["endReason"] == "FINISHED"
    table = page.get_by_test_id("result-table")
    assert table.locator("thead th").all_inner_texts() == [
        "Player", "Total", *(column.label for column in titles.get("london").score_columns())]
    assert table.locator("[data-testid=result-row]").count() == len(result["scores"]) == 2
    for score in result["scores"]:
        row = table.locator(f"[data-testid=result-row][data-seat='{score['seat']}']")
        assert row.get_attribute("data-winner") == str(score["seat"] in result["winners"]).lower()
        assert row.locator("td[data-key=total]").inner_text() == str(score["total"])
        for part in score["parts"]:
            assert row.locator(f"td[data-key={part['key']}]").inner_text() == str(part["value"])
    assert page.get_by_test_id("result-reason").inner_text() == result["reason"]


# ----- the tests ----------------------------------------------------------------------------------------------

def test_a_london_match_to_its_result_by_clicking(browser: Any, server: str, client: Client,
                                                  screenshots: Path) -> None:
    """The person builds a card by clicking cards in the hand (L7: choose develop, the card, its discard, where,
    then pay or take a loan, L1/L5), then draws until the deck runs out (L17); the result table is shown."""
    with opened(browser, server) as p:
        page = p.page
        match_id = start_london(page, "Ivy", seed=SEED, start_seat=0)
        seat = my_seat(page)
        assert seat == 0  # the first to join takes the first seat: the person's first turn follows from the seed
        hand = page.get_by_test_id("hand").locator("[data-testid=hand-card]")
        assert hand.count() >= 6  # the dealt hand, as card tiles with the catalogue's names
        names = {c["name"] for c in catalogue()["cards"].values()}
        assert all(text.split("\n")[0].strip() in names for text in hand.all_inner_texts())
        clicks: list[str] = []
        seen: list[tuple[str, str, str]] = []
        asked_develop = has_built = False
        deadline = time.monotonic() + FINISH_SECONDS
        while wait_ready(page):
            assert time.monotonic() < deadline, f"not over after {len(clicks)} clicks: {clicks[-20:]}"
            seen.extend(labels_now(page))
            has_built = has_built or built(page, seat)  # the log keeps the latest steps only: look while playing
            if not has_built:
                develop = page.locator(f"{BUTTONS}[data-type=develop]")
                card = page.locator("[data-testid=hand-card].playable")
                if develop.count() and not asked_develop:
                    asked_develop = True
                    click(page, develop.first)
                    clicks.append("button:develop")
                    continue
                if card.count():
                    costliest = max(card.all(), key=lambda c: cost(c.get_attribute("data-card")))
                    kind = costliest.get_attribute("data-type")
                    click(page, costliest)
                    clicks.append(f"card:{kind}")
                    continue
            clicks.append(click_button(page, PREFER))
            if len(clicks) == 12:
                page.screenshot(path=str(screenshots / "london-midgame.png"), full_page=True)
        result = page.get_by_test_id("result")
        result.wait_for()
        assert "Winner" in result.inner_text()
        check_result(page, client, match_id)
        page.screenshot(path=str(screenshots / "london-over.png"), full_page=True)
        assert "card:play" in clicks and "card:discard" in clicks, clicks[:30]
        assert has_built
        check_labels(seen)
        log = page.get_by_test_id("log")
        assert log.locator("li.ev[data-type=gameOver]").inner_text() == "The game is over"
        lines = log.locator("li.ev").all_inner_texts()
        raw = [line for line in lines if re.search(r"\w=", line)]
        assert raw == [], raw[:5]  # every London event in words, none as raw fields
        # Once over everything is revealed: each city's stacks, and the hands at the end.
        assert page.get_by_test_id("final-hand").count() == 2


def test_the_page_shows_no_card_another_seat_keeps_hidden(browser: Any, server: str, client: Client) -> None:
    """L18: the bot's hand is a count only. The cards it was dealt that are not public now (the spectator's view
    lists the public ones) appear nowhere in the person's page, by id or by a name no visible card has."""
    seed = 4242
    with opened(browser, server) as p, opened(browser, server) as spectator:
        page = p.page
        match_id = start_london(page, "Jo", seed=seed)
        seat = my_seat(page)
        other = 1 - seat
        wait_ready(page)
        page.wait_for_selector(IDLE)
        setup = titles.get("london").new_match(2, seed, {"startSeat": None})
        dealt = set(setup.view(other)["you"]["hand"])
        public = client.gql("query($id: ID!) { match(id: $id) { version view } }", {"id": match_id})["match"]
        assert public["version"] == int(page.get_attribute(MATCH, "data-version"))
        seen_publicly = {c["card"] for player in public["view"]["players"] for stack in player["stacks"]
                         for c in stack if "card" in c}
        seen_publicly |= {c for row in public["view"]["board"].values() if isinstance(row, list) for c in row if c}
        seen_publicly |= {c for player in public["view"]["players"] for c in player["knownHand"]}
        secret = dealt - seen_publicly
        assert secret, "the bot's hand should still hold cards it was dealt"
        html = page.content()
        mine = set(page.eval_on_selector_all("[data-card]", "els => els.map((e) => e.dataset.card)"))
        assert secret.isdisjoint(mine), secret & mine
        for card in secret:
            assert f'"{card}"' not in html, card
        cards = catalogue()["cards"]
        visible_names = {cards[c]["name"] for c in mine if c in cards}
        text = page.locator("body").inner_text()
        for card in secret:
            if cards[card]["name"] not in visible_names:
                assert cards[card]["name"] not in text, card
        # The bot's hand as a count in the players table and in its city heading; no hand tiles of its own.
        bot_row = page.locator(f"[data-testid=players] [data-testid=player][data-seat='{other}']")
        hand_size = next(pl["handSize"] for pl in public["view"]["players"] if pl["seat"] == other)
        assert str(hand_size) in bot_row.inner_text()
        city = page.locator(f"[data-testid=city][data-seat='{other}']")
        assert f"{hand_size} card{'' if hand_size == 1 else 's'} in hand" in city.inner_text()
        assert city.locator("[data-testid=hand-card]").count() == 0
        # Nor in what the service sent the page: no player row of the view has a hand before the end.
        rows = [row for body in p.bodies() for row in _player_rows(body)]
        assert rows and all("hand" not in row for row in rows), [r for r in rows if "hand" in r][:1]
        own_size = next(pl["handSize"] for pl in public["view"]["players"] if pl["seat"] == seat)
        assert page.get_by_test_id("hand").locator("[data-testid=hand-card]").count() == own_size
        # A spectator sees the same London client without any hand: neither seat's cards in hand are there.
        watcher = spectator.page
        watcher.goto(f"/#/watch/{match_id}")
        watcher.locator(f"{MATCH}[data-viewer=spectator][data-client=london]").wait_for()
        watcher.get_by_test_id("dev-board").wait_for()
        assert watcher.get_by_test_id("hand").count() == 0 and watcher.get_by_test_id("action").count() == 0
        shown = set(watcher.eval_on_selector_all("[data-card]", "els => els.map((e) => e.dataset.card)"))
        assert shown <= seen_publicly, shown - seen_publicly
        assert watcher.locator("[data-testid=city]").count() == 2


def _player_rows(value: Any) -> list[dict[str, Any]]:
    """The player rows of every view in a decoded JSON value (objects holding a seat and its stacks)."""
    if isinstance(value, dict):
        found = [value] if "stacks" in value and "seat" in value else []
        return found + [row for item in value.values() for row in _player_rows(item)]
    if isinstance(value, list):
        return [row for item in value for row in _player_rows(item)]
    return []
