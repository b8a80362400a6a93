"""Types shared by the schema's areas: statuses, problems (typed errors) and the JSON scalar."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

import strawberry

if TYPE_CHECKING:
    JSON = Any  # to mypy any JSON value; to strawberry (at run time) the JSON scalar
else:
    from strawberry.scalars import JSON

__all__ = ["JSON", "MatchNotFound", "MatchStatus", "Problem", "Unauthorized"]


@strawberry.enum
class MatchStatus(Enum):
    """Where a match is in its life."""

    WAITING = strawberry.enum_value("waiting", description="Seats are open; the match starts when all are taken.")
    ACTIVE = strawberry.enum_value("active", description="Being played.")
    OVER = strawberry.enum_value("over", description="Ended: played to its end, or abandoned (see endReason).")


@strawberry.interface
class Problem:
    """An expected failure: a stable code to branch on and a message for people."""

    code: str = strawberry.field(description="A stable machine-readable code, e.g. STALE_VERSION, ILLEGAL_ACTION.")
    message: str = strawberry.field(description="What went wrong, for people (never contains a token).")


@strawberry.type
class MatchNotFound(Problem):
    """No match has this id (or it has expired)."""


@strawberry.type
class Unauthorized(Problem):
    """The bearer token is missing or is not valid for this match."""


@strawberry.type
class InvalidInput(Problem):
    """The request's values are not acceptable (unknown title, seat count, option, seat, bot level...)."""


@strawberry.type
class SeatTaken(Problem):
    """The seat asked for is taken (or every seat is)."""


@strawberry.type
class MatchStarted(Problem):
    """The match has started: its seats can no longer change."""
