"""Seeks area: a signed-in player asks for a game (seek), cancels it (cancelSeek) and follows it (me.seeks); the
workers seat compatible seekers at one table and start the match (matchmaking/)."""

from __future__ import annotations

import time
from enum import Enum
from typing import Annotated, cast

import strawberry

from firebreak.api.context import Info
from firebreak.api.schema.problems import (
    ForbiddenScope,
    InvalidInput,
    SeekNotFound,
    SeekNotWaiting,
    TooManySeeks,
    Unauthenticated,
    player_problem,
    problem_type,
)
from firebreak.api.schema.types import JSON
from firebreak.matches.callers import Caller
from firebreak.matches.refusals import Refusal
from firebreak.matchmaking import seeks as seeking
from firebreak.matchmaking.seeks import SeekError
from firebreak.matchmaking.tables import nudge
from firebreak.players.errors import Reason
from firebreak.players.errors import Unauthenticated as Refused
from firebreak.players.records import Principal


@strawberry.enum
class SeekStatus(Enum):
    """Where a seek is in its life."""

    # matchmaking.seeks.SeekStatus member for member (same names, same values)
    WAITING = strawberry.enum_value(seeking.SeekStatus.WAITING.value, description="In its pool, waiting for "
                                                                                 "compatible seekers.")
    MATCHING = strawberry.enum_value(seeking.SeekStatus.MATCHING.value,
                                     description="Seated at a table the workers are making into a match (moments).")
    MATCHED = strawberry.enum_value(seeking.SeekStatus.MATCHED.value, description="Its match has started: matchId "
                                                                                 "and seat say where.")
    CANCELLED = strawberry.enum_value(seeking.SeekStatus.CANCELLED.value, description="Cancelled by the player.")
    EXPIRED = strawberry.enum_value(seeking.SeekStatus.EXPIRED.value,
                                    description="Nobody compatible came within the seek's lifetime.")


@strawberry.type
class Seek:
    """A player's seek: what it asks for and where it is."""

    id: strawberry.ID = strawberry.field(description="The seek's id (cancelSeek takes it).")
    status: SeekStatus = strawberry.field(description="Where it is: WAITING, MATCHING, MATCHED, CANCELLED, EXPIRED.")
    title: str = strawberry.field(description="The title id.")
    seats: int = strawberry.field(description="The seat count.")
    options: JSON = strawberry.field(description="The title's options, defaults filled in (the pool's).")
    bots_after_seconds: float | None = strawberry.field(
        description="After this wait a table short of players is filled with the title's bots (null: never).")
    created_at: float = strawberry.field(description="When it was made (epoch seconds).")
    expires_at: float = strawberry.field(description="When it expires unless matched (epoch seconds).")
    ended_at: float | None = strawberry.field(description="When it was matched, cancelled or expired (null: not "
                                                          "yet).")
    match_id: strawberry.ID | None = strawberry.field(description="The match it was seated in (MATCHED).")
    seat: int | None = strawberry.field(description="The player's seat in that match (MATCHED).")

    @classmethod
    def of(cls, seek: seeking.Seek, now: float) -> Seek:
        """The GraphQL form of a stored seek."""
        return cls(id=strawberry.ID(seek.id), status=SeekStatus(seek.shown_status(now).value),
                   title=seek.pool.title, seats=seek.pool.seats, options=seek.pool.options,
                   bots_after_seconds=seek.bots_after, created_at=seek.created, expires_at=seek.expires,
                   ended_at=seek.ended, match_id=None if seek.match_id is None else strawberry.ID(seek.match_id),
                   seat=seek.seat)


async def my_seeks(info: Info, principal: Principal) -> list[Seek]:
    """The signed-in player's kept seeks, newest first."""
    now = time.time()
    return [Seek.of(seek, now) for seek in await info.context.services.seeks.of_player(principal.player.id)]


