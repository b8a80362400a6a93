"""The Great Fire title: metadata, options, and the match factory."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from firebreak.domain.contract import Action, BotLevel, Budget, Match, OptionKind, OptionSpec, ScoreColumn
from firebreak.domain.errors import BadOptions
from firebreak.domain.greatfire.actions import action_schema
from firebreak.domain.greatfire.board import SHIPPED_BOARD, load_board
from firebreak.domain.greatfire.bots.greedy import greedy
from firebreak.domain.greatfire.bots.search import search
from firebreak.domain.greatfire.components import shipped_components
from firebreak.domain.greatfire.encoding import observation_size, shipped_index
from firebreak.domain.greatfire.geometry import geometry
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules.setup import deal_setup
from firebreak.domain.greatfire.schemas import event_schema, view_schema
from firebreak.domain.greatfire.words import WORDS
from firebreak.domain.options import check_seats, checked
from firebreak.domain.rng import Rng
from firebreak.domain.schemas import result_schema

OPTION_SPECS = [
    OptionSpec("hiddenColours", OptionKind.BOOL, False,
               "Optional rule A: colours are dealt face down and pawns at random."),
    OptionSpec("moreDestruction", OptionKind.BOOL, False,
               "Optional rule B: two more rounds after the last intensify (3-6 players).", seats=(3, 4, 5, 6)),
    OptionSpec("startSeat", OptionKind.INT, None, "Who plays first: 0 is the first seat, 1 the second, and so on; "
               "left empty, drawn at random.",
               nullable=True, minimum=0),
    OptionSpec("npcTies", OptionKind.CHOICE, "conductor",
               "2 players: who breaks a true tie in a non-player turn (R21): the conductor (the player whose "
               "turn it is not) or the seed.", choices=("conductor", "random"), seats=(2,)),
]
SCORE_COLUMNS = [
    ScoreColumn("houses", "Houses", "2 VP for each of your houses left on the board"),
    ScoreColumn("putOut", "Put out", "1 VP for each fire cone you put out"),
    ScoreColumn("objectives", "Objectives", "VP of your objective districts that survived (R17)"),
    ScoreColumn("tokens", "Tokens", "1 VP for each victory-point token"),
    ScoreColumn("hero", "Hero", "the Hero of London's bonus"),
]


def _greedy(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    return greedy(match, seat, rng)


BOTS = [
    BotLevel("greedy", "Rates each legal action's outcome from its own view, one step ahead (greedy.py).", _greedy),
    BotLevel("search", "Information-set Monte Carlo search from its own view within the service's budget "
             "(search.py).", search),
]


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

    takeover_level = "greedy"
    words = WORDS  # its phrases for actions and events, and its catalogues (words.py, locale/)

    def option_specs(self) -> list[OptionSpec]:
        """Return the accepted options, in the order a form shows them."""
        return list(OPTION_SPECS)

    def score_columns(self) -> list[ScoreColumn]:
        """Return the parts of a final score (R17)."""
        return list(SCORE_COLUMNS)

    def bots(self) -> list[BotLevel]:
        """Return the title's own levels: greedy and search."""
        return list(BOTS)

    def schemas(self) -> dict[str, Any]:
        """Return the JSON Schemas of the view, an action, an event and the result (schemas.py)."""
        return {"view": view_schema(), "action": action_schema(), "event": event_schema(),
                "result": result_schema(self.id, SCORE_COLUMNS)}

    def check_options(self, seats: object, options: dict[str, Any] | None) -> dict[str, Any]:
        """Return the options with defaults filled in; raise BadOptions for anything unsupported."""
        count = check_seats(self.name, self.min_seats, self.max_seats, seats)
        return checked(OPTION_SPECS, count, options)

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

    def action_space(self) -> list[Action]:
        """Return every action the title can list, in the order documented in encoding.py (id = index)."""
        return [dict(a) for a in shipped_index().space]

    def observation_size(self, seats: int) -> int:
        """Return the length of a seat's observation in a match of this many seats (encoding.py)."""
        return observation_size(seats)

    def board(self) -> dict[str, Any]:
        """Return the shipped board data (districts with positions, links with directions), as validated."""
        return shipped_board_data()

    def match_from_dict(self, data: dict[str, Any]) -> GreatFireMatch:
        """Rebuild a match from to_dict() output."""
        match = GreatFireMatch(geometry(load_board()), shipped_components())
        match.load(data)
        return match


GREAT_FIRE = GreatFireTitle()
