"""Rematch area: a new match with the same players once a match is over."""

from __future__ import annotations

from typing import Annotated, cast

import strawberry

from firebreak.api.context import Info
from firebreak.api.schema.match import Match
from firebreak.api.schema.problems import (
    ForbiddenScope,
    MatchNotFound,
    MatchNotOver,
    Unauthenticated,
    Unauthorized,
    player_problem,
    problem_type,
)
from firebreak.matches.callers import Caller
from firebreak.matches.lobby import LobbyError
from firebreak.matches.refusals import Refusal
from firebreak.matches.rematch import Rematches


@strawberry.input
class RematchInput:
    """The over match to play again."""

    match_id: strawberry.ID = strawberry.field(description="The over match (the caller held one of its seats).")


@strawberry.type
class Rematched:
    """The rematch: the same for every caller, however many ask and wherever. The caller's seat is its old one
    plus one (mod seatCount); seats bound to players are bound to the same players, and a person's seat token of the
    old match is that person's seat token in the new one (nothing new to keep)."""

    match_id: strawberry.ID = strawberry.field(description="The new match's id.")
    seat: int = strawberry.field(description="The caller's seat in the new match.")
    match: Match = strawberry.field(description="The new match as the caller sees it.")


RematchResult = Annotated[
    Rematched | MatchNotFound | Unauthorized | MatchNotOver | Unauthenticated | ForbiddenScope,
    strawberry.union("RematchResult", description="The rematch, or why none."),
]


@strawberry.type
class RematchMutation:
    """Rematch writes."""

    @strawberry.mutation
    async def rematch(
        self, info: Info, input: Annotated[RematchInput, strawberry.argument(description="The over match.")],
    ) -> RematchResult:
        """Play an over match again: same title, options, clock and seat count, the same occupants (bots of the same
        levels, the same players, the same seat tokens), the seat order rotated by one; it starts at once. Asked by
        any seat holder of the old match (its seat token or player credential); every caller gets the same match.
        The old match then shows it as rematch."""
        info.context.check_not_blocked()
        caller = await info.context.playing_caller()
        if not isinstance(caller, Caller):
            return cast(Unauthenticated | ForbiddenScope, player_problem(caller))
        services = info.context.services
        try:
            rematched = await Rematches(services.lobby).rematch(str(input.match_id), caller)
        except LobbyError as exc:
            if exc.code == Refusal.UNAUTHORIZED:
                await info.context.token_refused(caller)
            return cast(MatchNotFound | Unauthorized | MatchNotOver,
                        problem_type(exc.code)(code=exc.code, message=str(exc)))
        loaded = await services.store.load(rematched.match_id)
        if loaded is None:
            return MatchNotFound(code=Refusal.MATCH_NOT_FOUND, message="the rematch has expired")
        return Rematched(match_id=strawberry.ID(rematched.match_id), seat=rematched.seat,
                         match=Match.of(loaded, caller))
