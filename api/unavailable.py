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


class StoreUnavailable(SchemaExtension):
    """Turn a Redis outage into SERVICE_UNAVAILABLE (list it after MaskErrors: it must run first)."""

    def on_operation(self) -> Iterator[None]:
        """After the operation: one typed error instead of the failed fields, and HTTP 503."""
        yield
        result: Any = self.execution_context.result
        errors = getattr(result, "errors", None)
        if not errors or not any(is_unavailable(e) for e in errors):
            return
        result.errors = [unavailable_error()]
        result.data = None
        response = getattr(self.execution_context.context, "response", None)
        if isinstance(response, Response):
            response.status_code = 503
            response.headers.update(HEADERS)
