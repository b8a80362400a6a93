"""The expected failures as GraphQL types (members of the result unions), found by the registry's type names."""

from __future__ import annotations

import strawberry

from matches.refusals import registered


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


@strawberry.type
class IllegalAction(Problem):
    """The action is malformed or not legal now; nothing changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class NotYourTurn(Problem):
    """Another seat (or the service) owes the decision; nothing changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class StaleVersion(Problem):
    """The match is no longer at expectedVersion; read it again and resubmit if still wanted."""

    current_version: int = strawberry.field(description="The version the match is at now.")


@strawberry.type
class MatchOver(Problem):
    """The match has ended."""

    version: int | None = strawberry.field(description="The match's final version.")


@strawberry.type
class MatchNotStarted(Problem):
    """Seats are still open; the match starts when every seat is taken."""


@strawberry.type
class SeatTakenOver(Problem):
    """The service's bot plays this seat since its clock ran out: take it back with reclaimSeat, then act; nothing
    changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class SeatResigned(Problem):
    """The seat has resigned: it no longer acts, resigns again or reclaims; nothing changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class NotTakenOver(Problem):
    """The seat is not taken over (its owner plays it): there is nothing to reclaim; nothing changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class NotCreator(Problem):
    """Only the match's creator (its host token) may cancel it; nothing changed."""


TYPES: dict[str, type[Problem]] = {kind.__name__: kind for kind in (
    MatchNotFound, Unauthorized, InvalidInput, SeatTaken, MatchStarted, IllegalAction, NotYourTurn, StaleVersion,
    MatchOver, MatchNotStarted, SeatTakenOver, SeatResigned, NotTakenOver, NotCreator)}


def problem_type(code: str) -> type[Problem]:
    """The result type carrying a code: the registry's, InvalidInput for a title's own code (its options)."""
    refusal = registered(code)
    name = None if refusal is None else refusal.graphql
    return TYPES[name] if name is not None else InvalidInput

