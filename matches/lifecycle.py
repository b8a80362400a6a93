"""A match's life as types: where it is (status), why it ended, and who sits in its seats.

Stored as before: the values are the strings in the meta hash and the Lua scripts, and a seat record is the same
JSON object ({name, kind, level, tokenHash} for a person, {name, kind, level} for a bot); a person's seat bound to a
player also holds "player" (the player's id) and, when joined through a credential made for a program, "program":
true; "control" is on a person's seat that the service plays for them (taken over, or resigned), "level" then
the bot that plays it; "deleted": true on the seat of a player whose account was deleted (it then holds no player,
no token hash and the name players/deletion.py gives). Records written before players existed have no player, and
read as unbound.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


class MatchStatus(StrEnum):
    """Where a match is in its life."""

    WAITING = "waiting"  # seats are open
    ACTIVE = "active"
    OVER = "over"


class EndReason(StrEnum):
    """Why an over match ended."""

    FINISHED = "finished"  # played to its end by the rules
    ABANDONED = "abandoned"  # ended by the service: no person acted for too long
    RESIGNED = "resigned"  # ended when a resignation left at most one person in it
    CANCELLED = "cancelled"  # its creator called it off before it started


class SeatKind(StrEnum):
    """Who sits in a seat."""

    HUMAN = "human"
    BOT = "bot"


class SeatControl(StrEnum):
    """Why the service plays a person's seat."""

    TAKEN_OVER = "takenOver"  # its clock ran out: the title's takeover bot plays it until its owner reclaims it
    RESIGNED = "resigned"  # its owner resigned: the takeover bot plays it to the end


@dataclass(frozen=True)
class SeatRecord:
    """A taken seat as stored: the display name, human or bot, a bot's level (or the bot that plays a person's
    seat under control), a person's token hash, the player the seat is bound to (None: a seat of its token
    alone), whether that player plays it as a program (joined with a personal access token of the bot scope: still
    a human seat, flagged so that ratings can tell), and control when the service plays a person's seat."""

    name: str
    kind: SeatKind
    level: str | None = None
    token_hash: str | None = None
    player: str | None = None
    program: bool = False
    control: SeatControl | None = None
    deleted: bool = False

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatRecord:
        """Read a stored record."""
        control = data.get("control")
        return cls(data["name"], SeatKind(data["kind"]), data.get("level"), data.get("tokenHash"),
                   player=data.get("player"), program=bool(data.get("program", False)),
                   control=None if control is None else SeatControl(control), deleted=bool(data.get("deleted", False)))

    def to_json(self) -> dict[str, Any]:
        """The stored record (a bot's has no tokenHash; an unbound seat no player; only a program's a program;
        a seat its owner plays has no control)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind.value, "level": self.level}
        if self.token_hash is not None:
            out["tokenHash"] = self.token_hash
        if self.player is not None:
            out["player"] = self.player
        if self.program:
            out["program"] = True
        if self.control is not None:
            out["control"] = self.control.value
        if self.deleted:
            out["deleted"] = True
        return out

    @property
    def automated(self) -> bool:
        """Whether the service decides for this seat: a bot, or a person's seat taken over or resigned."""
        return self.kind is SeatKind.BOT or self.control is not None

    @property
    def person(self) -> bool:
        """Whether a person still holds the seat: a human seat not resigned (a taken-over one counts)."""
        return self.kind is SeatKind.HUMAN and self.control is not SeatControl.RESIGNED

    def erased(self, name: str) -> SeatRecord:
        """The record once its player's account is deleted: named `name`, bound to no player, with no token."""
        return replace(self, name=name, player=None, token_hash=None, deleted=True)

    def controlled(self, control: SeatControl | None, level: str | None) -> SeatRecord:
        """The record once the service plays the seat with a bot of `level` (control None: its owner again)."""
        return replace(self, control=control, level=level)


Seats = dict[int, SeatRecord]  # the taken seats of a match, by seat number