@strawberry.input
class SeekInput:
    """What to play: a title, the seat count and options (as createMatch takes them), and whether bots may fill
    the table after a wait."""

    title: str = strawberry.field(description="A title id (titles).")
    seats: int = strawberry.field(description="The number of seats, within the title's minSeats-maxSeats.")
    options: JSON | None = strawberry.field(default=None, description="Option values by name (Title.options); "
                                                                      "left out: defaults.")
    bots_after_seconds: float | None = strawberry.field(
        default=None, description="Fill a table still short of players with the title's bots after this many "
                                  "seconds of waiting (0 to below the seek's lifetime; null: never).")


@strawberry.input
class CancelSeekInput:
    """The seek to cancel."""

    id: strawberry.ID = strawberry.field(description="The seek's id.")


SeekResult = Annotated[
    Seek | InvalidInput | TooManySeeks | Unauthenticated | ForbiddenScope,
    strawberry.union("SeekResult", description="The seek, waiting in its pool, or why none."),
]
CancelSeekResult = Annotated[
    Seek | SeekNotFound | SeekNotWaiting | Unauthenticated | ForbiddenScope,
    strawberry.union("CancelSeekResult", description="The cancelled seek, or why it was not cancelled."),
]


async def _seeker(info: Info) -> tuple[Caller, Principal] | Unauthenticated | ForbiddenScope:
    """The signed-in player who seeks (a player credential with the play or bot scope), or the typed refusal."""
    caller = await info.context.playing_caller()
    if not isinstance(caller, Caller):
        return cast(Unauthenticated | ForbiddenScope, player_problem(caller))
    principal = await info.context.principal()
    if principal is None:
        return cast(Unauthenticated, player_problem(Refused(Reason.MISSING)))
    return caller, principal


@strawberry.type
class SeeksMutation:
    """Seek writes."""

    @strawberry.mutation
    async def seek(
        self, info: Info, input: Annotated[SeekInput, strawberry.argument(description="What to play.")],
    ) -> SeekResult:
        """Look for opponents: wait in the pool of this title, seat count and options until the workers seat you at
        a table of compatible seekers (within a rating band that widens as you wait) and start the match (it then
        shows in me.matches; the seek turns MATCHED with its matchId). Needs a signed-in player (a session, the
        operator's JWT, or a personal access token with the play or bot scope). One seek per pool, a few open at
        most (TooManySeeks); it expires after the service's seek lifetime."""
        seeker = await _seeker(info)
        if not isinstance(seeker, tuple):
            return seeker
        caller, principal = seeker
        if input.options is not None and not isinstance(input.options, dict):
            return InvalidInput(code=Refusal.BAD_OPTIONS, message="options must be a JSON object")
        services = info.context.services
        try:
            rating = await seeking.seeker_rating(await services.database(), principal.player.id, input.title)
            seek = await services.seeks.create(principal.player.id, principal.player.name, input.title, input.seats,
                                               input.options, input.bots_after_seconds, rating, caller.program)
        except SeekError as exc:
            return cast(InvalidInput | TooManySeeks, problem_type(exc.code)(code=exc.code, message=str(exc)))
        await nudge(services.seeks, services.scheduler.queue, seek.pool.id, services.settings.stall_seconds)
        return Seek.of(seek, seek.created)

    @strawberry.mutation
    async def cancel_seek(
        self, info: Info, input: Annotated[CancelSeekInput, strawberry.argument(description="The seek.")],
    ) -> CancelSeekResult:
        """Cancel one of your waiting seeks. One already being matched, matched, cancelled or expired:
        SeekNotWaiting (nothing changed; read me.seeks for where it went)."""
        seeker = await _seeker(info)
        if not isinstance(seeker, tuple):
            return seeker
        _, principal = seeker
        try:
            seek = await info.context.services.seeks.cancel(str(input.id), principal.player.id)
        except SeekError as exc:
            return cast(SeekNotFound | SeekNotWaiting, problem_type(exc.code)(code=exc.code, message=str(exc)))
        return Seek.of(seek, seek.ended or seek.created)
