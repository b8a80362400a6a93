"""The GraphQL schema, assembled from one module per area."""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Iterator

import strawberry
from graphql import ASTValidationRule, DocumentNode, ExecutionResult, GraphQLError, GraphQLSchema
from starlette.requests import Request
from strawberry.extensions import MaskErrors, MaxTokensLimiter, ParserCache, SchemaExtension
from strawberry.schema.schema import validate_document
from strawberry.types import ExecutionContext
from strawberry.types.graphql import OperationType

from firebreak.api.context import Context
from firebreak.api.ratelimit import rate_limited, retry_after_header, root_fields
from firebreak.api.schema import limits
from firebreak.api.schema.descriptions import fill_from_docstrings
from firebreak.api.schema.events import EVENT_TYPES, EventsSubscription
from firebreak.api.schema.invitations import InvitationsMutation
from firebreak.api.schema.lobby import LobbyMutation, LobbyQuery
from firebreak.api.schema.play import PlayMutation, PlayQuery
from firebreak.api.schema.players import PlayersMutation, PlayersQuery
from firebreak.api.schema.ratings import RatingsQuery
from firebreak.api.schema.rematch import RematchMutation
from firebreak.api.schema.seats import SeatsMutation
from firebreak.api.schema.seeks import SeeksMutation
from firebreak.api.schema.subscription import Subscription as MatchSubscription
from firebreak.api.schema.webhooks import WebhooksMutation, WebhooksQuery
from firebreak.api.unavailable import StoreUnavailable, is_unavailable
from firebreak.matches import connections
from firebreak.matches.refusals import Refusal

log = logging.getLogger("firebreak.api")

MAX_TOKENS = 2000
CACHED_DOCUMENTS = 512  # parsed and validated query texts kept per process (an LRU: unique texts cannot grow it)


@strawberry.type
class Query(LobbyQuery, PlayQuery, PlayersQuery, RatingsQuery, WebhooksQuery):
    """Reads: titles, the lobby, a match as the caller may see it, the signed-in player, the leaderboards, and (for
    the operator) the webhooks."""


@strawberry.type
class Mutation(LobbyMutation, PlayMutation, PlayersMutation, SeatsMutation, RematchMutation, InvitationsMutation,
               SeeksMutation, WebhooksMutation):
    """Writes: create, join and fill matches, act, sign in and out, a seat's life (resign, reclaim, leave, cancel),
    rematch, invitations, seeks, and (for the operator) webhook endpoints."""


@strawberry.type
class Subscription(MatchSubscription, EventsSubscription):
    """Pushed updates: a match's events, and the signed-in player's own events."""


def _unexpected(error: GraphQLError) -> bool:
    """Mask errors raised by our own code (internals); keep the parser's and validator's messages, and leave an
    unreachable Redis to StoreUnavailable."""
    original = error.original_error
    if original is None or isinstance(original, GraphQLError) or is_unavailable(error):
        return False
    log.error("unexpected error in %s: %r", error.path, original)
    return True


@functools.lru_cache(maxsize=CACHED_DOCUMENTS)
def validated(schema: GraphQLSchema, document: DocumentNode,
              rules: tuple[type[ASTValidationRule], ...]) -> list[GraphQLError]:
    """The document's validation errors: the limits' linear walk first, then (only if it passes) every rule.
    Cached: clients send the same few query texts over and over (ParserCache hands back the same document),
    and validating them was half the API's CPU."""
    return limits.problems(document) or validate_document(schema, document, rules)


class LimitedValidation(SchemaExtension):
    """Validate through `validated`, so that no rule of graphql-core's ever walks a document over the limits."""

    def on_validate(self) -> Iterator[None]:
        """Set the validation errors before strawberry's own validation would run (it then does not)."""
        context = self.execution_context
        assert context.graphql_document is not None
        context.pre_execution_errors = validated(context.schema._schema, context.graphql_document,
                                                 context.validation_rules)
        yield


