"""What a new match may be, title by title: the seat counts and options a title takes (Title.option_specs, the
same table domain/options.py checks with), as JSON Schema branches of CreateMatch and PlaceSeek, and the check that
enforces them when a body is read (the title's own check_options, so the two cannot differ).

One branch per title and seat count: an option that does not apply at that count must keep its default, an INT
option without a maximum is a seat number (below the count), a nullable one takes null too."""

from __future__ import annotations

from typing import Any

from pydantic_core import PydanticCustomError

from firebreak.domain import titles
from firebreak.domain.contract import OptionKind, OptionSpec
from firebreak.domain.errors import DomainError


def whole(value: Any) -> Any:
    """A JSON number with no fraction (5.0) as the integer it is: JSON Schema's integer is one."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def option_schema(spec: OptionSpec, seats: int) -> dict[str, Any]:
    """The JSON Schema of one option's value in a match of this many seats."""
    if spec.seats and seats not in spec.seats:
        return {"const": spec.default, "description": f"Only for {', '.join(map(str, spec.seats))} seats."}
    schema: dict[str, Any]
    if spec.kind is OptionKind.BOOL:
        schema = {"type": "boolean"}
    elif spec.kind is OptionKind.CHOICE:
        return {"enum": [*spec.choices, *([None] if spec.nullable else [])]}
    else:
        schema = {"type": "integer", "maximum": seats - 1 if spec.maximum is None else spec.maximum}
        if spec.minimum is not None:
            schema["minimum"] = spec.minimum
    return {"anyOf": [schema, {"type": "null"}]} if spec.nullable else schema


def branches() -> list[dict[str, Any]]:
    """One schema per registered title and seat count: the title, the count and the options it takes."""
    out = []
    for title in titles.all_titles():
        specs = title.option_specs()
        for seats in range(title.min_seats, title.max_seats + 1):
            options = {"type": "object", "additionalProperties": False,
                       "properties": {spec.name: option_schema(spec, seats) for spec in specs}}
            out.append({"properties": {"title": {"const": title.id}, "seats": {"const": seats},
                                       "options": {"anyOf": [options, {"type": "null"}]}}})
    return out


def by_title(schema: dict[str, Any]) -> None:
    """Add the branches to a body's schema (pydantic's json_schema_extra: called when the document is written)."""
    schema.setdefault("allOf", []).append({"anyOf": branches()})


def playable(title_id: str, seats: int, options: dict[str, Any] | None) -> dict[str, Any] | None:
    """The options (an INT option's 5.0 read as 5), once the title has checked the seat count and them; raise
    pydantic's error named after the title's code (BAD_OPTIONS) otherwise."""
    title = titles.get(title_id)
    if options is not None:
        kinds = {spec.name: spec.kind for spec in title.option_specs()}
        options = {name: whole(value) if kinds.get(name) is OptionKind.INT else value
                   for name, value in options.items()}
    try:
        title.check_options(seats, options)
    except DomainError as exc:
        raise PydanticCustomError(exc.code, "{why}", {"why": str(exc)}) from None
    return options
