"""The greedy bot: legal choices only, from the seat's view alone, and a better economy than random."""

from __future__ import annotations

import random

import pytest

from firebreak.domain import titles
from firebreak.domain.bots import levels, random_choice
from firebreak.domain.contract import Budget
from firebreak.domain.london.bots.greedy import choose
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.state import Phase
from tests.london.positions import at, build, cid, new, set_hand

TITLE = titles.get("london")


def test_greedy_is_a_level_and_the_takeover() -> None:
    assert list(levels(TITLE)) == ["random", "greedy", "search"]


def test_greedy_choice_depends_on_the_view_only() -> None:
    m = TITLE.new_match(seats=3, seed=8)
    assert isinstance(m, LondonMatch)
    rng = random.Random(1)
    for _ in range(60):
        seat = m.turn
        m.apply(seat, random_choice(m, seat, rng))
    seat = m.turn
    twin = m.resample(seat, random.Random(4))  # same view, other hidden cards
    assert choose(m, seat, random.Random(3), Budget()) == choose(twin, seat, random.Random(3), Budget())


def test_greedy_never_runs_an_empty_city() -> None:
    m = new()
    set_hand(m, 0, cid("Paupers"), cid("Paupers", 2), cid("Vintners"))
    at(m, money=[0, 5])
    assert {"type": "run"} in m.legal_actions(0)
    for seed in range(3):
        assert choose(m, 0, random.Random(seed), Budget()) != {"type": "run"}


def test_greedy_activates_what_pays_when_it_runs() -> None:
    m = new()
    build(m, 0, [cid("Vintners")], [cid("Brewery")])
    set_hand(m, 0)
    at(m, Phase.RUN, money=[0, 5])
    assert choose(m, 0, random.Random(0), Budget())["type"] == "activate"


def test_greedy_plays_legal_actions_to_the_end_and_beats_random() -> None:
    wins = 0
    for seed in range(3):
        m = TITLE.new_match(seats=2, seed=seed)
        rng = random.Random(seed)
        while not m.is_over():
            seat = m.to_act()[0]
            action = choose(m, seat, rng, Budget()) if seat == 0 else random_choice(m, seat, rng)
            assert action in m.legal_actions(seat)
            m.apply(seat, action)
        result = m.result()
        assert result is not None
        wins += result.winners == (0,)
    assert wins == 3


@pytest.mark.parametrize(("seats", "seeds"), [(2, range(100, 106)), (4, range(200, 203))])
def test_greedy_ends_its_games_with_no_unpaid_loan(seats: int, seeds: range) -> None:
    """Whole seeded games between greedy seats: no seat ends owing a loan it cannot repay (-7 prestige each); it
    borrows only for land, with turns left, and when one run of its city would pay the loan back."""
    for seed in seeds:
        m = TITLE.new_match(seats=seats, seed=seed)
        rng = random.Random(seed)
        while not m.is_over():
            seat = m.to_act()[0]
            m.apply(seat, choose(m, seat, rng, Budget()))
        result = m.result()
        assert result is not None
        assert [s.parts["loans"] for s in result.scores] == [0] * seats, seed


def test_greedy_repays_a_loan_when_it_can() -> None:
    m = new()
    at(m, Phase.START, money=[16, 5])
    m.loans[0] = 1
    assert {"type": "repayLoan"} in m.legal_actions(0)
    assert choose(m, 0, random.Random(0), Budget()) == {"type": "repayLoan"}
