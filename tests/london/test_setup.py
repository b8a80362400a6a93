"""Setup: £5 each, 6 cards each, the deck stacked C-B-A, three starting boroughs, the board by player count."""

from __future__ import annotations

import pytest

from firebreak.domain import titles
from firebreak.domain.errors import BadOptions
from firebreak.domain.london.state import Phase
from tests.london.positions import all_cards


@pytest.mark.parametrize(("seats", "columns"), [(2, 3), (3, 4), (4, 5)])
def test_setup_counts(seats: int, columns: int) -> None:
    """L2: the board's columns by player count."""
    m = titles.get("london").new_match(seats=seats, seed=7)
    assert m.money == [5] * seats and all(len(h) == 6 for h in m.hands)
    assert len(m.deck) == 101 - 6 * seats and sorted(all_cards(m)) == sorted(m.cat.cards)
    assert len(m.board_top) == len(m.board_bottom) == columns
    assert [m.borough(b).name for b in m.borough_display] == ["City", "Westminster", "Southwark & Bermondsey"]
    assert len(m.borough_deck) == 17
    assert m.loans == m.poverty == [0] * seats and m.phase is Phase.START


def test_deck_is_a_on_top_then_b_then_c_at_the_bottom() -> None:
    m = titles.get("london").new_match(seats=4, seed=3)
    letters = [m.card(c).deck for c in reversed(m.deck)]  # from the top down
    assert letters == sorted(letters)
    dealt = [m.card(c).deck for hand in m.hands for c in hand]
    assert set(dealt) == {"A"}


def test_same_seed_same_setup_and_start_seat_from_the_seed() -> None:
    """L21: the start player is drawn from the seed unless startSeat names one."""
    title = titles.get("london")
    a, b = title.new_match(seats=3, seed=11), title.new_match(seats=3, seed=11)
    assert a.to_dict() == b.to_dict()
    starts = {title.new_match(seats=4, seed=s).turn for s in range(30)}
    assert starts == {0, 1, 2, 3}
    assert title.new_match(seats=4, seed=5, options={"startSeat": 2}).turn == 2


@pytest.mark.parametrize(("seats", "options"), [(1, {}), (5, {}), ("2", {}), (True, {}), (2, {"startSeat": 2}),
                                                (2, {"startSeat": True}), (2, {"colours": 1})])
def test_bad_seats_or_options_are_refused(seats: object, options: dict[str, object]) -> None:
    with pytest.raises(BadOptions):
        titles.get("london").new_match(seats=seats, seed=1, options=options)  # type: ignore[arg-type]


def test_title_metadata() -> None:
    title = titles.get("london")
    assert (title.id, title.name, title.min_seats, title.max_seats) == ("london", "London (2nd edition)", 2, 4)
    assert [s.name for s in title.option_specs()] == ["startSeat"]
    assert [c.key for c in title.score_columns()] == ["land", "play", "city", "loans", "money", "poverty"]
    assert [b.name for b in title.bots()] == ["greedy", "search"] and title.takeover_level == "greedy"
    board = title.board()
    assert board is not None and len(board["cards"]) == 101 and len(board["boroughs"]) == 20
    with pytest.raises(BadOptions):
        title.new_match(seats=2, seed="x")  # type: ignore[arg-type]
