"""The generic side of the encoded contract: action indexes and the list of titles that provide it."""

from __future__ import annotations

import pytest

from domain import titles
from domain.encoding import ActionIndex, encoded_titles, is_encoded
from domain.errors import IllegalAction, UnknownActionId


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


def test_encoded_titles_are_the_registered_titles_that_provide_the_contract() -> None:
    listed = encoded_titles()
    assert "greatfire" in [t.id for t in listed]
    assert [t.id for t in listed] == [t.id for t in titles.all_titles() if is_encoded(t)]


@pytest.mark.parametrize("title", encoded_titles(), ids=lambda t: t.id)
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
