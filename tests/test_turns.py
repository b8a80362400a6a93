"""Since when each seat to act owes its decision (matches/turns.py), as pure functions of the seats around a step."""

from __future__ import annotations

from firebreak.matches import turns


def test_a_seat_not_to_act_before_a_step_is_handed_a_turn_by_it() -> None:
    """Seat 1 comes to act at version 8: its turn starts there; a match without the field starts every turn at 0."""
    meta = turns.after_step({}, [0], [1], 0, 8)
    assert turns.started(meta) == {1: 8} and turns.since(meta, 1) == 8
    assert turns.since({}, 0) == 0 and turns.started({}) == {}


def test_a_seats_own_action_goes_on_with_its_turn_and_another_step_hands_it_a_new_one() -> None:
    """Seat 0's own action leaves it to act: the same turn; another seat's action, or the non-player step (no
    actor), that leaves it to act: a new turn at that step's version."""
    meta = turns.after_step({}, [0], [0], None, 5)
    assert turns.since(meta, 0) == 5
    assert turns.since(turns.after_step(meta, [0], [0], 0, 6), 0) == 5
    both = turns.after_step(meta, [0], [0, 1], 0, 6)
    assert turns.started(both) == {0: 5, 1: 6}
    assert turns.started(turns.after_step(both, [0, 1], [0, 1], 1, 7)) == {0: 7, 1: 6}
    assert turns.started(turns.after_step(both, [0, 1], [], None, 7)) == {}
