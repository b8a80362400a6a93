"""While Redis is unreachable every GraphQL request gets one typed answer: HTTP 503 with Retry-After and the
error code SERVICE_UNAVAILABLE, never a masked "Internal error."."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from graphql import GraphQLError
from starlette.responses import Response
from strawberry.extensions import SchemaExtension

from matches import connections

CODE = "SERVICE_UNAVAILABLE"
MESSAGE = ("The service cannot reach its store (Redis) right now; try again in a few seconds. A mutation's outcome "
           "is unknown: retry it with the same idempotencyKey, or re-read the match.")
HEADERS = {"Retry-After": str(connections.RETRY_AFTER)}


def unavailable_error() -> GraphQLError:
    """The GraphQL error every caller gets while Redis is unreachable."""
    return GraphQLError(MESSAGE, extensions={"code": CODE})


def is_unavailable(error: GraphQLError) -> bool:
    """Whether a resolver failed because Redis could not be reached (after the connections' retries)."""
    return isinstance(error.original_error, connections.UNAVAILABLE) or (error.extensions or {}).get("code") == CODE


def _replace(result: Any) -> bool:
    """Put the one typed error in place of a result's errors when Redis was unreachable; return whether it did."""
    errors = getattr(result, "errors", None)
    if not errors or not any(is_unavailable(e) for e in errors):
        return False
    result.errors = [unavailable_error()]
    result.data = None
    return True


class StoreUnavailable(SchemaExtension):
    """Turn a Redis outage into SERVICE_UNAVAILABLE: HTTP 503 for a query or mutation; for a subscription, its
    last message (the stream then completes). MaskErrors must leave these errors alone (see is_unavailable)."""

    def on_operation(self) -> Iterator[None]:
        """After a query or mutation: one typed error instead of the failed fields, and HTTP 503."""
        yield
        if not _replace(self.execution_context.result):
            return
        response = getattr(self.execution_context.context, "response", None)
        if isinstance(response, Response):
            response.status_code = 503
            response.headers.update(HEADERS)

    def on_stream_result(self, result: Any) -> Iterator[None]:
        """Before a subscription's result is sent: the typed error instead of a failed Redis read."""
        _replace(result)
        yield
