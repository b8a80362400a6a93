"""The life of a seat: resign, reclaim a taken-over seat, leave a waiting match, cancel one (matches.seatlife)."""

from __future__ import annotations

from typing import Annotated, cast

import strawberry
from graphql import GraphQLError

from firebreak.api.context import Info
from firebreak.api.schema.match import Match
from firebreak.api.schema.problems import (
    ForbiddenScope,
    MatchNotFound,
    MatchNotStarted,
    MatchOver,
    MatchStarted,
    NotCreator,
    NotTakenOver,
    Problem,
    SeatResigned,
    StaleVersion,
    Unauthenticated,
    Unauthorized,
    player_problem,
    versioned_problem,
)
from firebreak.matches.callers import Caller
from firebreak.matches.refusals import Refusal
from firebreak.matches.seatlife import NO_CREDENTIAL, NO_SEAT, SeatError, SeatStep
from firebreak.matches.store import Loaded


@strawberry.input
class ResignInput:
    """The match whose seat (the caller's, by the bearer token) resigns."""

    match_id: strawberry.ID = strawberry.field(description="The match to resign from.")


@strawberry.input
class ReclaimSeatInput:
    """The match whose taken-over seat (the caller's, by the bearer token) its owner takes back."""

    match_id: strawberry.ID = strawberry.field(description="The match whose seat to take back.")


@strawberry.input
class LeaveSeatInput:
    """The waiting match whose seat (the caller's, by the bearer token) to free."""

    match_id: strawberry.ID = strawberry.field(description="The waiting match to leave.")


@strawberry.input
class CancelMatchInput:
    """The waiting match its creator (the host token, or the credential of the player who created it) calls off."""

    match_id: strawberry.ID = strawberry.field(description="The waiting match to cancel.")


@strawberry.type
class Resignation:
    """The caller's seat resigned: the match ended at once (at most one person was left) or the service's bot
    plays the seat to the end."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    seat: int = strawberry.field(description="The seat that resigned.")
    version: int = strawberry.field(description="The match's version after the resignation.")
    match_ended: bool = strawberry.field(description="Whether the resignation ended the match (endReason RESIGNED).")
    caller: strawberry.Private[Caller]

    @strawberry.field
    async def match(self, info: Info) -> Match | None:
        """The match as the caller sees it now."""
        return await _read(info, str(self.match_id), self.caller)


@strawberry.type
class SeatReclaimed:
    """The caller plays their seat again; its clock restarts (0 + the increment, a per-move limit in full)."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    seat: int = strawberry.field(description="The seat taken back.")
    version: int = strawberry.field(description="The match's version after the seat came back.")
    caller: strawberry.Private[Caller]

    @strawberry.field
    async def match(self, info: Info) -> Match | None:
        """The match as the caller sees it now (its legalActions, toAct...)."""
        return await _read(info, str(self.match_id), self.caller)


@strawberry.type
class SeatLeft:
    """The caller's seat of the waiting match is free again; its token no longer works."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    seat: int = strawberry.field(description="The seat freed.")


@strawberry.type
class MatchCancelled:
    """The waiting match is over (endReason CANCELLED) and no longer listed."""

    match_id: strawberry.ID = strawberry.field(description="The match cancelled.")


ResignResult = Annotated[
    Resignation | MatchNotFound | Unauthorized | Unauthenticated | ForbiddenScope | MatchNotStarted | MatchOver
    | SeatResigned | StaleVersion,
    strawberry.union("ResignResult", description="The resignation, or why nothing changed."),
]
ReclaimSeatResult = Annotated[
    SeatReclaimed | MatchNotFound | Unauthorized | Unauthenticated | ForbiddenScope | MatchNotStarted | MatchOver
    | SeatResigned | NotTakenOver
    | StaleVersion,
    strawberry.union("ReclaimSeatResult", description="The seat taken back, or why nothing changed."),
]
LeaveSeatResult = Annotated[
    SeatLeft | MatchNotFound | Unauthorized | Unauthenticated | ForbiddenScope | MatchStarted,
    strawberry.union("LeaveSeatResult", description="The seat freed, or why nothing changed."),
]
CancelMatchResult = Annotated[
    MatchCancelled | MatchNotFound | Unauthorized | Unauthenticated | ForbiddenScope | NotCreator | MatchStarted,
    strawberry.union("CancelMatchResult", description="The match cancelled, or why nothing changed."),
]


async def _read(info: Info, match_id: str, caller: Caller) -> Match | None:
    loaded = await info.context.services.store.load(match_id)
    return None if loaded is None else Match.of(loaded, caller)


async def _caller(info: Info, match_id: str) -> tuple[Loaded, int | None] | Problem:
    """The match and the caller's seat in it (None: the host token), resolved by Context.seat_in; a bad player
    credential is Unauthenticated, a refused or missing one Unauthorized."""
    refused = await info.context.playing_caller()
    if not isinstance(refused, Caller):
        return player_problem(refused)
    loaded = await info.context.services.store.load(match_id)
    if loaded is None:
        return MatchNotFound(code=Refusal.MATCH_NOT_FOUND, message=f"no match {match_id!r}")
    try:
        seat = await info.context.seat_in(loaded)
    except GraphQLError as exc:
        if (exc.extensions or {}).get("code") != Refusal.UNAUTHORIZED:
            raise  # rate limited
        return Unauthorized(code=Refusal.UNAUTHORIZED, message=exc.message)
    if not info.context.presented:
        return Unauthorized(code=Refusal.UNAUTHORIZED, message=NO_CREDENTIAL)
    return loaded, seat


async def _seat(info: Info, match_id: str) -> int | Problem:
    """The caller's seat in the match; a spectator (the host token) is Unauthorized."""
    found = await _caller(info, match_id)
    if isinstance(found, Problem):
        return found
    _loaded, seat = found
    if seat is None:
        return Unauthorized(code=Refusal.UNAUTHORIZED, message=NO_SEAT)
    return seat


