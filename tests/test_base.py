"""The base match class (domain/base.py): its final public methods guard in order and raise the typed errors with
the same messages for every title, on the reference titles tic-tac-toe (one seat at a time, encoded) and Blind
Auction (simultaneous bids, automated steps)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firebreak.domain.contract import Action
from firebreak.domain.errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    NoSystemStep,
    NotYourTurn,
    RulesError,
    UnknownActionId,
    UnknownSeat,
)
from tests.titles.blind_auction import BLIND_AUCTION
from tests.titles.tictactoe import TITLE as TIC_TAC_TOE
from tests.titles.tictactoe import TicTacToeMatch


class CountingMatch(TicTacToeMatch):
    """Tic-tac-toe that counts how often its legal actions are computed."""

    computed = 0

    def _legal_actions(self, seat: int) -> list[Action]:
        self.computed += 1
        return super()._legal_actions(seat)


def _ttt(first: int = 0) -> TicTacToeMatch:
    m = TIC_TAC_TOE.new_match(2, 1, {"firstSeat": first})
    assert isinstance(m, TicTacToeMatch)
    return m


def _refused(m: Any, seat: Any, action: Any, error: type[RulesError], message: str) -> None:
    """The act raises this error with this message and changes nothing."""
    before = m.to_dict()
    with pytest.raises(error) as caught:
        m.apply(seat, action)
    assert str(caught.value) == message
    assert m.to_dict() == before


def test_a_legal_action_counts_a_version_and_stamps_it_on_its_events() -> None:
    m = _ttt()
    assert m.apply(0, {"cell": 4, "type": "mark"}) == [{"type": "marked", "seat": 0, "cell": 4, "version": 1}]
    assert (m.version, m.to_act()) == (1, [1])


def test_the_guards_run_in_order_with_the_same_messages_for_every_title() -> None:
    m = _ttt()
    mark = {"type": "mark", "cell": 0}
    _refused(m, 2, mark, UnknownSeat, "seat 2 is not a seat of this 2-seat match")
    _refused(m, True, mark, UnknownSeat, "seat True is not a seat of this 2-seat match")
    _refused(m, 0, "x", MalformedAction, 'an action must be a JSON object with a string "type"')
    _refused(m, 0, {"type": 1, "cell": 0}, MalformedAction, 'an action must be a JSON object with a string "type"')
    _refused(m, 1, mark, NotYourTurn, "seat 1 owes no decision; waiting for seat 0")
    _refused(m, 1, "x", MalformedAction, 'an action must be a JSON object with a string "type"')  # shape first
    illegal = "'mark' with these fields is not legal now; legal types: mark"
    for action in ({"type": "mark", "cell": 9}, {"type": "mark", "cell": True}, {"type": "mark", "cell": 0, "x": 1}):
        _refused(m, 0, action, IllegalAction, illegal)  # (True is not the int 1)
    for cell, seat in ((0, 0), (3, 1), (1, 0), (4, 1), (2, 0)):
        m.apply(seat, {"type": "mark", "cell": cell})
    assert m.is_over()
    _refused(m, 7, "x", GameOver, "the match is over")  # the end before anything else


def test_simultaneous_seats_and_automated_steps_are_guarded_too() -> None:
    m = BLIND_AUCTION.new_match(3, 3)
    assert m.system_due() and m.to_act() == []
    _refused(m, 0, {"type": "bid", "amount": 0}, NotYourTurn, "no seat owes a decision now")
    m.run_system_step()
    with pytest.raises(NoSystemStep, match=r"^no automated step is due: seats 0, 1, 2 owe the decision$"):
        m.run_system_step()
    m.apply(1, {"type": "bid", "amount": 2})
    _refused(m, 1, {"type": "bid", "amount": 1}, NotYourTurn, "seat 1 owes no decision; waiting for seats 0, 2")
    _refused(m, 0, {"type": "bid", "amount": 99}, IllegalAction,
             "'bid' with these fields is not legal now; legal types: bid")
    assert m.legal_actions(1) == [] and m.legal_actions(0)


def test_no_system_step_names_the_title_s_words_and_who_owes_the_decision() -> None:
    m = _ttt(first=1)
    assert not m.system_due()
    with pytest.raises(NoSystemStep, match=r"^tic-tac-toe has no automated steps: seat 1 owes the decision$"):
        m.run_system_step()


def test_legal_actions_are_computed_once_per_version_and_handed_out_as_copies() -> None:
    m = CountingMatch()
    first = m.legal_actions(0)
    first[0]["cell"] = 99
    first.clear()
    assert m.legal_actions(0) == [{"type": "mark", "cell": k} for k in range(9)]
    assert m.legal_action_ids(0) == list(range(9))
    assert m.legal_actions(1) == [] and m.computed == 1
    m.apply(0, {"type": "mark", "cell": 0})
    assert m.legal_actions(1)[0] == {"type": "mark", "cell": 1} and m.computed == 2


def test_views_observations_and_resampling_check_the_seat_and_the_result_waits_for_the_end() -> None:
    m = _ttt()
    for ask in (m.view, m.json_view, m.observation, lambda seat: m.resample(seat, random.Random(0))):
        with pytest.raises(UnknownSeat):
            ask(2)
    assert m.view(None)["cells"] == [None] * 9 and "you" not in m.view(None)
    assert m.json_view(1) == m.view(1) and m.json_view(None) == m.view(None)  # a title that keeps nothing written
    assert m.result() is None
    with pytest.raises(UnknownActionId):
        m.apply_id(0, 9)
    assert m.apply_id(0, 8)[0]["cell"] == 8
    copy = m.clone()
    copy.apply(1, {"type": "mark", "cell": 0})
    assert m.cells[0] is None and isinstance(copy, TicTacToeMatch)


def test_a_standing_needs_seats_of_the_match_and_a_title_without_one_answers_none() -> None:
    """Match.standing (P18) ranks at least one seat, each a seat of the match; a title that ranks only a finished
    match (tic-tac-toe writes no _standing) answers None."""
    m = _ttt()
    with pytest.raises(ValueError):
        m.standing((), "ended early")
    with pytest.raises(UnknownSeat):
        m.standing((2,), "ended early")
    assert m.standing((0, 1), "ended early") is None
