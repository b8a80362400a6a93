"""The title registry and the options a new match accepts."""

from __future__ import annotations

import pytest

from domain import titles
from domain.errors import BadOptions, UnknownTitle


def test_registry_lists_great_fire() -> None:
    title = titles.get("greatfire")
    assert [t.id for t in titles.all_titles()] == ["greatfire"]
    assert (title.min_seats, title.max_seats) == (2, 6)
    assert set(title.options()) == {"hiddenColours", "moreDestruction", "startSeat", "npcTies"}


def test_unknown_title() -> None:
    with pytest.raises(UnknownTitle):
        titles.get("chess")


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (1, {}), (7, {}), ("4", {}), (True, {}), (2, {"moreDestruction": True}), (2, {"npcTies": "coin"}),
        (4, {"hiddenColors": True}), (4, {"hiddenColours": "yes"}), (4, {"moreDestruction": 1}),
        (4, {"startSeat": 4}), (4, {"startSeat": -1}), (4, {"startSeat": True}),
    ],
)
def test_bad_seats_or_options_are_refused(seats: object, options: dict[str, object]) -> None:
    with pytest.raises(BadOptions):
        titles.get("greatfire").new_match(seats=seats, seed=1, options=options)  # type: ignore[arg-type]


def test_seed_must_be_an_integer() -> None:
    with pytest.raises(BadOptions):
        titles.get("greatfire").new_match(seats=4, seed="7")  # type: ignore[arg-type]


def test_defaults_are_filled_in() -> None:
    m = titles.get("greatfire").new_match(seats=3, seed=1)
    assert m.view(None)["options"] == {"hiddenColours": False, "moreDestruction": False, "startSeat": None,
                                                "npcTies": "conductor"}
