"""The suite can fail: each broken variant of the reference title is caught by the test meant for its defect,
while the sound title passes the same tests (test_*.py of this directory)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from firebreak.domain.contract import Action, Event, OptionKind, OptionSpec, Result, SeatScore
from firebreak.domain.errors import IllegalAction
from firebreak.domain.rng import Rng
from tests.conformance import test_bots, test_hidden, test_illegal, test_options, test_playouts, test_schemas
from tests.conformance.support import Case
from tests.titles.blind_auction import OPTIONS, BlindAuctionMatch, BlindAuctionTitle

_COUNTER = itertools.count()


class LeakyView(BlindAuctionMatch):
    """Shows every sealed bid to everyone."""

    def view(self, seat: int | None) -> dict[str, Any]:
        return {**super().view(seat), "bids": list(self.bids)}


class LaxApply(BlindAuctionMatch):
    """Takes an action with an extra key."""

    def apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, dict):
            action = {k: v for k, v in action.items() if k in ("type", "amount")}
        return super().apply(seat, action)


class DirtyRefusal(BlindAuctionMatch):
    """Counts the version up before it checks the action."""

    def apply(self, seat: int, action: Action) -> list[Event]:
        self.version += 1
        try:
            return super().apply(seat, action)
        except IllegalAction:
            raise


class ForgetfulDict(BlindAuctionMatch):
    """Does not save the prizes won."""

    def to_dict(self, copied: bool = True) -> dict[str, Any]:
        return {**super().to_dict(), "won": [0] * self.seats}


class WrongResample(BlindAuctionMatch):
    """Redraws the seat's own sealed bid too."""

    def resample(self, seat: int, rng: random.Random) -> BlindAuctionMatch:
        copy = super().resample(seat, rng)
        copy.bids = [None if b is None else 0 for b in copy.bids]
        return copy


class OffResult(BlindAuctionMatch):
    """Names its score parts otherwise than its score columns."""

    def result(self) -> Result | None:
        result = super().result()
        if result is None:
            return None
        return Result(tuple(SeatScore(s.seat, s.total, {"coins": s.parts["coins"], "prizes": s.parts["prizes"]})
                            for s in result.scores), result.winners, result.reason)


class StaleToAct(BlindAuctionMatch):
    """Lists every seat while bidding, including those that have bid."""

    def to_act(self) -> list[int]:
        return list(range(self.seats)) if self.phase == "bid" else []


class StrayAudience(BlindAuctionMatch):
    """Addresses the bidder's private event to a seat number the match does not have."""

    def apply(self, seat: int, action: Action) -> list[Event]:
        events = super().apply(seat, action)
        return [dict(e, audience=[self.seats]) if "audience" in e else e for e in events]


class OffSchema(BlindAuctionMatch):
    """Adds a field its event schema does not list."""

    def apply(self, seat: int, action: Action) -> list[Event]:
        return [dict(e, note="extra") if e["type"] == "bidSealed" else e for e in super().apply(seat, action)]


class Broken(BlindAuctionTitle):
    """The reference title with matches of another class (and, for some defects, its own setup or options)."""

    def __init__(self, cls: type[BlindAuctionMatch], defect: str = "") -> None:
        self.cls, self.defect, self.id = cls, defect, f"broken-{cls.__name__}{defect}"

    def new_match(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> BlindAuctionMatch:
        sound = super().new_match(seats, seed, options)
        m = self.cls()
        m.load(sound.to_dict())
        if self.defect == "unseeded":
            shift = next(_COUNTER)  # another deal at every call, whatever the seed
            m.rng = Rng(shift)
            m.deck = [(p + shift) % 6 + 1 for p in m.deck]
        return m

    def match_from_dict(self, data: dict[str, Any]) -> BlindAuctionMatch:
        m = self.cls()
        m.load(data)
        return m

    def option_specs(self) -> list[OptionSpec]:
        if self.defect == "laxOptions":
            return [*OPTIONS, OptionSpec("speed", OptionKind.INT, 1, "Unchecked.", minimum=1, maximum=3)]
        return super().option_specs()

    def check_options(self, seats: object, options: dict[str, Any] | None) -> dict[str, Any]:
        if self.defect == "laxOptions":
            given = dict(options or {})
            speed = given.pop("speed", 1)
            return {**super().check_options(seats, given), "speed": speed}
        return super().check_options(seats, options)


Check = Callable[[Case], None]
DEFECTS: list[tuple[str, Broken, Check]] = [
    ("view leaks sealed bids: resample", Broken(LeakyView), test_hidden.test_resample_keeps_what_the_seat_knows),
    ("view leaks sealed bids: twins", Broken(LeakyView),
     test_hidden.test_views_do_not_depend_on_facts_hidden_from_the_viewer),
    ("extra key accepted", Broken(LaxApply), test_illegal.test_actions_outside_the_legal_list_raise_and_change_nothing),
    ("refusal changes the match", Broken(DirtyRefusal),
     test_illegal.test_actions_outside_the_legal_list_raise_and_change_nothing),
    ("to_dict loses a fact", Broken(ForgetfulDict),
     test_playouts.test_random_playouts_reach_the_end_through_coherent_steps),
    ("resample forgets the own bid", Broken(WrongResample), test_hidden.test_resample_keeps_what_the_seat_knows),
    ("parts not keyed like the columns", Broken(OffResult),
     test_playouts.test_the_end_has_a_typed_result_with_the_titles_score_columns),
    ("to_act lists seats with nothing to do", Broken(StaleToAct),
     test_playouts.test_random_playouts_reach_the_end_through_coherent_steps),
    ("audience names no seat of the match", Broken(StrayAudience),
     test_hidden.test_private_events_reach_their_audience_only),
    ("an event outside the published schema", Broken(OffSchema), test_schemas.test_what_the_engine_sends_validates),
    ("not reproducible from the seed", Broken(BlindAuctionMatch, "unseeded"),
     test_playouts.test_replaying_seed_and_log_gives_the_same_match),
]


@pytest.mark.parametrize(("defect", "broken", "check"), DEFECTS, ids=[d for d, _, _ in DEFECTS])
def test_a_broken_title_fails_the_check_for_its_defect(defect: str, broken: Broken, check: Check) -> None:
    """The check fails on the broken title at 3 seats, and passes on the sound reference title."""
    check(Case(Broken(BlindAuctionMatch), 3, 1))
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        check(Case(broken, 3, 1))


def test_unchecked_option_values_are_caught() -> None:
    """An option whose values check_options does not check fails the options test."""
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        test_options.test_bad_values_unknown_options_and_seat_counts_raise_bad_options(Broken(BlindAuctionMatch,
                                                                                              "laxOptions"))


def test_a_bot_choosing_an_illegal_action_is_caught() -> None:
    """A bot level returning an action outside the legal list fails the bots test."""
    from firebreak.domain.contract import BotLevel

    class BadBots(Broken):
        def bots(self) -> list[Any]:
            return [BotLevel("bad", "Always bids 99.", lambda m, s, r, b: {"type": "bid", "amount": 99})]

    with pytest.raises(AssertionError):
        test_bots.test_bot_levels_choose_legal_actions(Case(BadBots(BlindAuctionMatch), 2, 0))
