"""London's outlook (the search's leaf): a fitted estimate of the final lead that moves the way the scoring does."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from firebreak.domain.bots import random_choice
from firebreak.domain.london.bots import outlook
from firebreak.domain.london.bots.outlook import COEFFICIENTS, features, lead, margin
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.state import Phase
from tests.london.positions import at, new


def _played(seats: int, steps: int, seed: int) -> LondonMatch:
    m = new(seats=seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        (seat,) = m.to_act()
        m.apply(seat, random_choice(m, seat, rng))
    return m


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_seats_leads_are_opposite(seed: int) -> None:
    m = _played(2, 40 * seed, seed)
    assert lead(m, 0) == pytest.approx(-lead(m, 1))


def test_the_lead_is_over_the_best_rival() -> None:
    m = _played(4, 90, 5)
    seats = [features(m, s) for s in range(4)]
    for seat in range(4):
        pairs = [margin(*seats[seat], *seats[o]) for o in range(4) if o != seat]
        assert lead(m, seat) == min(pairs)
    assert len({round(lead(m, s), 9) for s in range(4)}) > 1


def test_prestige_earned_counts_at_its_weight() -> None:
    m = _played(2, 30, 7)
    before = lead(m, 0)
    m.prestige_land[0] += 3
    assert lead(m, 0) == pytest.approx(before + 3 * COEFFICIENTS.prestige)
    assert COEFFICIENTS.prestige > 0.5


def test_an_unpaid_loan_at_the_end_costs_what_the_scoring_takes() -> None:
    m = new()
    at(m, Phase.ACTION, money=[0, 0])
    m.turns_left = 1  # the last round: no time left to repay
    clear = lead(m, 0)
    m.loans[0] = 1
    owing = lead(m, 0)
    assert owing < clear - 5  # the scoring takes 7; the fitted sum at least most of that


def test_poverty_lowers_the_lead_and_the_poorer_seat_pays_the_comparison() -> None:
    m = _played(2, 30, 9)
    base = lead(m, 0)
    m.poverty[0] += 6
    assert lead(m, 0) < base
    assert outlook.poorer_loses(2, 8) > 0 > outlook.poorer_loses(8, 2)


def test_weighted_reads_every_named_feature() -> None:
    f, _ = features(_played(2, 50, 4), 0)
    for name in outlook.NAMES:
        bumped = replace(f, **{name: getattr(f, name) + 1.0})
        assert outlook.weighted(bumped) - outlook.weighted(f) == pytest.approx(getattr(COEFFICIENTS, name))
