"""Who a rematch seats (matches.rematch.carried): the old occupants, as they were before the service played for them."""

from __future__ import annotations

from firebreak.matches.lifecycle import SeatControl, SeatKind, SeatRecord
from firebreak.matches.rematch import carried


def test_a_person_the_service_played_for_is_the_person_again_in_the_rematch() -> None:
    person = SeatRecord("ann", SeatKind.HUMAN, token_hash="h", player="p1", program=True)
    for control in SeatControl:
        played = person.controlled(control, "greedy")
        assert played.level == "greedy" and played.control is control
        assert carried(played) == person, control


def test_a_bot_keeps_its_level_and_has_no_credential() -> None:
    bot = SeatRecord("greedy bot", SeatKind.BOT, "greedy", token_hash="h", player="p1", program=True)
    assert carried(bot) == SeatRecord("greedy bot", SeatKind.BOT, "greedy")
