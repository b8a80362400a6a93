"""The JSON forms of titles and matches: GraphQL's fields under the same names (camelCase) with the same values
(enums by name), rendered from the same read model (matches.reading)."""

from __future__ import annotations

from typing import Any

from firebreak.api import labels
from firebreak.domain import contract
from firebreak.domain.bots import levels
from firebreak.matches.lifecycle import SeatControl
from firebreak.matches.reading import ClockReading, FinalResult, Reading, SeatReading


def title_json(title: contract.Title, detail: bool = False) -> dict[str, Any]:
    """A title's JSON form: the GraphQL Title's fields, its board and schemas only in detail (they are large)."""
    out: dict[str, Any] = {
        "id": title.id, "name": title.name, "minSeats": title.min_seats, "maxSeats": title.max_seats,
        "options": [option_json(spec) for spec in labels.options(title.id, title.option_specs())],
        "scoreColumns": [column_json(column) for column in labels.columns(title.id, title.score_columns())],
        "botLevels": [{"name": level.name, "description": level.description} for level in levels(title).values()],
    }
    if detail:
        found = title.schemas()
        out["schemas"] = {part: found[part] for part in ("view", "action", "event", "result")}
        out["board"] = title.board()
    return out


def option_json(spec: contract.OptionSpec) -> dict[str, Any]:
    """An option a title accepts."""
    return {"name": spec.name, "kind": spec.kind.name, "default": spec.default, "description": spec.description,
            "choices": list(spec.choices), "nullable": spec.nullable, "minimum": spec.minimum,
            "maximum": spec.maximum, "seats": list(spec.seats)}


def column_json(column: contract.ScoreColumn) -> dict[str, Any]:
    """A score column of a title."""
    return {"key": column.key, "label": column.label, "description": column.description}


def seat_json(seat: SeatReading) -> dict[str, Any]:
    """Who sits in a seat (never their token)."""
    return {"seat": seat.seat, "taken": seat.taken, "name": seat.name,
            "kind": None if seat.kind is None else seat.kind.value, "level": seat.level,
            "takenOver": seat.control is SeatControl.TAKEN_OVER, "resigned": seat.control is SeatControl.RESIGNED,
            "program": seat.program, "player": seat.player, "deleted": seat.deleted}


def clock_json(clock: ClockReading | None) -> dict[str, Any] | None:
    """The turn clock as read (None: the match has none)."""
    if clock is None:
        return None
    return {"initialSeconds": clock.initial_seconds, "incrementSeconds": clock.increment_seconds,
            "perMoveSeconds": clock.per_move_seconds,
            "seats": [{"seat": s.seat, "secondsLeft": s.seconds_left, "running": s.running,
                       "takenOver": s.taken_over} for s in clock.seats]}


def result_json(result: FinalResult | None) -> dict[str, Any] | None:
    """How an over match came out (None before it is over)."""
    if result is None:
        return None
    return {"endReason": result.end_reason.name, "reason": result.reason,
            "columns": [column_json(column) for column in result.columns],
            "scores": [{"seat": s.seat, "total": s.total, "parts": [{"key": k, "value": v} for k, v in s.parts.items()]}
                       for s in result.scores],
            "winners": list(result.winners), "resigned": list(result.resigned)}


def match_json(read: Reading) -> dict[str, Any]:
    """A match as its reader may see it: the GraphQL Match's fields but events (the view may hold RawJSON parts:
    write it with matches.packing)."""
    return {
        "id": read.id, "title": read.title, "status": read.status.name, "version": read.version,
        "seatCount": read.seat_count, "options": read.options(), "seats": [seat_json(s) for s in read.seats()],
        "clock": clock_json(read.clock()), "endReason": None if read.end_reason is None else read.end_reason.name,
        "you": read.you, "toAct": read.to_act(), "serviceToAct": read.service_to_act(), "view": read.json_view(),
        "legalActions": labels.legal_actions(read), "result": result_json(labels.result(read.title, read.result())),
    }
