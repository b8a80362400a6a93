"""A match's life as types: where it is (status), why it ended, and who sits in its seats.

Stored as before: the values are the strings in the meta hash and the Lua scripts, and a seat record is the same
JSON object ({name, kind, level, tokenHash} for a person, {name, kind, level} for a bot).
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
    """A taken seat as stored: the display name, human or bot, a bot's level and a person's token hash."""

    name: str
    kind: SeatKind
    level: str | None = None
    token_hash: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatRecord:
        """Read a stored record."""
        return cls(data["name"], SeatKind(data["kind"]), data.get("level"), data.get("tokenHash"))

    def to_json(self) -> dict[str, Any]:
        """The stored record (a bot's has no tokenHash)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind.value, "level": self.level}
        if self.token_hash is not None:
            out["tokenHash"] = self.token_hash
        return out


Seats = dict[int, SeatRecord]  # the taken seats of a match, by seat number
