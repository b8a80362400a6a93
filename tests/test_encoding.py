"""The generic side of the encoded contract: action indexes and the list of titles that provide it (and the
reference title tic-tac-toe, which provides it too)."""

from __future__ import annotations

import random

import pytest

from firebreak.domain import titles
from firebreak.domain.encoding import ActionIndex, ObservationLayout, Piece, is_encoded
from firebreak.domain.errors import IllegalAction, NotYourTurn, RulesError, UnknownActionId, UnknownSeat
from tests.titles.tictactoe import TITLE as TIC_TAC_TOE


def test_index_maps_actions_to_ids_and_back() -> None:
    index = ActionIndex([{"type": "pass"}, {"type": "move", "to": "a"}, {"to": "b", "type": "move"}])
    assert len(index) == 3
    assert index.id_of({"to": "b", "type": "move"}) == 2
    assert index.ids_of([{"type": "move", "to": "b"}, {"type": "pass"}]) == [0, 2]
    assert index.action(1) == {"type": "move", "to": "a"}
    index.action(1)["to"] = "z"
    assert index.action(1) == {"type": "move", "to": "a"}


def test_index_refuses_what_is_not_in_the_space() -> None:
    index = ActionIndex([{"type": "take", "n": 1}])
    with pytest.raises(IllegalAction):
        index.id_of({"type": "take", "n": True})  # a bool is not the int 1
    for bad in (-1, 1, True, "0", None):
        with pytest.raises(UnknownActionId):
            index.action(bad)
    with pytest.raises(ValueError, match="twice"):
        ActionIndex([{"type": "a"}, {"type": "a"}])


def test_an_observation_layout_is_its_pieces_in_order_and_its_size_their_sum() -> None:
    layout = ObservationLayout([Piece("seat", lambda seats: seats, lambda s, seat: [int(k == seat) for k in range(s)]),
                                Piece("raw", lambda seats: 2, lambda s, seat: [-3, 300])])
    assert [layout.size(seats) for seats in (2, 3)] == [4, 5]
    assert layout.observe(3, 1) == [0, 1, 0, 0, 255]  # clipped to 0-OBSERVATION_HIGH


def test_a_layout_that_does_not_clip_leaves_its_numbers_as_filled() -> None:
    layout = ObservationLayout([Piece("raw", lambda seats: 2, lambda s, seat: [-3, 300])], clip=False)
    assert layout.observe(3, 1) == [-3, 300] and layout.size(2) == 2


def test_encoded_titles_are_the_registered_titles_that_provide_the_contract() -> None:
    listed = titles.encoded_titles()
    assert "greatfire" in [t.id for t in listed]
    assert [t.id for t in listed] == [t.id for t in titles.all_titles() if is_encoded(t)]


@pytest.mark.parametrize("title", [*titles.encoded_titles(), TIC_TAC_TOE], ids=lambda t: t.id)
def test_every_encoded_title_lists_each_action_once_and_the_same_each_time(title: object) -> None:
    assert is_encoded(title)
    space = title.action_space()
    assert space == title.action_space() and space
    ActionIndex(space)
    match = title.new_match(title.min_seats, 1)
    seat = match.to_act()[0]
    assert [space[i] for i in match.legal_action_ids(seat)] == sorted(
        match.legal_actions(seat), key=space.index)
    assert len(match.observation(seat)) == title.observation_size(title.min_seats)


@pytest.mark.parametrize("title", [*titles.encoded_titles(), TIC_TAC_TOE], ids=lambda t: t.id)
def test_an_unknown_or_illegal_id_or_seat_is_refused_and_changes_nothing(title: object) -> None:
    seats = min(3, title.max_seats)
    m = title.new_match(seats, 5)
    size = len(title.action_space())
    while len(m.legal_action_ids(m.to_act()[0])) == size:  # tic-tac-toe starts with every cell legal
        m.apply_id(m.to_act()[0], m.legal_action_ids(m.to_act()[0])[0])
    seat = m.to_act()[0]
    before = m.to_dict()
    illegal = next(i for i in range(size) if i not in m.legal_action_ids(seat))
    for bad, error in ((illegal, IllegalAction), (-1, UnknownActionId), (size, UnknownActionId),
                       (True, UnknownActionId), ("3", UnknownActionId)):
        with pytest.raises(error):
            m.apply_id(seat, bad)
    with pytest.raises(NotYourTurn):
        m.apply_id((seat + 1) % seats, m.legal_action_ids(seat)[0])
    with pytest.raises(UnknownSeat):
        m.observation(seats)
    assert issubclass(UnknownActionId, RulesError)
    assert m.to_dict() == before


def test_tictactoe_ids_are_cells_and_its_observation_is_the_board_from_the_seat() -> None:
    rng = random.Random(4)
    match, twin = TIC_TAC_TOE.new_match(2, 1), TIC_TAC_TOE.new_match(2, 1)
    space = TIC_TAC_TOE.action_space()
    while not match.is_over():
        seat = match.to_act()[0]
        action_id = rng.choice(match.legal_action_ids(seat))
        assert match.apply_id(seat, action_id) == twin.apply(seat, space[action_id]) and space[action_id] == {
            "type": "mark", "cell": action_id}
        for viewer in (0, 1):
            marks = [0 if owner is None else 1 if owner == viewer else 2 for owner in match.view(viewer)["cells"]]
            assert match.observation(viewer) == [*marks, int(match.to_act() == [viewer])]
    with pytest.raises(UnknownActionId):
        TIC_TAC_TOE.new_match(2, 1).apply_id(0, 9)
