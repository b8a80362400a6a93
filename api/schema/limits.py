"""The query limits, checked in one walk whose cost is linear in the query's size, before any other rule runs.

Fields are walked as GraphQL executes them: in each selection set, fields of the same response name merge and
their sub-selections are walked together, and a fragment spread twice in one selection set is expanded once.
So a document of fragments that each spread the next twice costs one walk per fragment, not 2^n. The walk
counts what graphql-core's own rules would do with the document: selections visited (with fragments expanded)
and pairs of same-named fields compared by OverlappingFieldsCanBeMerged (quadratic in the repeats of a name);
above a cap the document is refused before those rules run, so no validation rule can take long.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)

from firebreak.matches.refusals import Refusal

MAX_DEPTH = 8                 # levels of fields with a selection set, a root field's the first: { titles { id } } is 1
MAX_INTROSPECTION_DEPTH = 14  # the same below __schema and __type: the standard introspection query's own depth
MAX_ALIASES = 20
MAX_SELECTIONS = 5000     # selections walked with fragments expanded where they are spread
MAX_MERGES = 5000         # pairs of same-named fields in one selection set, compared to check they can merge


class _Refused(Exception):
    """Raised inside the walk when a limit is passed (the walk stops there)."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class _Walk:
    fragments: dict[str, FragmentDefinitionNode]
    selections: int = 0
    aliases: int = 0
    merges: int = 0
    count_aliases: bool = True
    operation: str = "anonymous"

    def walk(self, sets: Iterable[SelectionSetNode], depth: int, bound: int | None) -> None:
        """Walk merged selection sets at a depth: collect fields by response name, then each name's sub-selections.
        Every field counts; the bound is set by the root field above (None: these are the root fields)."""
        groups: dict[str, list[FieldNode]] = {}
        self._collect(sets, groups, set())
        for fields in groups.values():
            self.merges += len(fields) * (len(fields) - 1) // 2
            if self.merges > MAX_MERGES:
                raise _Refused(Refusal.QUERY_TOO_COMPLEX, f"the query repeats field names too often: more than "
                                                    f"{MAX_MERGES} pairs of fields to merge")
            children = [f.selection_set for f in fields if f.selection_set is not None]
            if not children:
                continue
            limit = bound if bound is not None else _bound(fields)
            if depth + 1 > limit:
                raise _Refused(Refusal.QUERY_TOO_DEEP,
                               f"'{self.operation}' exceeds maximum operation depth of {limit}")
            self.walk(children, depth + 1, limit)

    def _collect(self, sets: Iterable[SelectionSetNode], groups: dict[str, list[FieldNode]],
                 spread: set[str]) -> None:
        for selection_set in sets:
            for selection in selection_set.selections:
                self.selections += 1
                if self.selections > MAX_SELECTIONS:
                    raise _Refused(Refusal.QUERY_TOO_COMPLEX, f"the query expands to more than {MAX_SELECTIONS} "
                                                        "selections (fragments counted where they are spread)")
                if isinstance(selection, FieldNode):
                    if selection.alias is not None and self.count_aliases:
                        self.aliases += 1
                        if self.aliases > MAX_ALIASES:
                            raise _Refused(Refusal.TOO_MANY_ALIASES, f"too many aliases: at most {MAX_ALIASES}")
                    key = (selection.alias or selection.name).value
                    groups.setdefault(key, []).append(selection)
                elif isinstance(selection, InlineFragmentNode):
                    self._collect([selection.selection_set], groups, spread)
                elif isinstance(selection, FragmentSpreadNode):
                    name = selection.name.value
                    fragment = self.fragments.get(name)
                    if name in spread or fragment is None:
                        continue  # spread once per selection set; unknown names are KnownFragmentNames' to report
                    spread.add(name)
                    self._collect([fragment.selection_set], groups, spread)


def _bound(fields: list[FieldNode]) -> int:
    """The depth bound below root fields of one response name: introspection's for __schema and __type."""
    if all(field.name.value.startswith("__") for field in fields):
        return MAX_INTROSPECTION_DEPTH
    return MAX_DEPTH


def problems(document: DocumentNode) -> list[GraphQLError]:
    """The limits this document passes (an empty list), or the first one it does not, as a validation error."""
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    walk = _Walk(fragments)
    try:
        for definition in document.definitions:
            if isinstance(definition, OperationDefinitionNode):
                walk.count_aliases = True
                walk.operation = definition.name.value if definition.name else "anonymous"
                walk.walk([definition.selection_set], 0, None)
        # graphql-core also checks each fragment's own selection sets (used or not): walk them too, with the
        # same budget and the larger bound (spread, the operation's walk holds them to theirs), but count their
        # aliases only where an operation spreads them
        for fragment in fragments.values():
            walk.count_aliases = False
            walk.operation = f"fragment {fragment.name.value}"
            walk.walk([fragment.selection_set], 0, MAX_INTROSPECTION_DEPTH)
    except _Refused as refused:
        return [GraphQLError(str(refused), extensions={"code": refused.code.value})]
    return []
