"""Play area: read a match, and act in it."""

from __future__ import annotations

from typing import Annotated, Any, cast

import strawberry

from firebreak.api import labels
from firebreak.api.bounds import MAX_IDEMPOTENCY_KEY
from firebreak.api.context import Context, Info
from firebreak.api.schema.match import Match
from firebreak.api.schema.problems import (
    ForbiddenScope,
    IllegalAction,
    MatchNotFound,
    MatchNotStarted,
    MatchOver,
    NotYourTurn,
    SeatResigned,
    SeatTakenOver,
    StaleVersion,
    Unauthenticated,
    Unauthorized,
    player_problem,
    versioned_problem,
)
from firebreak.api.schema.types import JSON
from firebreak.domain.contract import Event
from firebreak.matches.callers import Caller
from firebreak.matches.outcomes import ActOutcome, OutcomeKind
from firebreak.matches.reading import Reading
from firebreak.matches.refusals import Refusal
from firebreak.matches.store import Loaded


@strawberry.input
class ActInput:
    """An action copied from legalActions, the version it was listed at, and optionally an idempotency key:
    a resubmission with the same key returns the first outcome and never applies twice."""

    match_id: strawberry.ID = strawberry.field(description="The match to act in.")
    action: JSON = strawberry.field(description="One of the caller's legalActions, as listed.")
    expected_version: int = strawberry.field(description="The match version the action was chosen at.")
    idempotency_key: str | None = strawberry.field(
        default=None, description="Up to 128 characters; a retry with the same key returns the first outcome.")


@strawberry.type
class ActionAccepted:
    """The action was applied; version is the match's new version, events are the caller's redacted events."""

    version: int = strawberry.field(description="The match's version after the action.")
    events: JSON = strawberry.field(description="The events of the step the caller may see, in order, each with its "
                                                "label: what it means in the reader's language (Accept-Language).")
    match_id: strawberry.Private[str]
    after: strawberry.Private[Loaded | None]
    caller: strawberry.Private[Caller]

    @strawberry.field
    async def match(self, info: Info) -> Match | None:
        """The match as the caller sees it now (its next legalActions, toAct...): no extra read needed."""
        loaded = self.after or await info.context.services.store.load(self.match_id)
        return None if loaded is None else Match.of(loaded, self.caller)


ActResult = Annotated[
    ActionAccepted | IllegalAction | NotYourTurn | StaleVersion | MatchNotFound | Unauthorized | MatchOver
    | MatchNotStarted | Unauthenticated | ForbiddenScope | SeatTakenOver | SeatResigned,
    strawberry.union("ActResult", description="What act did: the accepted step, or why nothing changed."),
]


def _result(match_id: str, outcome: ActOutcome, after: Loaded | None, caller: Caller,
            events: list[Event] | None = None) -> ActResult:
    if outcome.kind is OutcomeKind.ACCEPTED:
        assert outcome.version is not None
        return ActionAccepted(version=outcome.version, events=outcome.events if events is None else events,
                              match_id=match_id, after=after, caller=caller)
    return cast(IllegalAction | NotYourTurn | StaleVersion | MatchNotFound | Unauthorized | MatchOver
                | MatchNotStarted | SeatTakenOver | SeatResigned,
                versioned_problem(outcome.refusal, outcome.message or "", outcome.version, outcome.answer_code))


@strawberry.type
class PlayQuery:
    """Match reads."""

    @strawberry.field
    async def match(self, info: Info,
                    id: Annotated[strawberry.ID, strawberry.argument(description="The match id.")]) -> Match | None:
        """A match as the caller may see it (the seat of the bearer token, or the seat bound to the caller's player;
        a spectator without one, with the host token, or as a player without a seat here), a finished one from the
        archive once it has left Redis; null if unknown. A token that is not this match's is refused
        (UNAUTHORIZED), a bad player credential too (UNAUTHENTICATED)."""
        loaded = await info.context.services.store.read(str(id))  # from the archive once Redis let it go
        if loaded is None:
            return None
        return Match(read=Reading.of(loaded, await info.context.seat_in(loaded)))


@strawberry.type
class PlayMutation:
    """Match writes."""

    @strawberry.mutation
    async def act(self, info: Info,
                  input: Annotated[ActInput, strawberry.argument(description="The action and its version.")]
                  ) -> ActResult:
        """Submit the caller's action; every expected failure is a member of the result union."""
        return await act_with(info.context, input)


async def act_with(context: Context, input: ActInput) -> ActResult:
    """The act mutation's work (its resolver, and the compiled plan of an act document: api/schema/compiled.py)."""
    key = input.idempotency_key
    if key is not None and not 0 < len(key) <= MAX_IDEMPOTENCY_KEY:
        return IllegalAction(code=Refusal.BAD_IDEMPOTENCY_KEY,
                             message=f"idempotencyKey must be 1-{MAX_IDEMPOTENCY_KEY} characters", version=None)
    context.check_not_blocked()
    caller = await context.playing_caller()
    if not isinstance(caller, Caller):
        return cast(Unauthenticated | ForbiddenScope, player_problem(caller))
    outcome, after = await context.services.pipeline.act(
        str(input.match_id), caller, input.action, input.expected_version, key)
    context.services.metrics.act(outcome.kind)
    if outcome.kind is OutcomeKind.UNAUTHORIZED:
        await context.token_refused(caller)
    events = None
    if outcome.kind is OutcomeKind.ACCEPTED and outcome.version is not None:
        # labelled here, not by a resolver of their own: the compiled act plan (api/schema/compiled.py) writes
        # plain fields only; each step's labels are made once per language and shared (api/labels.py)
        loaded = after or await context.services.store.load(str(input.match_id))
        if loaded is not None:
            events = labels.events(loaded, outcome.version, loaded.seat_of(caller), outcome.events)
    return _result(str(input.match_id), outcome, after, caller, events)


async def submit(context: Context, fields: dict[str, Any]) -> ActResult:
    """act_with for the compiled plan: the input's fields by Python name, as graphql-core coerced them (strawberry
    passes a leaf's coerced value on as it is, so ActInput(**fields) is what its conversion builds)."""
    return await act_with(context, ActInput(**fields))
