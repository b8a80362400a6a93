"""The bench's search levels that stop their rollouts elsewhere (bench/horizons.py) stop where they say, after a
fire move and after an action plan alike, and `rivals-fire` plays no rival action but ending the phase."""

from __future__ import annotations

import random

import pytest

from bench import bots, horizons
from firebreak.domain.contract import Budget
from firebreak.domain.greatfire.bots import search
from firebreak.domain.greatfire.bots.rollout import own_turn, rollout
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import Phase
from tests.greatfire.bot_positions import positions
from tests.greatfire.positions import conserved


def _after_moves(seats: int) -> list[tuple[GreatFireMatch, int, str]]:
    """States just after the seat's root move, a fire move (the seat's turn goes on) or a plan (it has ended)."""
    out = []
    for m in positions(seats, seed=70 + seats, every=5):
        if m.phase not in (Phase.FIRE, Phase.ACTIONS) or (m.phase is Phase.FIRE and m.card is not None):
            continue
        seat = m.turn
        s = m.clone()
        for action in search.root_moves(s, seat)[0]:
            search.apply(s, seat, action)
        if s.phase is not Phase.OVER:
            out.append((s, seat, m.phase.value))
    assert {kind for _, _, kind in out} == {"fire", "actions"}
    return out


def _played(s: GreatFireMatch, seat: int, play: search.Playout, horizon: int) -> GreatFireMatch:
    """A copy of s played on by the playout to the horizon, its cones conserved."""
    reached = s.clone()
    play(reached, seat, random.Random(1), horizon)
    conserved(reached)
    return reached


@pytest.mark.parametrize("seats", [2, 4])
def test_turn_end_stops_at_the_end_of_the_seats_turn(seats: int) -> None:
    for s, seat, kind in _after_moves(seats):
        reached = _played(s, seat, horizons.from_own_turn, 1)
        if own_turn(s, seat):
            assert reached.phase is Phase.OVER or not own_turn(reached, seat)
            assert reached.version > s.version
        else:  # the plan ended the turn: nothing is played
            assert kind == "actions" and reached.version == s.version


@pytest.mark.parametrize("seats", [2, 4])
def test_next_turn_stops_as_the_seats_next_turn_begins(seats: int) -> None:
    for s, seat, _ in _after_moves(seats):
        reached = _played(s, seat, horizons.from_own_turn, 2)
        assert reached.phase is Phase.OVER or own_turn(reached, seat)
        assert reached.version > s.version
        if not own_turn(s, seat):  # after a plan: what the service's rollout plays
            service = s.clone()
            rollout(service, seat, random.Random(1), 1)
            assert service.to_dict() == reached.to_dict()


@pytest.mark.parametrize("horizon", [1, 2])
def test_rivals_fire_plays_the_rivals_fire_and_no_rival_action(horizon: int) -> None:
    checked = 0
    for s, seat, _ in _after_moves(4):
        reached = _played(s, seat, horizons.rivals_fire, horizon)
        # Flips as rollout.rollout counts them. 1: after a fire move, to the turn's end; after a plan, to the seat's
        # next turn. 2: after a fire move, to the seat's next turn; after a plan, through it.
        assert reached.phase is Phase.OVER or own_turn(reached, seat) == (own_turn(s, seat) == (horizon == 2))
        for rival in range(4):
            if rival != seat:
                assert reached.pawns[rival] == s.pawns[rival] and reached.put_out[rival] == s.put_out[rival]
        checked += reached.discard != s.discard  # rivals played fire cards
    assert checked


def test_the_levels_are_on_the_ladder() -> None:
    ladder = bots._bots(None, 1)
    assert {"turn-end", "next-turn", "rivals-fire", "rivals-fire-2"} <= set(ladder)
    m = next(positions(4, seed=3, every=40))
    seat = m.turn
    for name in horizons.JUDGES:
        assert ladder[name](m, seat, random.Random(2)) in m.legal_actions(seat)
    assert horizons.levels(Budget(seconds=None, iterations=1)).keys() == horizons.JUDGES.keys()


def test_search_cost_prints_each_rounds_cost_and_the_same_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    """bench/search_cost.py: the same seeded decisions every round, so two trees' digests say they decide alike."""
    from bench import search_cost

    assert search_cost.main(["--games", "1", "--every", "25", "--iterations", "2", "--rounds", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all("ms a decision" in line for line in lines)
    assert len({line.rsplit("decisions ", 1)[1] for line in lines}) == 1
