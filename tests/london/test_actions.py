"""London's action table is the single source of its action types: the published action schema, the action
space (and so the action ids) and the dispatch of apply all derive from it."""

from __future__ import annotations

from firebreak.domain import titles
from firebreak.domain.london.actions import ACTIONS
from firebreak.domain.london.rules import turn
from firebreak.domain.london.state import Phase

TITLE = titles.get("london")


def test_schema_space_and_table_name_the_same_types_in_the_same_order() -> None:
    schema = TITLE.schemas()["action"]
    defs = schema["$defs"]
    in_schema = [defs[ref["$ref"].removeprefix("#/$defs/")]["title"] for ref in schema["oneOf"]]
    in_space = list(dict.fromkeys(a["type"] for a in TITLE.action_space()))
    assert in_schema == ACTIONS.names() == in_space
    assert len(in_space) == 20


def test_each_type_s_schema_fields_are_the_fields_of_its_instances() -> None:
    defs = TITLE.schemas()["action"]["$defs"]
    for name, spec in ACTIONS.specs.items():
        variant = defs[name[:1].upper() + name[1:] + "Action"]
        assert set(variant["properties"]) == {"type", "label", *spec.fields}  # label: as the service lists it
        assert all(set(a) == {"type", *spec.fields} for a in TITLE.action_space() if a["type"] == name)


def test_a_listed_action_is_applied_by_its_type_s_entry() -> None:
    m = TITLE.new_match(2, 4)
    seat = m.to_act()[0]
    assert m.phase is Phase.START
    events: list[dict[str, object]] = []
    ACTIONS.apply(m, seat, {"type": "takeLoan"}, events)
    assert [e["type"] for e in events] == ["loanTaken"] and m.loans[seat] == 1
    assert {"type": "repayLoan"} in turn.turn_actions(m)  # the rules list by the step of the turn
