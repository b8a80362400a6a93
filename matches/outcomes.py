"""The outcomes of submitting an action, as plain data (stored under idempotency keys, mapped by the API)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class ActOutcome:
    """What became of an act: kind is one of the names below (accepted, illegal, stale...)."""

    kind: str
    version: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    code: str | None = None
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain data for storage."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ActOutcome:
        """Rebuild from to_json() output."""
        return cls(**data)


ACCEPTED = "accepted"
ILLEGAL = "illegal"
NOT_YOUR_TURN = "notYourTurn"
STALE = "stale"
NOT_FOUND = "notFound"
UNAUTHORIZED = "unauthorized"
OVER = "over"
NOT_STARTED = "notStarted"
