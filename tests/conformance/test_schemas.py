"""The published JSON Schemas (Title.schemas()) describe what the engine sends: every event of the seeded
playouts, and at sampled steps every legal action and a view, validate; so do the final views and the result.

Events are many, so an event schema that is a oneOf of objects told apart by a constant "type" (as
domain.schemas.tagged builds it) is checked against the variant of the event's type (at sampled steps also
against the whole schema, to keep the shortcut honest).
"""

from __future__ import annotations

import random
from typing import Any

from jsonschema import Draft202012Validator

from firebreak.domain.contract import Title
from tests.conformance.support import Case, sampled, take, trace

PARTS = ("view", "action", "event", "result")


def _validators(title: Title) -> dict[str, Draft202012Validator]:
    schemas = title.schemas()
    assert set(schemas) == set(PARTS)
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    return {part: Draft202012Validator(schema) for part, schema in schemas.items()}


def _by_type(schema: dict[str, Any]) -> dict[str, Draft202012Validator] | None:
    """One validator per event type when the schema is a oneOf told apart by a constant "type"; else None."""
    variants = schema.get("oneOf")
    if not isinstance(variants, list):
        return None
    defs = schema.get("$defs", {})
    variants = [defs.get(v["$ref"].removeprefix("#/$defs/"), {}) if set(v) == {"$ref"} else v for v in variants]
    kinds = [v.get("properties", {}).get("type", {}).get("const") for v in variants]
    if not all(isinstance(k, str) for k in kinds) or len(set(kinds)) != len(kinds):
        return None
    base = {k: v for k, v in schema.items() if k != "oneOf"}
    return {kind: Draft202012Validator({**base, **variant}) for kind, variant in zip(kinds, variants, strict=True)}


def _valid(validator: Draft202012Validator, instance: Any, where: str) -> None:
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
    assert not errors, f"{where}: {errors[0].message} at {list(errors[0].path)}"


def test_the_schemas_are_valid_and_refuse_an_unknown_action_or_event(title: Title) -> None:
    """Four valid 2020-12 schemas; an action or event of no known type is refused."""
    check = _validators(title)
    assert not check["action"].is_valid({"type": "noSuchActionType"})
    assert not check["event"].is_valid({"type": "noSuchEventType"})


def test_what_the_engine_sends_validates(case: Case) -> None:
    """Events at every step; legal actions and a view at sampled steps; every final view and the result."""
    t = trace(case)
    check = _validators(case.title)
    by_type = _by_type(case.title.schemas()["event"])
    probe = sampled(t, 6)
    rng = random.Random(case.seed)
    match = t.new_match()
    for k, step in enumerate(t.log):
        where = f"{case} step {k}"
        if k in probe:
            for seat in match.to_act():
                for action in match.legal_actions(seat):
                    _valid(check["action"], action, f"{where} action")
            viewer = rng.choice([None, *range(case.seats)])
            _valid(check["view"], match.view(viewer), f"{where} view of {viewer}")
        for event in take(match, step):
            here = f"{where} event {event.get('type')}"
            if by_type is None or k in probe:
                _valid(check["event"], event, here)
            if by_type is not None:
                assert event.get("type") in by_type, f"{here}: a type the schema does not list"
                _valid(by_type[event["type"]], event, here)
    for viewer in [None, *range(case.seats)]:
        _valid(check["view"], match.view(viewer), f"{case} final view of {viewer}")
    result = match.result()
    assert result is not None
    _valid(check["result"], result.to_dict(), f"{case} result")


def _keys(data: Any) -> set[str]:
    """Every object key anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            found.add(key)
            found |= _keys(value)
    elif isinstance(data, list):
        for value in data:
            found |= _keys(value)
    return found


def test_every_key_a_title_sends_is_camel_case(case: Case) -> None:
    """The API spells its names in camelCase; so does every title's data (issue 50: London's board once sent
    poverty_down): the board, every event, and at sampled steps the legal actions and every view."""
    t = trace(case)
    board = case.title.board()
    sent = set() if board is None else {k for part in board.values() if isinstance(part, dict)
                                        for value in part.values() for k in _keys(value)}
    probe = sampled(t, 6)
    match = t.new_match()
    for k, step in enumerate(t.log):
        if k in probe:
            for seat in match.to_act():
                sent |= _keys(match.legal_actions(seat))
            for viewer in [None, *range(case.seats)]:
                sent |= _keys(match.view(viewer))
        sent |= _keys(take(match, step))
    snake = sorted(key for key in sent if "_" in key)  # ids used as keys (pudding-lane, N) are data, not names
    assert not snake, f"{case}: keys in snake_case: {snake}"
