"""The generic action table (domain/actions.py): the schema, the action space and the dispatch from one table."""

from __future__ import annotations

import pytest

from firebreak.domain.actions import ActionSpec, ActionTable
from firebreak.domain.contract import Action, Event
from firebreak.domain.schemas import COUNT, LABEL

Spec = ActionSpec[list[str], int]


def _log(state: list[str], seat: int, action: Action, events: list[Event]) -> None:
    state.append(f"{seat}:{action['type']}")
    events.append({"type": "logged"})


TABLE = ActionTable[list[str], int]([
    Spec("pass", "Do nothing.", _log),
    Spec("take", "Take this many.", _log, {"n": COUNT}, lambda most: [{"n": n} for n in range(1, most + 1)]),
])


def test_the_space_lists_each_type_s_instances_in_table_order() -> None:
    assert TABLE.names() == ["pass", "take"]
    assert TABLE.space(2) == [{"type": "pass"}, {"type": "take", "n": 1}, {"type": "take", "n": 2}]


def test_the_schema_has_one_variant_per_type_with_exactly_its_fields() -> None:
    schema = TABLE.schema(suffix="Action")
    assert schema["oneOf"] == [{"$ref": "#/$defs/PassAction"}, {"$ref": "#/$defs/TakeAction"}]
    # (and the label the service lists it with, which act ignores: issue 50)
    assert schema["$defs"]["TakeAction"]["properties"] == {"type": {"const": "take"}, "n": COUNT, "label": LABEL}
    assert schema["$defs"]["PassAction"]["required"] == ["type"]


def test_apply_dispatches_by_type_and_a_type_is_listed_once() -> None:
    state: list[str] = []
    events: list[Event] = []
    TABLE.apply(state, 1, {"type": "take", "n": 2}, events)
    assert state == ["1:take"] and events == [{"type": "logged"}]
    with pytest.raises(ValueError, match="twice"):
        ActionTable([Spec("pass", "", _log), Spec("pass", "", _log)])


def test_a_schema_order_orders_the_schema_only_and_names_every_type_once() -> None:
    table = ActionTable[list[str], int](TABLE.specs.values(), schema_order=["take", "pass"])
    assert table.schema()["oneOf"] == [{"$ref": "#/$defs/Take"}, {"$ref": "#/$defs/Pass"}]
    assert table.names() == ["pass", "take"] and table.space(1) == TABLE.space(1)
    for order in (["take"], ["take", "pass", "pass"], ["take", "drop"]):
        with pytest.raises(ValueError, match="schema order"):
            ActionTable(TABLE.specs.values(), schema_order=order)
