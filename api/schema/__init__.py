"""The GraphQL schema, assembled from one module per area."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import strawberry
from graphql import ExecutionResult, GraphQLError
from starlette.requests import Request
from strawberry.extensions import (
    AddValidationRules,
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    SchemaExtension,
    ValidationCache,
)
from strawberry.types import ExecutionContext
from strawberry.types.graphql import OperationType

from api.schema.lobby import LobbyMutation, LobbyQuery
from api.schema.play import PlayMutation, PlayQuery
from api.schema.subscription import Subscription
from api.unavailable import StoreUnavailable, is_unavailable

log = logging.getLogger("firebreak.api")

MAX_DEPTH = 8
MAX_TOKENS = 2000
MAX_ALIASES = 20
CACHED_DOCUMENTS = 512  # parsed and validated query texts kept per process (an LRU: unique texts cannot grow it)

# The limits' rules are built once, so every request presents the same rules and ValidationCache can hit:
# clients send the same few query texts over and over, and validating them was half the API's CPU.
LIMIT_RULES = [
    *QueryDepthLimiter(max_depth=MAX_DEPTH).validation_rules,
    *MaxAliasesLimiter(max_alias_count=MAX_ALIASES).validation_rules,
]


@strawberry.type
class Query(LobbyQuery, PlayQuery):
    """Reads: titles, the lobby, and a match as the caller may see it."""


@strawberry.type
class Mutation(LobbyMutation, PlayMutation):
    """Writes: create, join and fill matches, and act."""


def _unexpected(error: GraphQLError) -> bool:
    """Mask errors raised by our own code (internals); keep the parser's and validator's messages, and leave an
    unreachable Redis to StoreUnavailable."""
    original = error.original_error
    if original is None or isinstance(original, GraphQLError) or is_unavailable(error):
        return False
    log.error("unexpected error in %s: %r", error.path, original)
    return True


class SubscriptionsOverWebSocket(SchemaExtension):
    """Answer a subscription sent over plain HTTP with a clear error instead of running it as a query."""

    def on_execute(self) -> Iterator[None]:
        """Short-circuit the execution of an HTTP subscription."""
        context = self.execution_context
        if context.operation_type == OperationType.SUBSCRIPTION and isinstance(
                getattr(context.context, "request", None), Request):
            context.result = ExecutionResult(data=None, errors=[GraphQLError(
                "subscriptions are served over WebSocket (graphql-transport-ws) at /graphql",
                extensions={"code": "SUBSCRIPTION_NEEDS_WEBSOCKET"})])
        yield


class FirebreakSchema(strawberry.Schema):
    """strawberry's Schema, quiet about a Redis outage (matches.connections logs each outage once)."""

    def process_errors(self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None) -> None:
        """Log the errors of a request, except those of an unreachable Redis."""
        super().process_errors([e for e in errors if not is_unavailable(e)], execution_context)


schema = FirebreakSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[
        lambda: AddValidationRules(LIMIT_RULES),
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: ParserCache(maxsize=CACHED_DOCUMENTS),
        lambda: ValidationCache(maxsize=CACHED_DOCUMENTS),
        SubscriptionsOverWebSocket,
        lambda: MaskErrors(should_mask_error=_unexpected, error_message="Internal error."),
        StoreUnavailable,
    ],
)