class SubscriptionsOverWebSocket(SchemaExtension):
    """Answer a subscription sent over plain HTTP with a clear error instead of running it as a query."""

    def on_execute(self) -> Iterator[None]:
        """Short-circuit the execution of an HTTP subscription."""
        context = self.execution_context
        if context.operation_type == OperationType.SUBSCRIPTION and isinstance(
                getattr(context.context, "request", None), Request):
            context.result = ExecutionResult(data=None, errors=[GraphQLError(
                "subscriptions are served over WebSocket (graphql-transport-ws) at /graphql",
                extensions={"code": Refusal.SUBSCRIPTION_NEEDS_WEBSOCKET.value})])
        yield


class FirebreakSchema(strawberry.Schema):
    """strawberry's Schema, quiet about a Redis outage (matches.connections logs each outage once)."""

    def process_errors(self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None) -> None:
        """Log the errors of a request, except those of an unreachable Redis."""
        super().process_errors([e for e in errors if not is_unavailable(e)], execution_context)


class RateLimits(SchemaExtension):
    """Refuse a request as a whole, before it runs: RATE_LIMITED (over HTTP: status 429 and Retry-After) when it
    carries a credential from a client blocked for failed authentications, or when its mutation fields (each
    taken from the client's bucket, and the bearer token's if any) find a bucket empty. Subscriptions check the
    block in their resolver (strawberry streams them without looking at a result set here)."""

    async def on_execute(self) -> AsyncIterator[None]:
        """Set a RATE_LIMITED result instead of executing when a limit says no."""
        execution = self.execution_context
        context = execution.context
        if context is not None and not execution.result:
            try:
                await self._check(context)
            except connections.UNAVAILABLE:
                raise  # answered SERVICE_UNAVAILABLE (503) like any other outage
            except Exception:  # a fault of ours: masked like a resolver's, never its text to the client
                log.exception("unexpected error in the rate limits")
                execution.result = ExecutionResult(data=None, errors=[GraphQLError("Internal error.")])
        yield

    async def _check(self, context: Context) -> None:
        execution = self.execution_context
        wait = context.services.limits.blocked_for(context.client) if context.presented else 0.0
        if wait > 0:
            self._refuse("blocked", wait)
        elif execution.operation_type == OperationType.MUTATION:
            assert execution.graphql_document is not None
            count = root_fields(execution.graphql_document, execution.operation_name)
            verdict = await context.services.limits.mutations(context.client, context.token, count)
            if not verdict.allowed:
                self._refuse("mutations", verdict.retry_after)

    def _refuse(self, limit: str, retry_after: float) -> None:
        execution = self.execution_context
        context = execution.context
        context.services.metrics.rate_limited(limit)
        execution.result = ExecutionResult(data=None, errors=[rate_limited(retry_after)])
        if isinstance(context.request, Request):
            context.response.status_code = 429
            context.response.headers["retry-after"] = retry_after_header(retry_after)


class PlayerCredentials(SchemaExtension):
    """Refuse a query as a whole when it carries a player credential that does not verify: error UNAUTHENTICATED
    (with its reason), never a silent read as a spectator. Mutations answer a typed Unauthenticated member instead,
    subscriptions refuse in their resolver (both through Context)."""

    async def on_execute(self) -> AsyncIterator[None]:
        """Set the UNAUTHENTICATED result instead of executing a query whose player credential is refused."""
        execution = self.execution_context
        context = execution.context
        if (context is not None and not execution.result and execution.operation_type == OperationType.QUERY
                and context.presented):
            try:
                await context.principal()
            except GraphQLError as refused:
                execution.result = ExecutionResult(data=None, errors=[refused])
                extensions = refused.extensions or {}
                if extensions.get("code") == Refusal.RATE_LIMITED and isinstance(context.request, Request):
                    context.response.status_code = 429
                    context.response.headers["retry-after"] = retry_after_header(extensions["retryAfter"])
        yield


schema = FirebreakSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    types=EVENT_TYPES,
    extensions=[
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: ParserCache(maxsize=CACHED_DOCUMENTS),
        LimitedValidation,
        SubscriptionsOverWebSocket,
        RateLimits,
        PlayerCredentials,
        lambda: MaskErrors(should_mask_error=_unexpected, error_message="Internal error."),
        StoreUnavailable,
    ],
)
fill_from_docstrings(schema._schema)
