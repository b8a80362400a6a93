"""The Great Fire title: metadata, options, and the match factory."""

from __future__ import annotations

import functools
import json
from typing import Any

from domain.errors import BadOptions
from domain.greatfire.board import SHIPPED_BOARD, load_board
from domain.greatfire.components import shipped_components
from domain.greatfire.geometry import geometry
from domain.greatfire.match import GreatFireMatch
from domain.greatfire.setup import deal_setup
from domain.rng import Rng

OPTIONS: dict[str, dict[str, Any]] = {
    "hiddenColours": {"type": "bool", "default": False,
                      "description": "Optional rule A: colours are dealt face down and pawns at random."},
    "moreDestruction": {"type": "bool", "default": False,
                        "description": "Optional rule B: two more rounds after the last intensify."},
    "startSeat": {"type": "int|null", "default": None,
                  "description": "The start player; null draws one from the seed."},
    "npcTies": {"type": "conductor|random", "default": "conductor",
                "description": "2 players: who breaks a true tie in a non-player turn (R21)."},
}


@functools.cache
def shipped_board_data() -> dict[str, Any]:
    """The shipped board.json as data, once the loader has validated it."""
    load_board()
    data: dict[str, Any] = json.loads(SHIPPED_BOARD.read_text(encoding="utf-8"))
    return data


class GreatFireTitle:
    """The Great Fire: London 1666 (3-6 players; 2 with the 2-player expansion)."""

    id = "greatfire"
    name = "The Great Fire: London 1666"
    min_seats = 2
    max_seats = 6

    def options(self) -> dict[str, Any]:
        """Return the accepted options with their defaults and descriptions."""
        return {name: dict(spec) for name, spec in OPTIONS.items()}

    def check_options(self, seats: object, options: dict[str, Any] | None) -> dict[str, Any]:
        """Return the options with defaults filled in; raise BadOptions for anything unsupported."""
        if not isinstance(seats, int) or isinstance(seats, bool) or not self.min_seats <= seats <= self.max_seats:
            raise BadOptions(f"{self.name} takes {self.min_seats}-{self.max_seats} seats, not {seats!r}")
        given = dict(options or {})
        unknown = sorted(set(given) - set(OPTIONS))
        if unknown:
            raise BadOptions(f"unknown option(s): {', '.join(unknown)}")
        out = {name: spec["default"] for name, spec in OPTIONS.items()}
        for name in ("hiddenColours", "moreDestruction"):
            if name in given:
                if not isinstance(given[name], bool):
                    raise BadOptions(f"option {name} must be true or false")
                out[name] = given[name]
        if given.get("npcTies", "conductor") not in ("conductor", "random"):
            raise BadOptions('option npcTies must be "conductor" or "random"')
        out["npcTies"] = given.get("npcTies", "conductor")
        if seats == 2 and out["moreDestruction"]:
            raise BadOptions("moreDestruction is not part of the 2-player game (its end is fixed by R22)")
        start = given.get("startSeat")
        if start is not None and (not isinstance(start, int) or isinstance(start, bool)
                                  or not 0 <= start < seats):
            raise BadOptions(f"option startSeat must be null or a seat 0-{seats - 1}")
        out["startSeat"] = start
        return out

    def new_match(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> GreatFireMatch:
        """Set up a new match from a seed (R14: all setup randomness comes from it)."""
        opts = self.check_options(seats, options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOptions("seed must be an integer")
        board = load_board()
        match = GreatFireMatch(geometry(board), shipped_components())
        match.rng = Rng.from_seed(seed)
        deal_setup(match, seats, seed, opts, opts["startSeat"])
        return match

    def board(self) -> dict[str, Any]:
        """Return the shipped board data (districts with positions, links with directions), as validated."""
        return shipped_board_data()

    def match_from_dict(self, data: dict[str, Any]) -> GreatFireMatch:
        """Rebuild a match from to_dict() output."""
        match = GreatFireMatch(geometry(load_board()), shipped_components())
        match.load(data)
        return match


GREAT_FIRE = GreatFireTitle()
