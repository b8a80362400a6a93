"""Rematch area: offer a new match with the same occupants once a match is over; it is made when every person
accepted."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, cast

import strawberry

from firebreak.api.context import Info
from firebreak.api.schema.match import Match
from firebreak.api.schema.problems import (
    ForbiddenScope,
    MatchNotFound,
    MatchNotOver,
    NoRematchOffer,
    NotAccepted,
    Unauthenticated,
    Unauthorized,
    player_problem,
    problem_type,
)
from firebreak.api.schema.rematch_offer import RematchOffer
from firebreak.matches.callers import Caller
from firebreak.matches.lobby import LobbyError
from firebreak.matches.refusals import Refusal
from firebreak.matches.rematch_offers import Answered, Offers
from firebreak.social.guards import GuardedOffers


@strawberry.input
class RematchInput:
    """The over match to play again."""

    match_id: strawberry.ID = strawberry.field(description="The over match (the caller held one of its seats).")


@strawberry.type
class Rematched:
    """The rematch and its offer: the same for every caller, however many answer and wherever. The rematch's id is
    fixed when the offer is made; the match exists (match) once every person accepted. The caller's seat is its old
    one plus one (mod seatCount); seats bound to players are bound to the same players, and a person's seat token
    of the old match is that person's seat token in the new one (nothing new to keep)."""

    match_id: strawberry.ID = strawberry.field(description="The rematch's id (the match exists once every person "
                                                           "accepted).")
    seat: int = strawberry.field(description="The caller's seat in the rematch.")
    match: Match | None = strawberry.field(description="The rematch as the caller sees it; null until every person "
                                                       "accepted.")
    offer: RematchOffer = strawberry.field(description="The offer: its status, who accepted or declined, its "
                                                       "expiry.")


RematchResult = Annotated[
    Rematched | MatchNotFound | Unauthorized | MatchNotOver | NoRematchOffer | NotAccepted | Unauthenticated
    | ForbiddenScope,
    strawberry.union("RematchResult", description="The rematch and its offer, or why not."),
]

Step = Callable[[Offers, str, Caller], Awaitable[Answered]]


async def _answer(info: Info, match_id: strawberry.ID, step: Step) -> RematchResult:
    """Run an offer step for the caller and shape its answer."""
    info.context.check_not_blocked()
    caller = await info.context.playing_caller()
    if not isinstance(caller, Caller):
        return cast(Unauthenticated | ForbiddenScope, player_problem(caller))
    services = info.context.services
    try:
        answered = await step(GuardedOffers(services.lobby), str(match_id), caller)
    except LobbyError as exc:
        if exc.code == Refusal.UNAUTHORIZED:
            await info.context.token_refused(caller)
        return cast(MatchNotFound | Unauthorized | MatchNotOver | NoRematchOffer | NotAccepted,
                    problem_type(exc.code)(code=exc.code, message=str(exc)))
    rematched = answered.rematched
    match = None
    if answered.created:
        loaded = await services.store.load(rematched.match_id)
        if loaded is None:
            return MatchNotFound(code=Refusal.MATCH_NOT_FOUND, message="the rematch has expired")
        match = Match.of(loaded, caller)
    return Rematched(match_id=strawberry.ID(rematched.match_id), seat=rematched.seat, match=match,
                     offer=RematchOffer.of(answered.offer))


Over = Annotated[RematchInput, strawberry.argument(description="The over match.")]


@strawberry.type
class RematchMutation:
    """Rematch writes."""

    @strawberry.mutation
    async def offer_rematch(self, info: Info, input: Over) -> RematchResult:
        """Offer to play an over match again (same title, options, clock, seat count and ratedness, the same
        occupants, the seat order rotated by one), or accept the offer that stands. Asked by any seat holder of the
        old match (its seat token or player credential); the other persons are told (rematchOffered) and answer
        with acceptRematch or declineRematch; bot seats accept at once. The rematch is made when every person
        accepted; the offer expires after FIREBREAK_REMATCH_OFFER_SECONDS."""
        return await _answer(info, input.match_id, Offers.offer)

    @strawberry.mutation
    async def accept_rematch(self, info: Info, input: Over) -> RematchResult:
        """Accept the standing rematch offer of an over match (NoRematchOffer: none stands); the last acceptance
        makes the rematch (match is then set), which starts at once."""
        return await _answer(info, input.match_id, Offers.accept)

    @strawberry.mutation
    async def decline_rematch(self, info: Info, input: Over) -> RematchResult:
        """Decline the standing rematch offer of an over match (NoRematchOffer: none stands): it ends for everyone
        (rematchDeclined); anyone may offer again."""
        return await _answer(info, input.match_id, Offers.decline)

    @strawberry.mutation
    async def rematch(self, info: Info, input: Over) -> RematchResult:
        """The same as offerRematch (kept for older clients): offer a rematch, or accept the standing offer; match
        is set once every person accepted."""
        return await _answer(info, input.match_id, Offers.offer)
