"""A title's action table (boardgame.io's `moves`): every action type once, with the JSON Schemas of its fields,
its instances in the integer action space, and what applying it does.

The published action schema (ActionTable.schema), the action space (ActionTable.space) and the dispatch of a
listed action (ActionTable.apply) all derive from the table, so an action type is spelled in one place. Which
actions are legal now stays with the rules: they enumerate by the step of the turn, not by type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from firebreak.domain.contract import JSON, Action, Event
from firebreak.domain.schemas import LABEL, Schema, tagged

S = TypeVar("S")  # the state a listed action is applied to
D = TypeVar("D")  # the component data the action space is built from

Fields = dict[str, JSON]


def bare(data: object) -> list[Fields]:
    """The instances of an action type without fields: one, the bare {"type": name}."""
    return [{}]


@dataclass(frozen=True)
class ActionSpec(Generic[S, D]):
    """One action type: its name ("type"), what it does (the schema's description), how a listed action of it is
    applied (state, seat, action, events), its fields' JSON Schemas, and the fields of its instances in the
    action space, in id order (one bare instance unless given)."""

    name: str
    description: str
    apply: Callable[[S, int, Action, list[Event]], None]
    fields: Mapping[str, Schema] = field(default_factory=dict)
    instances: Callable[[D], Iterable[Fields]] = bare


class ActionTable(Generic[S, D]):
    """A title's action types by name, in the order of its action space, and of its action schema's oneOf
    unless schema_order (every name once) orders the schema otherwise (a published order kept as it is)."""

    def __init__(self, specs: Iterable[ActionSpec[S, D]], schema_order: Sequence[str] | None = None) -> None:
        self.specs: dict[str, ActionSpec[S, D]] = {}
        for spec in specs:
            if spec.name in self.specs:
                raise ValueError(f"action type {spec.name!r} is in the table twice")
            self.specs[spec.name] = spec
        self.schema_order: tuple[str, ...] = tuple(self.specs if schema_order is None else schema_order)
        if sorted(self.schema_order) != sorted(self.specs):
            raise ValueError("the schema order must name every action type of the table once")

    def names(self) -> list[str]:
        """The action types, in table order."""
        return list(self.specs)

    def schema(self, suffix: str = "") -> Schema:
        """One action as a JSON Schema: one of the table's types (in schema order), each with exactly its fields."""
        specs = (self.specs[name] for name in self.schema_order)
        return tagged({s.name: (s.description, dict(s.fields)) for s in specs}, common={"label": LABEL},
                      suffix=suffix)

    def space(self, data: D) -> list[Action]:
        """Every action the table can list for this component data: each type's instances, in table order."""
        return [{"type": s.name, **fields} for s in self.specs.values() for fields in s.instances(data)]

    def apply(self, state: S, seat: int, action: Action, events: list[Event]) -> None:
        """Apply a listed action of the seat by its type's entry."""
        self.specs[action["type"]].apply(state, seat, action, events)
