"""While Redis is unreachable every GraphQL request gets one typed answer: HTTP 503 with Retry-After and the
error code SERVICE_UNAVAILABLE (a subscription: that error, then complete), never "Internal error." nor internals."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from graphql import GraphQLError
from strawberry.extensions import SchemaExtension

from firebreak.matches import connections
from firebreak.matches.refusals import Refusal

CODE = Refusal.SERVICE_UNAVAILABLE.value
MESSAGE = ("The service cannot reach its store (Redis) right now; try again in a few seconds. A mutation's outcome "
           "is unknown: retry it with the same idempotencyKey, or re-read the match.")
HEADERS = {"Retry-After": str(connections.RETRY_AFTER)}


def unavailable_error() -> GraphQLError:
    """The GraphQL error every caller gets while Redis is unreachable."""
    return GraphQLError(MESSAGE, extensions={"code": CODE})


def is_unavailable(error: GraphQLError) -> bool:
    """Whether a resolver failed because Redis could not be reached (after the connections' retries)."""
    return isinstance(error.original_error, connections.UNAVAILABLE) or (error.extensions or {}).get("code") == CODE


def is_unavailable_answer(answer: Mapping[str, object]) -> bool:
    """Whether a JSON GraphQL answer is the SERVICE_UNAVAILABLE one."""
    errors = answer.get("errors")
    return isinstance(errors, list) and any(
        isinstance(e, dict) and (e.get("extensions") or {}).get("code") == CODE for e in errors)


class StoreUnavailable(SchemaExtension):
    """A subscription whose Redis read fails ends with the SERVICE_UNAVAILABLE error instead of a masked one
    (MaskErrors leaves these errors alone, see is_unavailable; over HTTP, api.app answers them with 503)."""

    def on_stream_result(self, result: Any) -> Iterator[None]:
        """Before a subscription's result is sent: the typed error instead of a failed Redis read."""
        errors = getattr(result, "errors", None)
        if errors and any(is_unavailable(e) for e in errors):
            result.errors = [unavailable_error()]
            result.data = None
        yield
