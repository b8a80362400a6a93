"""Tic-tac-toe: a trivial reference title for the tests and the benches only (bench/peer_bgio compares the
service's overhead per move with boardgame.io's on it).

Two seats mark the cells of a 3x3 board in turn (cells 0-8, row by row, as boardgame.io's tutorial game numbers
them); the option firstSeat says which seat marks first. Three marks of one seat in a row, a column or a diagonal
win; a full board without one is a draw. Nothing is hidden and nothing is drawn at random: the seed is kept only
because every title takes one.

It provides the encoded contract too: action id k marks cell k; a seat's observation is the 9 cells (0 empty, 1
its own mark, 2 the other seat's) and 1 when it is the seat's turn to mark, else 0.

Registered only by the conformance suite and by FIREBREAK_TITLES=tests.titles.tictactoe:TITLE.
"""

from __future__ import annotations

import random
from typing import Any, Self

from firebreak.domain.base import BaseEncodedMatch
from firebreak.domain.contract import (
    Action,
    BotLevel,
    Budget,
    Event,
    Match,
    OptionKind,
    OptionSpec,
    Result,
    ScoreColumn,
    SeatScore,
)
from firebreak.domain.encoding import ActionIndex
from firebreak.domain.errors import BadOptions
from firebreak.domain.options import check_seats, checked
from firebreak.domain.schemas import (
    COUNT,
    SEAT,
    document,
    event_envelope,
    nullable,
    result_schema,
    service_events,
    strict,
    tagged,
)

CELLS = 9
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
OPTIONS = (OptionSpec("firstSeat", OptionKind.INT, 0, "The seat that marks first.", minimum=0),)
FIELDS = ("seats", "options", "seed", "version", "cells", "turn", "winner", "over")
SPACE = ActionIndex([{"type": "mark", "cell": k} for k in range(CELLS)])
CELL: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": CELLS - 1, "description": "A cell, 0-8 row by row."}


def winning_line(cells: list[int | None]) -> int | None:
    """The seat holding three cells in a line, else None."""
    for a, b, c in LINES:
        if cells[a] is not None and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


