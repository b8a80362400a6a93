"""The JSON forms of titles and matches, built from the GraphQL types themselves, so that both surfaces carry the
same fields under the same names (camelCase) with the same values (enums by name)."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from strawberry.utils.str_converters import to_camel_case

from api.schema.match import Match
from api.schema.title import BotLevel, OptionSpec, score_columns
from domain import contract
from domain.bots import levels
from matches.store import Loaded


def plain(value: Any) -> Any:
    """A GraphQL value (a strawberry type without resolvers, an enum, a list...) as JSON data."""
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {to_camel_case(f.name): plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def title_json(title: contract.Title, detail: bool = False) -> dict[str, Any]:
    """A title's JSON form: the GraphQL Title's fields, its board and schemas only in detail (they are large)."""
    out: dict[str, Any] = {
        "id": title.id, "name": title.name, "minSeats": title.min_seats, "maxSeats": title.max_seats,
        "options": [plain(OptionSpec.of(spec)) for spec in title.option_specs()],
        "scoreColumns": plain(score_columns(title.id)),
        "botLevels": [plain(BotLevel(name=level.name, description=level.description))
                      for level in levels(title).values()],
    }
    if detail:
        found = title.schemas()
        out["schemas"] = {part: found[part] for part in ("view", "action", "event", "result")}
        out["board"] = title.board()
    return out


def seats_json(loaded: Loaded) -> list[dict[str, Any]]:
    """Every seat of a match: who sits there (never their token)."""
    match: Any = Match(loaded=loaded, viewer=None, cache={})
    seats: list[dict[str, Any]] = plain(match.seats())
    return seats


def match_json(loaded: Loaded, viewer: int | None) -> dict[str, Any]:
    """A match as the viewer (a seat, or None for a spectator) may see it: the GraphQL Match's fields but events."""
    # the GraphQL type's own resolvers, called as methods (typed as strawberry fields, hence Any)
    match: Any = Match(loaded=loaded, viewer=viewer, cache={})
    return {
        "id": str(match.id()), "title": match.title(), "status": plain(match.status()), "version": match.version(),
        "seatCount": match.seat_count(), "options": match.options(), "seats": plain(match.seats()),
        "clock": plain(match.clock()), "endReason": plain(match.end_reason()), "you": match.you(),
        "toAct": match.to_act(), "serviceToAct": match.service_to_act(), "view": match.view(),
        "legalActions": match.legal_actions(), "result": plain(match.result()),
    }
