"""The GraphQL schema, assembled from one module per area."""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import strawberry
from graphql import ExecutionResult, GraphQLError
from starlette.requests import Request
from strawberry.extensions import MaskErrors, MaxTokensLimiter, ParserCache, SchemaExtension
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.name_converter import NameConverter
from strawberry.types import ExecutionContext
from strawberry.types import ExecutionResult as StrawberryResult
from strawberry.types.graphql import OperationType

from firebreak.api.context import Context
from firebreak.api.ratelimit import root_fields
from firebreak.api.schema import fastpath, gate
from firebreak.api.schema.chat import ChatMutation, ChatQuery, ChatSubscription
from firebreak.api.schema.descriptions import fill_from_docstrings
from firebreak.api.schema.events import EVENT_TYPES, EventsMutation, EventsSubscription
from firebreak.api.schema.invitations import InvitationsMutation
from firebreak.api.schema.lobby import LobbyMutation, LobbyQuery
from firebreak.api.schema.moderation import ModerationMutation, ModerationQuery
from firebreak.api.schema.plans import CACHED_DOCUMENTS, MAX_TOKENS, Plan, validated
from firebreak.api.schema.play import PlayMutation, PlayQuery
from firebreak.api.schema.players import PlayersMutation, PlayersQuery
from firebreak.api.schema.push import PushMutation, PushQuery
from firebreak.api.schema.ratings import RatingsQuery
from firebreak.api.schema.rematch import RematchMutation
from firebreak.api.schema.seats import SeatsMutation
from firebreak.api.schema.seeks import SeeksMutation
from firebreak.api.schema.social import SocialMutation, SocialQuery
from firebreak.api.schema.subscription import Subscription as MatchSubscription
from firebreak.api.schema.webhooks import WebhooksMutation, WebhooksQuery
from firebreak.api.unavailable import StoreUnavailable, is_unavailable
from firebreak.matches.refusals import Refusal

log = logging.getLogger("firebreak.api")

@strawberry.type
class Query(LobbyQuery, PlayQuery, PlayersQuery, RatingsQuery, WebhooksQuery, PushQuery, SocialQuery, ChatQuery,
            ModerationQuery):
    """Reads: titles, the lobby, a match as the caller may see it, the signed-in player, the leaderboards, (for
    the operator) the webhooks, the key browsers subscribe to pushes with, and players' public profiles and
    search."""


@strawberry.type
class Mutation(LobbyMutation, PlayMutation, PlayersMutation, SeatsMutation, RematchMutation, InvitationsMutation,
               SeeksMutation, WebhooksMutation, PushMutation, EventsMutation, SocialMutation, ChatMutation,
               ModerationMutation):
    """Writes: create, join and fill matches, act, sign in and out, a seat's life (resign, reclaim, leave, cancel),
    rematch, invitations, seeks, (for the operator) webhook endpoints, push registrations, friends and blocks."""


@strawberry.type
class Subscription(MatchSubscription, EventsSubscription, ChatSubscription):
    """Pushed updates: a match's events, the signed-in player's own events, and a match's chat."""


def _unexpected(error: GraphQLError) -> bool:
    """Mask errors raised by our own code (internals); keep the parser's and validator's messages, and leave an
    unreachable Redis to StoreUnavailable."""
    original = error.original_error
    if original is None or isinstance(original, GraphQLError) or is_unavailable(error):
        return False
    log.error("unexpected error in %s: %r", error.path, original)
    return True


def refusal(error: GraphQLError) -> str | None:
    """The code of a refusal: an error our code raised on purpose, with its code (never a fault's), else None."""
    code = (error.extensions or {}).get("code")
    original = error.original_error
    return code if isinstance(code, str) and (original is None or isinstance(original, GraphQLError)) else None


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
    """strawberry's Schema with a fast path for planned texts (api/schema/fastpath.py), quiet about a Redis outage
    (matches.connections logs each outage once)."""

    def process_errors(self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None) -> None:
        """Log the errors of a request: a refusal (an error of ours with its code) as one line, anything else as
        strawberry does (with its traceback); nothing for an unreachable Redis."""
        unexpected = []
        for error in errors:
            if is_unavailable(error):
                continue
            code = refusal(error)
            if code is None:
                unexpected.append(error)
            else:
                log.warning("refused %s at %s: %s", code, ".".join(map(str, error.path or ())) or "-", error.message)
        super().process_errors(unexpected, execution_context)

    async def execute(self, query: str | None, variable_values: dict[str, Any] | None = None,
                      context_value: Any | None = None, root_value: Any | None = None,
                      operation_name: str | None = None,
                      allowed_operation_types: Iterable[OperationType] | None = None,
                      operation_extensions: dict[str, Any] | None = None) -> StrawberryResult:
        """A planned query or mutation on the fast path; anything else through strawberry and the extensions."""
        found = fastpath.planned(self._schema, query, operation_name, allowed_operation_types)
        if found is None or not isinstance(context_value, Context):
            return await super().execute(query, variable_values, context_value, root_value, operation_name,
                                         allowed_operation_types, operation_extensions)
        return await self.run_planned(found, context_value, variable_values, root_value, operation_name)

    async def run_planned(self, found: Plan, context: Context, variable_values: dict[str, Any] | None,
                          root_value: Any, operation_name: str | None) -> StrawberryResult:
        """Run a planned request on the fast path, its errors logged and masked as the extensions would."""
        return await fastpath.run(self._schema, found, context, variable_values, root_value, operation_name,
                                  self.process_errors, _unexpected)


class RateLimits(SchemaExtension):
    """Refuse a request of the full path as a whole, before it runs, as the fast path does (api/schema/gate.py)."""

    async def on_execute(self) -> AsyncIterator[None]:
        """Set the refusal's result instead of executing when the gate says no."""
        execution = self.execution_context
        context = execution.context
        if context is not None and not execution.result:
            mutations = 0
            if execution.operation_type == OperationType.MUTATION:
                assert execution.graphql_document is not None
                mutations = root_fields(execution.graphql_document, execution.operation_name)
            refused = await gate.refusal(context, execution.operation_type, mutations)
            if refused is not None:
                execution.result = refused
        yield


class CachedNames(NameConverter):
    """strawberry's names, each Python name converted to camelCase once (it converted them on every request)."""

    @functools.lru_cache(maxsize=4096)  # noqa: B019 (one converter lives as long as the process)
    def apply_naming_config(self, name: str) -> str:
        """The GraphQL name of a Python name."""
        return super().apply_naming_config(name)


schema = FirebreakSchema(
    query=Query,
    config=StrawberryConfig(name_converter=CachedNames()),
    mutation=Mutation,
    subscription=Subscription,
    types=EVENT_TYPES,
    extensions=[
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: ParserCache(maxsize=CACHED_DOCUMENTS),
        LimitedValidation,
        SubscriptionsOverWebSocket,
        RateLimits,
        lambda: MaskErrors(should_mask_error=_unexpected, error_message=gate.MASKED),
        StoreUnavailable,
    ],
)
fill_from_docstrings(schema._schema)
