"""Great Fire's action table (domain/greatfire/actions.py) is the single source of its action types: the published
action schema, the action space (and so the action ids) and the dispatch of apply all derive from it."""

from __future__ import annotations

import random

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import Event
from firebreak.domain.greatfire.actions import ACTIONS
from firebreak.domain.greatfire.match import SETUP_PHASES, GreatFireMatch
from firebreak.domain.greatfire.state import Phase

TITLE = titles.get("greatfire")
SETUP_TYPES = {"keepHand", "redeal", "placeBand", "placePawn"}


def test_schema_space_and_table_name_the_same_types() -> None:
    """The space lists the types in table order; the published schema keeps its own order (breakTie last)."""
    schema = TITLE.schemas()["action"]
    defs = schema["$defs"]
    in_schema = [defs[ref["$ref"].removeprefix("#/$defs/")]["title"] for ref in schema["oneOf"]]
    in_space = list(dict.fromkeys(a["type"] for a in TITLE.action_space()))
    assert in_space == ACTIONS.names() and in_schema == list(ACTIONS.schema_order)
    assert sorted(in_schema) == sorted(in_space) and len(in_space) == 17
    assert in_schema[-1] == "breakTie" and in_space.index("breakTie") == in_space.index("placeCone") + 1


def test_each_type_s_schema_fields_are_the_fields_of_its_instances() -> None:
    defs = TITLE.schemas()["action"]["$defs"]
    space = TITLE.action_space()
    for name, spec in ACTIONS.specs.items():
        variant = defs[name[:1].upper() + name[1:] + "Action"]
        assert set(variant["properties"]) == {"type", "label", *spec.fields}  # label: as the service lists it
        assert variant["description"] == spec.description
        assert all(set(a) == {"type", *spec.fields} for a in space if a["type"] == name)


def test_a_listed_action_is_applied_by_its_type_s_entry() -> None:
    m = TITLE.new_match(3, 1, {"startSeat": 0})
    assert isinstance(m, GreatFireMatch) and m.phase is Phase.PLACE_BANDS
    seat = m.to_act()[0]
    district = m.legal_actions(seat)[0]["district"]
    events: list[Event] = []
    ACTIONS.apply(m, seat, {"type": "placeBand", "district": district}, events)
    assert events == [{"type": "bandPlaced", "seat": seat, "district": district}]
    assert m.bands[m.geo.index[district]] >= 1


@pytest.mark.parametrize("seats", [2, 4])
def test_setup_and_turn_actions_are_distinct_types_and_the_table_applies_both(seats: int) -> None:
    """Setup phases list only setup types and turn phases only the others, so dispatching by type is the old
    dispatch by phase."""
    m = TITLE.new_match(seats, 40 + seats, {})
    assert isinstance(m, GreatFireMatch)
    rng = random.Random(seats)
    while not m.is_over():
        if m.system_due():
            m.run_system_step()
            continue
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        assert all((a["type"] in SETUP_TYPES) == (m.phase in SETUP_PHASES) for a in legal)
        m.apply(seat, rng.choice(legal))