@strawberry.type
class SeatsMutation:
    """A seat's life: resign, reclaim, leave, cancel."""

    @strawberry.mutation
    async def resign(self, info: Info,
                     input: Annotated[ResignInput, strawberry.argument(description="The match.")]) -> ResignResult:
        """Resign the caller's seat of an active match: the seat stops being theirs. When at most one person would
        be left the match ends at once (endReason RESIGNED; the title ranks the seats that did not resign as the
        match stood); otherwise the service's bot plays the seat to the end and it ranks after every seat that did
        not resign."""
        seat = await _seat(info, str(input.match_id))
        if isinstance(seat, Problem):
            return cast(ResignResult, seat)
        try:
            step: SeatStep = await info.context.services.seat_life.resign(str(input.match_id), seat)
        except SeatError as exc:
            return cast(ResignResult, versioned_problem(exc.code, str(exc), exc.version))
        return Resignation(match_id=input.match_id, seat=seat, version=step.version, match_ended=step.ended,
                           caller=await info.context.caller())

    @strawberry.mutation
    async def reclaim_seat(self, info: Info,
                           input: Annotated[ReclaimSeatInput, strawberry.argument(description="The match.")]
                           ) -> ReclaimSeatResult:
        """Take back the caller's seat, which the service's bot plays since its clock ran out; the seat's clock
        restarts at 0 + the increment (a per-move limit in full)."""
        seat = await _seat(info, str(input.match_id))
        if isinstance(seat, Problem):
            return cast(ReclaimSeatResult, seat)
        try:
            step = await info.context.services.seat_life.reclaim(str(input.match_id), seat)
        except SeatError as exc:
            return cast(ReclaimSeatResult, versioned_problem(exc.code, str(exc), exc.version))
        return SeatReclaimed(match_id=input.match_id, seat=seat, version=step.version,
                             caller=await info.context.caller())

    @strawberry.mutation
    async def leave_seat(self, info: Info,
                         input: Annotated[LeaveSeatInput, strawberry.argument(description="The match.")]
                         ) -> LeaveSeatResult:
        """Free the caller's seat of a match that has not started (its token stops working); refused once the
        match has started (resign instead)."""
        seat = await _seat(info, str(input.match_id))
        if isinstance(seat, Problem):
            return cast(LeaveSeatResult, seat)
        try:
            await info.context.services.seat_life.leave(str(input.match_id), seat)
        except SeatError as exc:
            return cast(LeaveSeatResult, versioned_problem(exc.code, str(exc), exc.version))
        return SeatLeft(match_id=input.match_id, seat=seat)

    @strawberry.mutation
    async def cancel_match(self, info: Info,
                           input: Annotated[CancelMatchInput, strawberry.argument(description="The match.")]
                           ) -> CancelMatchResult:
        """Call off a match that has not started, as its creator (the host token, or the credential of the player who
        created it): it is over with endReason CANCELLED and leaves the lobby; refused once it has started."""
        found = await _caller(info, str(input.match_id))
        if isinstance(found, Problem):
            return cast(CancelMatchResult, found)
        loaded, _seat = found
        if not loaded.is_creator(await info.context.caller()):
            return NotCreator(code=Refusal.NOT_CREATOR, message="only the match's creator (its host token, or the "
                                                                "player who created it) may cancel it")
        try:
            await info.context.services.seat_life.cancel(loaded.id)
        except SeatError as exc:
            return cast(CancelMatchResult, versioned_problem(exc.code, str(exc), exc.version))
        return MatchCancelled(match_id=input.match_id)
