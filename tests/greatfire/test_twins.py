"""R18b: the public course of a game never depends on a hidden fact.

Twins are two matches that differ only in what one viewer may not see (other hands, objectives, held tokens,
hidden colours, deck order, face-down tokens: tests.greatfire.positions.scrambled). Both are played on with the
same public choices; the viewer's views (and its own legal actions) must stay identical at every step until the
rules reveal something hidden: a card the viewer draws or a token it takes, a hand revealed by R8, a card a
non-player turn flips from one of its decks (R20), or the end of the game (P5).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from firebreak.domain import titles
from firebreak.domain.events import visible_to
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.rng import Rng
from tests.greatfire.positions import act, blank, put, scrambled

TITLE = titles.get("greatfire")
REVEALING = ("cardSeen", "tokenRevealed", "handRevealed", "fireCardFlipped", "priorityCardFlipped",
             "movementCardFlipped")
STEPS = 80


def _random_position(seats: int, seed: int, hidden: bool) -> GreatFireMatch:
    """A match played on by random legal choices for a random number of steps (setup included)."""
    rng = random.Random(seed)
    options: dict[str, Any] = {"hiddenColours": hidden}
    if seats == 2:
        options["npcTies"] = rng.choice(["conductor", "random"])
    m = TITLE.new_match(seats=seats, seed=seed, options=options)
    assert isinstance(m, GreatFireMatch)
    for _ in range(rng.randrange(0, 300)):
        if m.is_over():
            break
        if m.system_due():
            m.run_system_step()
        else:
            (seat,) = m.to_act()
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    return m


def _seat_secrets_only(m: GreatFireMatch, viewer: int | None) -> GreatFireMatch:
    """A twin that differs from m only in the other seats' own secrets (hands, objectives, tokens, hidden colours):
    the decks and face-down tokens stay, so the comparison runs on past the next non-player flip."""
    twin = scrambled(m, viewer)
    twin.deck, twin.box, twin.board_tokens = list(m.deck), list(m.box), list(m.board_tokens)
    twin.priority_deck, twin.movement_deck = list(m.priority_deck), list(m.movement_deck)
    twin.rng = Rng(m.rng.state)
    return twin


def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    for x, y in zip(a, b, strict=False):
        if x != y:
            return (x, y)
    longer = a if len(a) > len(b) else b
    return (longer[min(len(a), len(b))],)


def play_twins(a: GreatFireMatch, b: GreatFireMatch, viewer: int | None, rng: random.Random) -> tuple[int, str]:
    """Play both twins on with the same public choices; assert the viewer cannot tell them apart.

    Returns how many steps were compared and why the comparison stopped.
    """
    for step in range(STEPS):
        if a.is_over():
            return step, "over"  # P5: everything is revealed at the end
        assert a.view(viewer) == b.view(viewer), f"step {step}: the views differ"
        if a.system_due():
            assert b.system_due()
            seen_a, seen_b = a.run_system_step(), b.run_system_step()
        else:
            (seat,) = a.to_act()
            assert b.to_act() == [seat]
            legal_a, legal_b = a.legal_actions(seat), b.legal_actions(seat)
            if seat == viewer:
                assert legal_a == legal_b, f"step {step}: the viewer's own choices differ"
            common = [x for x in legal_a if x in legal_b]
            if not common:
                return step, "choice"  # the acting seat's secrets decide; its choice will show them
            action = rng.choice(common)
            seen_a, seen_b = a.apply(seat, action), b.apply(seat, action)
        seen_a, seen_b = visible_to(seen_a, viewer), visible_to(seen_b, viewer)
        if seen_a != seen_b:
            difference = _first_difference(seen_a, seen_b)
            assert all(e["type"] in REVEALING for e in difference), f"step {step}: {difference}"
            return step, "revealed"
    return STEPS, "steps"


@pytest.mark.parametrize("hidden", [False, True], ids=["open", "hiddenColours"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_r18b_twins_differing_in_hidden_facts_look_the_same_until_a_reveal(seats: int, hidden: bool) -> None:
    """R18b: for many random positions and every viewer (spectator included), twins differing only in facts
    hidden from the viewer give it identical views, events and own choices at every step until a reveal."""
    compared = 0
    for k in range(12):
        seed = 7000 + 100 * seats + 10 * hidden + k
        m = _random_position(seats, seed, hidden)
        rng = random.Random(seed)
        for viewer in [None, *range(seats)]:
            for twin in (scrambled(m, viewer), _seat_secrets_only(m, viewer)):
                steps, _ = play_twins(m.clone(), twin, viewer, random.Random(rng.random()))
                compared += steps
    assert compared > 200 * seats  # the twins were really played on, not stopped at once


def _pause_scene(token: str) -> GreatFireMatch:
    """The audit's reproduction (4 players, seed 31337): St. Botolphs burnt with 2 cones, Hounds Ditch burnt with
    a band, Whitechapel with a house and a token; seat 0 holds one token and plays N from St. Botolphs into
    Whitechapel."""
    m = blank(4, 31337, hand=["N"] * 5)
    put(m, "st-botolphs", cones=2, houses={})
    put(m, "hounds-ditch", bands=1, houses={})
    put(m, "whitechapel", houses={"red": 1}, token="victoryPoint")
    m.tokens[0] = [token]
    act(m, {"type": "playCard", "card": "N"})
    act(m, {"type": "chooseSource", "district": "st-botolphs"})
    act(m, {"type": "spreadFire", "district": "whitechapel"})
    return m


def test_r18b_the_pause_after_a_move_is_the_same_whatever_token_is_held() -> None:
    """R18b and R7: after the move every seat sees the same fire-phase pause whether seat 0 holds a double-move or
    a 1-VP token; only the holder of the double-move token is offered it."""
    double, point = _pause_scene("doubleMove"), _pause_scene("victoryPoint")
    for viewer in (None, 1, 2, 3):
        assert double.view(viewer) == point.view(viewer)
        assert double.view(viewer)["phase"] == "fire"
    assert double.legal_actions(0) == [{"type": "playDoubleMove"}, {"type": "endFire"}]
    assert point.legal_actions(0) == [{"type": "endFire"}]
    for m in (double, point):
        events = act(m, {"type": "endFire"})
        assert m.phase == "actions" and [e["type"] for e in events] == ["actionsStarted"]
    assert double.view(1) == point.view(1)


def test_r18b_an_actions_phase_at_zero_points_waits_for_end_actions_whoever_holds_a_charge() -> None:
    """R18b and R11c: at 0 action points the phase stays open for a player holding a demolition charge and for one
    holding none; other seats see the same, and only endActions (after an optional demolition) ends it."""
    twins = []
    for token in ("demolition", "victoryPoint"):
        m = _pause_scene(token)
        act(m, {"type": "endFire"})
        for _ in range(2):
            act(m, {"type": "moveBand", "from": "hounds-ditch", "to": "bishopsgate"})
            act(m, {"type": "moveBand", "from": "bishopsgate", "to": "hounds-ditch"})
        assert m.ap == 0 and m.phase == "actions" and m.turn == 0
        twins.append(m)
    with_charge, without = twins
    assert [a["type"] for a in without.legal_actions(0)] == ["endActions"]
    assert "endActions" in [a["type"] for a in with_charge.legal_actions(0)]
    for viewer in (None, 1, 2, 3):
        assert with_charge.view(viewer) == without.view(viewer)
