"""The title registry and the options a new match accepts."""

from __future__ import annotations

import pytest

from firebreak.domain import titles
from firebreak.domain.bots import levels, takeover_level
from firebreak.domain.errors import BadOptions, UnknownTitle


def test_registry_lists_great_fire() -> None:
    title = titles.get("greatfire")
    assert [t.id for t in titles.all_titles()] == ["greatfire", "london"]
    assert (title.min_seats, title.max_seats) == (2, 6)
    assert [spec.name for spec in title.option_specs()] == ["hiddenColours", "moreDestruction", "startSeat",
                                                            "npcTies"]


def test_bot_levels_are_random_plus_the_titles_own() -> None:
    title = titles.get("greatfire")
    assert list(levels(title)) == ["random", "greedy", "search"]
    assert takeover_level(title) == "greedy"


def test_every_option_default_is_accepted_and_listed_choices_are_valid() -> None:
    for title in titles.all_titles():
        for seats in range(title.min_seats, title.max_seats + 1):
            applying = [spec for spec in title.option_specs() if not spec.seats or seats in spec.seats]
            assert title.check_options(seats, {spec.name: spec.default for spec in applying})
            for spec in applying:
                for choice in spec.choices:
                    assert title.check_options(seats, {spec.name: choice})[spec.name] == choice


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


def test_a_test_title_can_be_registered_for_a_while() -> None:
    """register() adds a title (the reference title) to get() and all_titles(); a taken id is refused; unregister()
    removes it and leaves the shipped registry as it was; shipped titles cannot be unregistered."""
    from tests.titles.blind_auction import BLIND_AUCTION

    shipped = [t.id for t in titles.all_titles()]
    titles.register(BLIND_AUCTION)
    try:
        assert titles.get(BLIND_AUCTION.id) is BLIND_AUCTION
        assert [t.id for t in titles.all_titles()] == sorted([*shipped, BLIND_AUCTION.id])
        with pytest.raises(ValueError, match="already registered"):
            titles.register(BLIND_AUCTION)
    finally:
        titles.unregister(BLIND_AUCTION.id)
    assert [t.id for t in titles.all_titles()] == shipped
    with pytest.raises(UnknownTitle):
        titles.get(BLIND_AUCTION.id)
    with pytest.raises(ValueError, match="not added by register"):
        titles.unregister("greatfire")


@pytest.mark.parametrize(("title_id", "seats", "options"), [
    ("greatfire", 4, {"npcTies": "random"}),       # a 2-player option at 4 seats, not its default
    ("greatfire", 3, {"startSeat": 3}),            # a seat number: below the seat count
    ("london", 2, {"startSeat": None, "x": 1}),
    ("london", 3, "startSeat=1"),
])
def test_option_specs_check_every_title_alike(title_id: str, seats: int, options: object) -> None:
    """domain/options.py checks any title's options from its specs (kind, range, seat counts, unknown names)."""
    with pytest.raises(BadOptions):
        titles.get(title_id).check_options(seats, options)  # type: ignore[arg-type]


def test_an_option_for_other_seat_counts_may_be_left_at_its_default() -> None:
    assert titles.get("greatfire").check_options(4, {"npcTies": "conductor"})["npcTies"] == "conductor"
