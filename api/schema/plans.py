"""Query texts planned once: parsed (within the token limit), walked by the limits, validated, and their operation
found, then kept in a bounded cache, so the many requests that send the same few texts skip all of it."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from graphql import ASTValidationRule, DocumentNode, GraphQLError, GraphQLSchema, parse, specified_rules
from strawberry.schema.schema import validate_document
from strawberry.types.graphql import OperationType
from strawberry.utils.operation import get_operation_type

from firebreak.api.ratelimit import root_fields
from firebreak.api.schema import limits
from firebreak.api.schema.compiled import CompiledAct, compile_act

MAX_TOKENS = 2000
CACHED_DOCUMENTS = 512  # parsed and validated query texts kept per process (an LRU: unique texts cannot grow it)
RULES: tuple[type[ASTValidationRule], ...] = tuple(specified_rules)  # strawberry's default validation rules


@functools.lru_cache(maxsize=CACHED_DOCUMENTS)
def validated(schema: GraphQLSchema, document: DocumentNode,
              rules: tuple[type[ASTValidationRule], ...]) -> list[GraphQLError]:
    """The document's validation errors: the limits' linear walk first, then (only if it passes) every rule.
    Cached: clients send the same few query texts over and over (ParserCache hands back the same document),
    and validating them was half the API's CPU."""
    return limits.problems(document) or validate_document(schema, document, rules)


@dataclass(frozen=True)
class Plan:
    """A query text that parsed and validated, ready to execute: its document, its operation's type, how many
    root fields a mutation selects (each is one request to the rate limiter), and an act's compiled plan."""

    document: DocumentNode
    operation: OperationType
    mutations: int
    compiled: CompiledAct | None = None  # a plain act mutation's compiled plan (api/schema/compiled.py)


@functools.lru_cache(maxsize=CACHED_DOCUMENTS)
def plan(schema: GraphQLSchema, query: str, operation_name: str | None) -> Plan | None:
    """The plan of a query text and operation name; None when the text does not parse within the token limit,
    fails the limits or validation, or names no operation (the full path answers those with their errors)."""
    try:
        document = parse(query, max_tokens=MAX_TOKENS)
    except GraphQLError:
        return None
    if validated(schema, document, RULES):
        return None
    try:
        operation = get_operation_type(document, operation_name)
    except RuntimeError:
        return None
    if operation is not OperationType.MUTATION:
        return Plan(document, operation, 0)
    return Plan(document, operation, root_fields(document, operation_name),
                compile_act(schema, document, operation_name))