class TicTacToeMatch(BaseEncodedMatch):
    """A match of tic-tac-toe."""

    title_id = "tictactoe"
    no_system_step_message = "tic-tac-toe has no automated steps"

    def __init__(self) -> None:
        self.seats = 2
        self.options: dict[str, Any] = {}
        self.seed = 0
        self.version = 0
        self.cells: list[int | None] = [None] * CELLS  # the seat that marked each cell
        self.turn = 0                                 # the seat to mark next
        self.winner: int | None = None
        self.over = False

    def _to_act(self) -> list[int]:
        return [self.turn]

    def _legal_actions(self, seat: int) -> list[Action]:
        return [{"type": "mark", "cell": k} for k, owner in enumerate(self.cells) if owner is None]

    def _apply(self, seat: int, action: Action, events: list[Event]) -> None:
        """Mark a cell; a line of three or a full board ends the match."""
        cell = action["cell"]
        self.cells[cell] = seat
        events.append({"type": "marked", "seat": seat, "cell": cell})
        self.winner = winning_line(self.cells)
        self.over = self.winner is not None or None not in self.cells
        if self.over:
            events.append({"type": "gameOver", "winner": self.winner})
        self.turn = 1 - seat

    def _action_index(self) -> ActionIndex:
        return SPACE

    def _observation(self, seat: int) -> list[int]:
        """The cells as the seat sees them (0 empty, 1 its own, 2 the other's) and 1 if it marks next."""
        cells = [0 if owner is None else 1 if owner == seat else 2 for owner in self.cells]
        return [*cells, int(seat in self.to_act())]

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The whole board (nothing is hidden), whose mark it is and, once over, the result."""
        out: dict[str, Any] = {"title": self.title_id, "seats": self.seats, "version": self.version,
                               "options": dict(self.options), "cells": list(self.cells), "toAct": self.to_act(),
                               "winner": self.winner}
        if seat is not None:
            out["you"] = {"seat": seat}
        result = self.result()
        if result is not None:
            out["result"] = result.to_dict()
        return out

    def _is_over(self) -> bool:
        return self.over

    def _result(self) -> Result:
        """2 points for a win, 1 each for a draw."""
        points = [1, 1] if self.winner is None else [2 * (s == self.winner) for s in range(self.seats)]
        scores = tuple(SeatScore(s, points[s], {"points": points[s]}) for s in range(self.seats))
        if self.winner is None:
            return Result(scores, (0, 1), "the board is full")
        return Result(scores, (self.winner,), f"seat {self.winner} has three in a row")

    def _resample(self, seat: int, rng: random.Random) -> Self:
        """A copy: nothing is hidden, so there is nothing to redraw."""
        return self.clone()

    def to_dict(self, copied: bool = True) -> dict[str, Any]:
        """Return every fact as JSON-able data (copied or not: this small title always copies)."""
        data = {name: getattr(self, name) for name in FIELDS}
        data["options"] = dict(self.options)
        data["cells"] = list(self.cells)
        return data

    def load(self, data: dict[str, Any]) -> None:
        """Set every fact from to_dict() output."""
        for name in FIELDS:
            setattr(self, name, data[name])
        self.options = dict(data["options"])
        self.cells = list(data["cells"])

    def _clone(self) -> Self:
        other = type(self)()
        other.load(self.to_dict())
        return other


def greedy_choice(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    """Complete a line of the seat's own, else block one of the other's, else take the centre, else any cell."""
    cells = match.view(seat)["cells"]
    legal = match.legal_actions(seat)
    for owner in (seat, 1 - seat):
        for action in legal:
            after = list(cells)
            after[action["cell"]] = owner
            if winning_line(after) == owner:
                return action
    centre = [a for a in legal if a["cell"] == CELLS // 2]
    return centre[0] if centre else rng.choice(legal)


class TicTacToeTitle:
    """Tic-tac-toe (2 seats): the bench's trivial reference title."""

    id = "tictactoe"
    name = "Tic-tac-toe (reference title)"
    min_seats = 2
    max_seats = 2
    takeover_level = "greedy"

    def option_specs(self) -> list[OptionSpec]:
        """Return the one option: firstSeat."""
        return list(OPTIONS)

    def check_options(self, seats: object, options: dict[str, Any] | None) -> dict[str, Any]:
        """Return the options with defaults filled in; raise BadOptions for anything unsupported."""
        return checked(OPTIONS, check_seats(self.name, self.min_seats, self.max_seats, seats), options)

    def score_columns(self) -> list[ScoreColumn]:
        """Return the one part of a total: points (2 a win, 1 a draw)."""
        return [ScoreColumn("points", "Points", "2 for a win, 1 for a draw, 0 for a loss.")]

    def bots(self) -> list[BotLevel]:
        """Return the greedy level (the generic random one is added by domain.bots)."""
        return [BotLevel("greedy", "Completes its own line, else blocks the other's, else takes the centre.",
                         greedy_choice)]

    def schemas(self) -> dict[str, Any]:
        """Return the JSON Schemas of the view, a mark, an event and the result."""
        columns = self.score_columns()
        result = {k: v for k, v in result_schema(self.id, columns).items() if k not in ("$schema", "$id")}
        view = strict({
            "title": {"const": self.id}, "seats": COUNT, "version": COUNT,
            "options": strict({"firstSeat": SEAT}),
            "cells": {"type": "array", "items": nullable(SEAT), "minItems": CELLS, "maxItems": CELLS},
            "toAct": {"type": "array", "items": SEAT}, "winner": nullable(SEAT),
            "you": strict({"seat": SEAT}), "result": result,
        }, optional=("you", "result"))
        event = tagged({
            "marked": ("A seat marked a cell.", {"seat": SEAT, "cell": CELL}),
            "gameOver": ("A line of three (winner) or a full board (winner null) ended the match.",
                         {"winner": nullable(SEAT)}),
            **service_events(),
        }, common=event_envelope())
        action = tagged({"mark": ("Mark an empty cell.", {"cell": CELL})})
        return {"view": document(self.id, "view", "What a seat (or a spectator) sees.", view),
                "action": document(self.id, "action", "One seat's mark.", action),
                "event": document(self.id, "event", "One event of a step.", event),
                "result": result_schema(self.id, columns)}

    def new_match(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> TicTacToeMatch:
        """Set up an empty board with firstSeat to mark."""
        opts = self.check_options(seats, options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOptions("seed must be an integer")
        m = TicTacToeMatch()
        m.seats, m.options, m.seed, m.turn = seats, opts, seed, opts["firstSeat"]
        return m

    def board(self) -> dict[str, Any] | None:
        """Return None: the 3x3 grid needs no data."""
        return None

    def action_space(self) -> list[Action]:
        """Return a mark on each cell, cell 0 first: action id k marks cell k."""
        return [dict(action) for action in SPACE.space]

    def observation_size(self, seats: int) -> int:
        """Return 10: nine cells and whose turn it is."""
        return CELLS + 1

    def match_from_dict(self, data: dict[str, Any]) -> TicTacToeMatch:
        """Rebuild a match from to_dict() output."""
        m = TicTacToeMatch()
        m.load(data)
        return m


TITLE = TicTacToeTitle()
