"""The deliberate bot (bench-only, issue 51): it plays whole games with legal actions only, never undoes a staged
choice, builds a city (runs it, buys land, borrows early) and decides from its seat's view alone."""

from __future__ import annotations

import random

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import Budget
from firebreak.domain.london.bots import deliberate
from firebreak.domain.london.match import LondonMatch
from tests.london.test_bots_see import positions, scrambled

TITLE = titles.get("london")
STEP_CAP = 5000  # a 4-seat game of this bot takes about 1,000 decisions


def self_play(seats: int, seed: int) -> tuple[LondonMatch, list[dict[str, object]], list[str]]:
    """A seeded game of deliberate seats only: the match at its end, every event and every action type taken."""
    m = TITLE.new_match(seats=seats, seed=seed)
    assert isinstance(m, LondonMatch)
    events: list[dict[str, object]] = []
    taken: list[str] = []
    for _ in range(STEP_CAP):
        if m.is_over():
            break
        (seat,) = m.to_act()
        action = deliberate.choose(m, seat, random.Random(f"{seed}:{m.version}"), Budget())
        assert action in m.legal_actions(seat)
        taken.append(action["type"])
        events.extend(m.apply(seat, action))
    assert m.is_over(), "the game did not end"
    return m, events, taken


@pytest.mark.parametrize(("seats", "seed"), [(2, 21), (3, 22), (4, 23)])
def test_deliberate_seats_finish_a_game_with_legal_actions_and_no_undo(seats: int, seed: int) -> None:
    """Every action is listed, the game ends, and no staged choice is ever cancelled (a cancel would mean the plan
    chose a step it then could not carry out: develop, cancel, develop... for ever)."""
    _, _, taken = self_play(seats, seed)
    assert "cancel" not in taken


def test_deliberate_seats_build_a_city() -> None:
    """The plan runs its city, buys boroughs and borrows early, as a good player does (the greedy seats of the
    bench ran theirs 0.9 times a game and bought 0.2 boroughs)."""
    m, events, _ = self_play(4, 31)
    runs = [sum(1 for e in events if e["type"] == "povertyGained" and e["seat"] == s) for s in range(4)]
    loans = [next((i for i, e in enumerate(events) if e["type"] == "loanTaken" and e["seat"] == s), None)
             for s in range(4)]
    assert sum(runs) / 4 >= 3
    assert sum(len(b) for b in m.boroughs) / 4 >= 1
    assert any(i is not None and i < len(events) / 3 for i in loans)  # a loan in the first third of the game


def test_deliberate_sees_only_its_seats_view() -> None:
    """Twins that differ only in what the seat cannot see get the same decision (tests/london/test_bots_see.py)."""
    compared = 0
    for seats, seed in ((2, 11), (3, 12), (4, 13)):
        for m in positions(seats, seed):
            seat = m.turn
            twin = scrambled(m, seat)
            assert twin.view(seat) == m.view(seat) and twin.to_dict() != m.to_dict()
            first = deliberate.choose(m, seat, random.Random(5), Budget())
            assert first in m.legal_actions(seat)
            assert deliberate.choose(twin, seat, random.Random(5), Budget()) == first
            compared += len(m.legal_actions(seat)) > 1
    assert compared >= 5
