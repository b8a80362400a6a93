"""A compiled plan for the act mutation, the one request clients send over and over in a match.

graphql-core executes any document generically: it builds an executor, collects the fields, wraps each resolver
(strawberry's wrappers convert the arguments, build an Info, run the field extensions) and completes every value
through the abstract type's resolution. For a document whose only root field is `act(input: $variable)` and whose
selection on the ActResult union is made of leaf fields (`__typename`, `version`, `events`, `code`...), possibly
inside inline fragments on its member types or the Problem interface, and no named fragments, directives,
arguments or sub-selections, all of that can be decided once, when the text is planned: `compile_act` then
answers the list of (response key, field) to write for each member type, and `CompiledAct.execute` coerces the
variables with graphql-core's own coercion, calls the same act as the resolver does (api/schema/play.py,
`submit`), and writes the answer with each field's own output coercion, in the order graphql-core would. Any
other document, or variables that do not coerce, go to graphql-core. Errors are graphql-core's: a resolver's
exception is located at the act field, and no data (the field is non-null); a leaf's (a null in a non-null field,
a value its type cannot represent) at the leaf, which is then null, or, for a non-null leaf, the whole act.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from graphql import (
    DocumentNode,
    ExecutionResult,
    FieldNode,
    GraphQLError,
    GraphQLInputObjectType,
    GraphQLLeafType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    Undefined,
    VariableNode,
    is_abstract_type,
    is_leaf_type,
    located_error,
)
from graphql.execution.values import get_variable_values
from graphql.pyutils import inspect

ROOT_FIELD = "act"
TYPENAME = "__typename"
Submit = Callable[[Any, dict[str, Any]], Awaitable[Any]]  # (context, the input's fields by Python name) -> ActResult


@dataclass(frozen=True)
class Leaf:
    """One field written for a member type: its response key, its name, its Python attribute (None: __typename),
    how graphql-core completes it (the leaf type's output coercion), and the nodes an error is located at."""

    key: str
    name: str
    attribute: str | None
    leaf: GraphQLLeafType | None
    coerce: Callable[[Any], Any] | None  # the leaf type's output coercion, looked up once when planned
    non_null: bool
    nodes: tuple[FieldNode, ...]

    def complete(self, parent: str, value: Any) -> Any:
        """The value as graphql-core completes it: its output coercion, and the same errors for a null in a non-null
        field or a coercion that gives nothing."""
        if value is None:
            if self.non_null:
                raise TypeError(f"Cannot return null for non-nullable field {parent}.{self.name}.")
            return None
        assert self.coerce is not None
        coerced = self.coerce(value)
        if coerced is Undefined or coerced is None:
            raise TypeError(f"Expected `{inspect(self.leaf)}.coerce_output_value({inspect(value)})` to return "
                            f"non-nullable value, returned: {inspect(coerced)}")
        return coerced


def _coercion(leaf: GraphQLLeafType) -> Callable[[Any], Any]:
    """The leaf type's output coercion (graphql-core 3.3's coerce_output_value; serialize before it)."""
    coerce: Callable[[Any], Any] | None = getattr(leaf, "coerce_output_value", None)
    return coerce if coerce is not None else leaf.serialize


@dataclass(frozen=True)
class CompiledAct:
    """What to do for one planned act document."""

    operation: OperationDefinitionNode
    field: FieldNode
    key: str                         # the root field's response key (its alias, or "act")
    variable: str                    # the variable holding the input
    inputs: tuple[tuple[str, str], ...]  # the input's fields: (GraphQL name, Python name), every one a leaf
    leaves: dict[str, tuple[Leaf, ...]]  # member type name -> the fields to write, in order

    async def execute(self, schema: GraphQLSchema, context: Any, variables: dict[str, Any] | None,
                      submit: Submit) -> ExecutionResult | None:
        """The answer, or None when the variables do not coerce (graphql-core then answers with its errors)."""
        coerced = get_variable_values(schema, self.operation.variable_definitions or (), variables or {})
        if isinstance(coerced, list):
            return None
        given = coerced.coerced[self.variable]  # the input object's fields by GraphQL name, each coerced
        fields = {python: given[name] for name, python in self.inputs if name in given}
        try:
            result = await submit(context, fields)
        except Exception as exc:  # as graphql-core: a located error, and no data (the field is non-null)
            return ExecutionResult(data=None, errors=[located_error(exc, [self.field], [self.key])])
        errors: list[GraphQLError] = []
        try:
            written = self._written(result, errors)
        except GraphQLError as error:  # a non-null leaf's error: its null reaches the non-null act field
            return ExecutionResult(data=None, errors=[error])
        return ExecutionResult(data={self.key: written}, errors=errors or None)

    def _written(self, result: Any, errors: list[GraphQLError]) -> dict[str, Any]:
        """The member's fields in order; a nullable leaf's error is collected and the leaf written null, a non-null
        leaf's error raised (graphql-core's handle_field_error)."""
        name = type(result).__strawberry_definition__.name
        out: dict[str, Any] = {}
        for leaf in self.leaves[name]:
            if leaf.attribute is None:
                out[leaf.key] = name
                continue
            try:
                out[leaf.key] = leaf.complete(name, getattr(result, leaf.attribute))
            except Exception as exc:
                error = located_error(exc, list(leaf.nodes), [self.key, leaf.key])
                if leaf.non_null:
                    raise error from exc
                errors.append(error)
                out[leaf.key] = None
        return out


def compile_act(schema: GraphQLSchema, document: DocumentNode, operation_name: str | None) -> CompiledAct | None:
    """The compiled plan of a validated document, or None when it is not a plain act mutation."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if len(operations) != len(document.definitions):
        return None  # fragment definitions
    chosen = [o for o in operations if operation_name is None or (o.name and o.name.value == operation_name)]
    if len(chosen) != 1:
        return None
    operation = chosen[0]
    if operation.operation is not OperationType.MUTATION or operation.directives:
        return None
    roots = operation.selection_set.selections
    if len(roots) != 1 or not isinstance(roots[0], FieldNode):
        return None
    field = roots[0]
    if field.name.value != ROOT_FIELD or field.directives or field.selection_set is None:
        return None
    arguments = field.arguments or ()
    if len(arguments) != 1 or arguments[0].name.value != "input":
        return None
    value = arguments[0].value
    if not isinstance(value, VariableNode):
        return None
    mutation = schema.mutation_type
    assert mutation is not None
    root = mutation.fields[ROOT_FIELD]
    inputs = _inputs(root.args["input"].type)
    if inputs is None:
        return None
    union = root.type.of_type if isinstance(root.type, GraphQLNonNull) else root.type
    leaves: dict[str, tuple[Leaf, ...]] = {}
    for member in schema.get_possible_types(union):
        found = _leaves(schema, member, field.selection_set)
        if found is None:
            return None
        leaves[member.name] = found
    key = field.alias.value if field.alias else field.name.value
    return CompiledAct(operation, field, key, value.name.value, inputs, leaves)


def _inputs(of_type: Any) -> tuple[tuple[str, str], ...] | None:
    """The input object's fields as (GraphQL name, Python name), when every one is a leaf (strawberry then passes
    graphql-core's coerced values on as they are); None otherwise."""
    input_type = of_type.of_type if isinstance(of_type, GraphQLNonNull) else of_type
    if not isinstance(input_type, GraphQLInputObjectType):
        return None
    out = []
    for name, input_field in input_type.fields.items():
        definition = input_field.extensions.get("strawberry-definition")
        field_type = input_field.type.of_type if isinstance(input_field.type, GraphQLNonNull) else input_field.type
        if definition is None or not is_leaf_type(field_type):
            return None
        out.append((name, definition.python_name))
    return tuple(out)


def _leaves(schema: GraphQLSchema, member: GraphQLObjectType, selections: SelectionSetNode) -> tuple[Leaf, ...] | None:
    """The leaf fields a selection set writes for one member type, in graphql-core's order (first appearance of
    each response key), or None when it holds anything this plan does not do."""
    out: dict[str, Leaf] = {}
    names: dict[str, str] = {}
    nodes: dict[str, list[FieldNode]] = {}  # every node of a response key, in order (an error's locations)
    pending = list(selections.selections)
    while pending:
        node = pending.pop(0)
        if isinstance(node, InlineFragmentNode):
            if node.directives:
                return None
            condition = node.type_condition  # graphql-core's does_fragment_condition_match
            if condition is not None:
                wanted = schema.get_type(condition.name.value)
                if wanted is not member and not (is_abstract_type(wanted) and schema.is_sub_type(wanted, member)):
                    continue
            pending[:0] = node.selection_set.selections
            continue
        if not isinstance(node, FieldNode) or node.directives or node.arguments or node.selection_set is not None:
            return None
        name = node.name.value
        key = node.alias.value if node.alias else name
        if names.setdefault(key, name) != name:
            return None
        nodes.setdefault(key, []).append(node)
        if key in out:
            continue
        if name == TYPENAME:
            out[key] = Leaf(key, name, None, None, None, True, ())
            continue
        graphql_field = member.fields.get(name)
        if graphql_field is None:
            return None
        definition = graphql_field.extensions.get("strawberry-definition")
        if definition is None or definition.base_resolver is not None or definition.extensions:
            return None  # a field with a resolver of its own: graphql-core runs it
        of_type = graphql_field.type
        non_null = isinstance(of_type, GraphQLNonNull)
        leaf = of_type.of_type if non_null else of_type
        if not is_leaf_type(leaf):
            return None
        out[key] = Leaf(key, name, definition.python_name, leaf, _coercion(leaf), non_null, ())
    return tuple(replace(leaf, nodes=tuple(nodes[key])) for key, leaf in out.items())


__all__ = ["CompiledAct", "compile_act"]
