"""JSON Schema building blocks every title's published schemas share (JSON Schema 2020-12).

A title publishes four schemas (Title.schemas()): its view, one action, one event and the typed result. Clients
generate code from them; the conformance suite validates every view, legal action and event of random matches
against them. The result's schema is the same for every title apart from its score columns.
"""

from __future__ import annotations

from typing import Any

from firebreak.domain.contract import ScoreColumn

DIALECT = "https://json-schema.org/draft/2020-12/schema"
Schema = dict[str, Any]
SEAT: Schema = {"type": "integer", "minimum": 0, "description": "A seat number (0-based)."}
COUNT: Schema = {"type": "integer", "minimum": 0}


def nullable(schema: Schema) -> Schema:
    """The schema or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def strict(properties: dict[str, Schema], optional: tuple[str, ...] = (), description: str = "") -> Schema:
    """An object with exactly these properties (all required but the optional ones)."""
    out: Schema = {"type": "object", "properties": properties,
                   "required": [name for name in properties if name not in optional], "additionalProperties": False}
    if description:
        out["description"] = description
    return out


def tagged(kinds: dict[str, tuple[str, dict[str, Schema]]], common: dict[str, Schema] | None = None,
           optional: dict[str, tuple[str, ...]] | None = None, suffix: str = "") -> Schema:
    """One of several objects told apart by their "type" (kind -> (description, properties)).

    Each variant is a named definition ("$defs", e.g. keepHand -> KeepHand + suffix) referenced from the oneOf, so
    code generators name one class per type; a document built from this keeps the "$defs" at its root.
    """
    variants: dict[str, Schema] = {}
    for kind, (description, properties) in kinds.items():
        props = {"type": {"const": kind}, **properties, **(common or {})}
        optional_here = (*(optional or {}).get(kind, ()), *(common or {}))
        variants[kind[:1].upper() + kind[1:] + suffix] = {"title": kind, **strict(props, optional_here, description)}
    return {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in variants], "$defs": variants}


def document(title_id: str, part: str, description: str, schema: Schema) -> Schema:
    """A top-level published schema with its id and dialect."""
    return {"$schema": DIALECT, "$id": f"https://firebreak.example/schemas/{title_id}/{part}.schema.json",
            "title": f"{title_id} {part}", "description": description, **schema}


LABEL: Schema = {"type": "string", "minLength": 1,
                 "description": "What it means, in words, in the reader's language (the service writes it; act "
                                "ignores an action's)."}


def event_envelope() -> dict[str, Schema]:
    """The properties every event may carry besides its own: the version it belongs to, its audience and its label
    (as the service answers it)."""
    return {"version": {"type": "integer", "minimum": 1, "description": "The match version of the step."},
            "audience": {"type": "array", "items": SEAT,
                         "description": "Private event: only these seats receive it (absent: everyone)."},
            "label": LABEL}


def service_events() -> dict[str, tuple[str, dict[str, Schema]]]:
    """The events the service itself adds to a step (turn clocks, a seat's life, abandonment), the same for every
    title."""
    seat = {"seat": SEAT}
    return {
        "clockExpired": ("A seat's turn clock ran out.", seat),
        "seatTakenOver": ("The service's bot plays the seat, at bot speed, until its owner reclaims it.",
                          {**seat, "level": {"type": "string"}}),
        "seatReturned": ("The seat's owner reclaimed it (reclaimSeat): its clock restarted.", seat),
        "seatResigned": ("The seat's owner resigned: the service's bot plays it to the end, or the match ended "
                         "(endReason RESIGNED).", seat),
        "matchAbandoned": ("No person acted for too long: the service ended the match.",
                           {"reason": {"type": "string"}}),
    }


def result_schema(title_id: str, columns: list[ScoreColumn]) -> Schema:
    """The typed result (contract.Result.to_dict()) of a title with these score columns."""
    parts = strict({c.key: {"type": "integer", "description": c.description or c.label} for c in columns})
    score = strict({"seat": SEAT, "total": {"type": "integer"}, "parts": parts})
    return document(title_id, "result", "How a match played to its end came out (Match.result).", strict({
        "scores": {"type": "array", "items": score},
        "winners": {"type": "array", "items": SEAT, "minItems": 1},
        "reason": {"type": "string", "description": "Why it ended, in the title's words."},
    }))
