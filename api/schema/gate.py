"""What refuses a GraphQL request as a whole, before it runs: the rate limits and a player credential that does not
verify. Both the fast path (api/schema/fastpath.py) and strawberry's extensions (for the texts it answers) ask
here, so the two paths refuse alike."""

from __future__ import annotations

import logging

from graphql import ExecutionResult, GraphQLError
from starlette.requests import Request
from strawberry.types.graphql import OperationType

from firebreak.api.context import Context
from firebreak.api.ratelimit import rate_limited, retry_after_header
from firebreak.matches import connections
from firebreak.matches.refusals import Refusal

log = logging.getLogger("firebreak.api")

MASKED = "Internal error."  # the message of every error our own code raised (MaskErrors, the fast path, the gate)


async def refusal(context: Context, operation: OperationType, mutations: int) -> ExecutionResult | None:
    """The answer to a request refused as a whole, or None to run it: RATE_LIMITED (over HTTP: status 429 and
    Retry-After) when it carries a credential from a client blocked for failed authentications, or when its
    mutation fields (`mutations`, each taken from the client's bucket and the bearer token's if any) find a bucket
    empty; UNAUTHENTICATED (with its reason) for a query whose player credential does not verify (mutations
    answer a typed member instead, subscriptions refuse in their resolver). An unreachable Redis raises."""
    try:
        refused = await _limits(context, operation, mutations)
    except connections.UNAVAILABLE:
        raise  # answered SERVICE_UNAVAILABLE (503) like any other outage
    except Exception:  # a fault of ours: masked like a resolver's, never its text to the client
        log.exception("unexpected error in the rate limits")
        return ExecutionResult(data=None, errors=[GraphQLError(MASKED)])
    if refused is not None:
        return refused
    if operation is OperationType.QUERY and context.presented:
        try:
            await context.principal()
        except GraphQLError as error:
            extensions = error.extensions or {}
            if extensions.get("code") == Refusal.RATE_LIMITED:
                _too_many(context, float(extensions["retryAfter"]))
            return ExecutionResult(data=None, errors=[error])
    return None


async def _limits(context: Context, operation: OperationType, mutations: int) -> ExecutionResult | None:
    wait = context.services.limits.blocked_for(context.client) if context.presented else 0.0
    if wait > 0:
        return _refuse(context, "blocked", wait)
    if operation is OperationType.MUTATION:
        verdict = await context.services.limits.mutations(context.client, context.token, mutations)
        if not verdict.allowed:
            return _refuse(context, "mutations", verdict.retry_after)
    return None


def _refuse(context: Context, limit: str, retry_after: float) -> ExecutionResult:
    context.services.metrics.rate_limited(limit)
    _too_many(context, retry_after)
    return ExecutionResult(data=None, errors=[rate_limited(retry_after)])


def _too_many(context: Context, retry_after: float) -> None:
    """Over HTTP: status 429 and Retry-After."""
    if isinstance(context.request, Request):
        context.response.status_code = 429
        context.response.headers["retry-after"] = retry_after_header(retry_after)
