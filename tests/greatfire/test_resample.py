"""GreatFireMatch.resample (contract v2): a copy drawn from one seat's view, in every phase (R15 redeals and R20
non-player turns included); once over (P5) a clone."""

from __future__ import annotations

import random

import pytest

from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import Phase
from tests.greatfire.bot_positions import new_match
from tests.greatfire.positions import scrambled


def _check(m: GreatFireMatch, seat: int) -> GreatFireMatch:
    """The resample shows the seat its view and pending step, depends on nothing the seat cannot see, and leaves
    the match alone."""
    before = m.to_dict()
    copy = m.resample(seat, random.Random(7))
    assert copy.view(seat) == m.view(seat)
    assert copy.to_act() == m.to_act() and copy.system_due() == m.system_due()
    assert copy.legal_actions(seat) == m.legal_actions(seat)
    assert scrambled(m, seat).resample(seat, random.Random(7)).to_dict() == copy.to_dict()
    assert m.to_dict() == before
    return copy


@pytest.mark.parametrize(("seats", "seed"), [(2, 647), (4, 5), (5, 5)])
def test_r15_a_redeal_is_resampled_with_the_seats_still_to_be_offered_one(seats: int, seed: int) -> None:
    """R15: in a redeal every seat's resample shows the same, keeps the same seats still to be offered a redeal,
    accepts both choices and plays on to the end."""
    m = new_match(seats, seed)
    assert m.phase is Phase.REDEAL
    rng = random.Random(seed)
    for seat in range(seats):
        copy = _check(m, seat)
        assert copy.queue == m.queue
        for choice in m.legal_actions(m.turn):
            b = copy.clone()
            b.apply(m.turn, choice)
            while not b.is_over():
                if b.system_due():
                    b.run_system_step()
                else:
                    (turn,) = b.to_act()
                    b.apply(turn, rng.choice(b.legal_actions(turn)))
            assert b.result() is not None


def test_r20_a_non_player_turn_is_resampled_and_runs_on() -> None:
    """R20: while the service runs a 2-player non-player turn, a seat's resample shows the same and runs the
    same automated steps from the same public cards."""
    m = new_match(2, 91)
    rng = random.Random(91)
    seen = 0
    while not m.is_over() and seen < 6:
        if m.system_due():
            for seat in (0, 1):
                copy = _check(m, seat)
                copy.run_system_step()
            seen += 1
            m.run_system_step()
        else:
            (seat,) = m.to_act()
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    assert seen == 6


def test_p5_once_over_a_resample_is_a_clone() -> None:
    """P5: nothing is hidden at the end; the resample is an independent copy equal to the match."""
    m = new_match(3, 12)
    rng = random.Random(12)
    while not m.is_over():
        (seat,) = m.to_act()
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    copy = m.resample(1, random.Random(1))
    assert copy is not m and copy.to_dict() == m.to_dict()
