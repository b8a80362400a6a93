"""The outcomes of submitting an action, as plain data (stored under idempotency keys, mapped by the API)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from firebreak.matches.refusals import Refusal


class OutcomeKind(StrEnum):
    """What became of an act (the value is stored under an idempotency key)."""

    ACCEPTED = "accepted"
    ILLEGAL = "illegal"
    NOT_YOUR_TURN = "notYourTurn"
    STALE = "stale"
    NOT_FOUND = "notFound"
    UNAUTHORIZED = "unauthorized"
    OVER = "over"
    NOT_STARTED = "notStarted"
    TAKEN_OVER = "takenOver"  # the service's bot plays the seat: reclaim it first
    RESIGNED = "resigned"  # the seat resigned


REFUSALS = {
    OutcomeKind.ILLEGAL: Refusal.ILLEGAL_ACTION,
    OutcomeKind.NOT_YOUR_TURN: Refusal.NOT_YOUR_TURN,
    OutcomeKind.STALE: Refusal.STALE_VERSION,
    OutcomeKind.NOT_FOUND: Refusal.MATCH_NOT_FOUND,
    OutcomeKind.UNAUTHORIZED: Refusal.UNAUTHORIZED,
    OutcomeKind.OVER: Refusal.MATCH_OVER,
    OutcomeKind.NOT_STARTED: Refusal.MATCH_NOT_STARTED,
    OutcomeKind.TAKEN_OVER: Refusal.SEAT_TAKEN_OVER,
    OutcomeKind.RESIGNED: Refusal.SEAT_RESIGNED,
}


@dataclass(frozen=True)
class ActOutcome:
    """What became of an act; code is the rules' code of a refused one (a title's own for an illegal action)."""

    kind: OutcomeKind
    version: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    code: str | None = None
    message: str | None = None

    @property
    def refusal(self) -> Refusal:
        """The registered refusal of a refused act (its status and GraphQL type)."""
        return REFUSALS[self.kind]

    @property
    def answer_code(self) -> str:
        """The code both surfaces answer a refused act with: an illegal action's rules code, else the refusal's."""
        if self.kind is OutcomeKind.ILLEGAL and self.code:
            return self.code
        return self.refusal

    def to_json(self) -> dict[str, Any]:
        """Plain data for storage."""
        return {**asdict(self), "kind": self.kind.value}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ActOutcome:
        """Rebuild from to_json() output."""
        return cls(**{**data, "kind": OutcomeKind(data["kind"])})
