"""A match's life as types: where it is (status), why it ended, and who sits in its seats.

Stored as before: the values are the strings in the meta hash and the Lua scripts, and a seat record is the same
JSON object ({name, kind, level, tokenHash} for a person, {name, kind, level} for a bot); a person's seat bound to a
player also holds "player" (the player's id) and, when joined through a credential made for a program, "program":
true. Records written before players existed have neither, and read as unbound.
"""

from __future__ import annotations

from dataclasses import dataclass
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


class SeatKind(StrEnum):
    """Who sits in a seat."""

    HUMAN = "human"
    BOT = "bot"


@dataclass(frozen=True)
class SeatRecord:
    """A taken seat as stored: the display name, human or bot, a bot's level, a person's token hash, the player
    the seat is bound to (None: a seat of its token alone), and whether that player plays it as a program (joined
    with a personal access token of the bot scope: still a human seat, flagged so that ratings can tell)."""

    name: str
    kind: SeatKind
    level: str | None = None
    token_hash: str | None = None
    player: str | None = None
    program: bool = False

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatRecord:
        """Read a stored record."""
        return cls(data["name"], SeatKind(data["kind"]), data.get("level"), data.get("tokenHash"),
                   data.get("player"), bool(data.get("program", False)))

    def to_json(self) -> dict[str, Any]:
        """The stored record (a bot's has no tokenHash; an unbound seat no player; only a program's a program)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind.value, "level": self.level}
        if self.token_hash is not None:
            out["tokenHash"] = self.token_hash
        if self.player is not None:
            out["player"] = self.player
        if self.program:
            out["program"] = True
        return out


Seats = dict[int, SeatRecord]  # the taken seats of a match, by seat number
