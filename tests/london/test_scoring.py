"""The end of the game and the final scoring: steps 1-7, the poverty table, the tie-breaks."""

from __future__ import annotations

from itertools import pairwise

import pytest

from firebreak.domain.london.rules.poverty import compared, prestige_lost
from firebreak.domain.london.rules.scoring import final_scores, result
from firebreak.domain.london.state import Phase
from tests.london.positions import at, bid, build, cid, new, own, play, set_hand


@pytest.mark.parametrize(("poverty", "lost"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 3), (5, 5), (6, 7), (7, 9),
                                                (8, 11), (9, 13), (10, 15), (11, 18), (13, 24)])
def test_poverty_table(poverty: int, lost: int) -> None:
    assert prestige_lost(poverty) == lost


def test_lowest_returns_all_others_return_as_many() -> None:
    assert compared([7, 3, 12]) == [4, 0, 9]


def _ended(seats: int = 3):
    m = new(seats)
    m.phase = Phase.OVER
    return m


def test_final_scoring_steps() -> None:
    """L22: the score parts are land, play, city, loans, money and poverty."""
    m = _ended()
    build(m, 0, [cid("Guildhall"), cid("Vintners")], [cid("Observatory")], down=(cid("Vintners"),))
    set_hand(m, 0, cid("Paupers"), cid("Market"))
    m.money, m.loans, m.poverty = [40, 20, 3], [3, 1, 0], [5, 2, 1]
    m.prestige_land, m.prestige_play = [4, 0, 0], [3, 0, 0]
    set_hand(m, 1)
    set_hand(m, 2)
    f = final_scores(m)[0]
    # step 1: 5 + 2 cards = 7; step 6: lowest is seat 2 with 1 -> 6 left; step 7: -7
    assert (f.poverty_left, f.poverty) == (6, -7)
    assert f.city == 3 + 1 + 3  # step 2: covered and face-down cards count
    assert f.loans == -7  # step 3: £40 repays 2 of 3 loans; step 4: -7 for the third
    assert f.money == 3  # step 5: £10 left -> 3
    assert f.total == 4 + 3 + 7 - 7 + 3 - 7
    assert final_scores(m)[2].poverty == 0


def test_tie_breaks_lowest_poverty_then_boroughs_then_best_card_then_shared() -> None:
    """L20: the tie-breaks in order; a true tie is a shared win."""
    m = _ended(2)
    set_hand(m, 0)
    set_hand(m, 1)
    m.money, m.loans = [0, 0], [0, 0]
    m.poverty = [2, 0]  # seat 0: 10 - 1 (2 poverty left) = 9, seat 1: 9 with none left
    m.prestige_play = [10, 9]
    assert [s.total for s in result(m).scores] == [9, 9] and result(m).winners == (1,)
    m.poverty = [0, 0]
    m.prestige_play = [9, 9]
    own(m, 0, bid("Lewisham"))
    assert result(m).winners == (0,)
    own(m, 1, bid("Hackney"))
    build(m, 0, [cid("Market")])
    build(m, 1, [cid("Vintners")])
    m.prestige_play = [9, 8]  # Vintners gives 1 at the end
    assert result(m).winners == (1,)
    build(m, 0, [cid("Sheriff")])  # also 1 at the end: all equal
    m.prestige_play = [8, 8]
    assert result(m).winners == (0, 1)
    assert result(m).reason.startswith("The city card deck ran out")


def test_the_end_every_other_seat_takes_a_last_turn() -> None:
    """L17: the deck empty at the end of a turn: each other seat plays once more, then the game ends."""
    m = new(3)
    m.deck = m.deck[-2:]
    at(m, money=[5, 5, 5])
    play(m, {"type": "drawThree"}, {"type": "drawDeck"}, {"type": "drawDeck"})  # L4: the third draw is lost
    assert m.turns_left == 2 and m.turn == 1
    for seat in (1, 2):
        assert m.turn == seat and not m.is_over()
        while m.turn == seat and not m.is_over():
            play(m, m.legal_actions(seat)[-1])
    assert m.is_over() and m.result() is not None and m.to_act() == [] and m.legal_actions(0) == []


def test_the_poverty_table_only_grows() -> None:
    losses = [prestige_lost(p) for p in range(40)]
    assert losses == sorted(losses) and all(b - a <= 3 for a, b in pairwise(losses))
