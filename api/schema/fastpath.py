"""GraphQL's fast path: a query or mutation whose text is planned (api/schema/plans.py) runs straight on
graphql-core, without strawberry's per-request extension machinery (eight extensions, each entered and left
around every stage of every request).

It does what those extensions do for such a request, in the same order: the request-level refusals
(api/schema/gate.py), execution (an act document's compiled plan, api/schema/compiled.py, else graphql-core),
the schema's error logging, then error masking (an error raised by our own code
becomes "Internal error."; the parser's, the validator's and an unreachable Redis's stay). Everything else (a text
that does not parse or validate, a subscription sent over HTTP, an operation type the transport does not allow)
goes the full path, where strawberry and the extensions answer it as before."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from graphql import ExecutionResult as GraphQLExecutionResult
from graphql import GraphQLError, GraphQLSchema, execute
from strawberry.execution import optimized_is_awaitable
from strawberry.types import ExecutionResult
from strawberry.types.graphql import OperationType
from strawberry.utils.await_maybe import await_maybe

from firebreak.api.context import Context
from firebreak.api.schema import gate, play
from firebreak.api.schema.plans import Plan, plan
from firebreak.matches import connections


def planned(schema: GraphQLSchema, query: str | None, operation_name: str | None,
            allowed: Iterable[OperationType] | None) -> Plan | None:
    """The plan the fast path runs the request with, or None for the full path."""
    if not isinstance(query, str):
        return None
    found = plan(schema, query, operation_name)
    if found is None or found.operation is OperationType.SUBSCRIPTION:
        return None
    if allowed is not None and found.operation not in allowed:
        return None
    return found


async def run(schema: GraphQLSchema, found: Plan, context: Context, variables: dict[str, Any] | None,
              root_value: Any, operation_name: str | None, log_errors: Callable[[list[GraphQLError]], None],
              mask: Callable[[GraphQLError], bool]) -> ExecutionResult:
    """Refuse, or execute, the planned request; log its errors (log_errors), then mask those `mask` picks."""
    try:
        refused = await gate.refusal(context, found.operation, found.mutations)
    except connections.UNAVAILABLE as exc:
        refused = GraphQLExecutionResult(data=None, errors=[GraphQLError(str(exc), original_error=exc)])
    result = refused
    if result is None and found.compiled is not None:  # None again when its variables do not coerce
        result = await found.compiled.execute(schema, context, variables, play.submit)
    if result is None:
        result = await await_maybe(execute(schema, found.document, root_value=root_value, context_value=context,
                                           variable_values=variables, operation_name=operation_name,
                                           is_awaitable=cast(Any, optimized_is_awaitable)))
    errors = result.errors
    if errors:
        log_errors(errors)
        errors = [_anonymised(e) if mask(e) else e for e in errors]
    return ExecutionResult(data=result.data, errors=errors)


def _anonymised(error: GraphQLError) -> GraphQLError:
    """As strawberry's MaskErrors: the message replaced, where it happened kept, the original dropped."""
    return GraphQLError(message=gate.MASKED, nodes=error.nodes, source=error.source, positions=error.positions,
                        path=error.path, original_error=None)
