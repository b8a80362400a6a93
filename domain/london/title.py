"""The London (2nd edition) title: metadata, typed options, score columns, bots, and the match factory."""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Any

from firebreak.domain.contract import Action, BotLevel, OptionKind, OptionSpec, ScoreColumn
from firebreak.domain.errors import BadOptions
from firebreak.domain.london.actions import action_schema
from firebreak.domain.london.bots import greedy, search
from firebreak.domain.london.data import shipped_catalogue
from firebreak.domain.london.encoding import observation_size, shipped_index
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.rules.setup import deal
from firebreak.domain.london.schemas import event_schema, view_schema
from firebreak.domain.london.state import BOARD_COLUMNS
from firebreak.domain.london.words import WORDS
from firebreak.domain.options import check_seats, checked
from firebreak.domain.schemas import result_schema

OPTIONS = (
    OptionSpec("startSeat", OptionKind.INT, None, "Who plays first: 0 is the first seat, 1 the second, and so on; "
               "left empty, drawn at random.",
               nullable=True, minimum=0, maximum=None),
)
COLUMNS = (
    ScoreColumn("land", "Land", "Prestige gained buying boroughs."),
    ScoreColumn("play", "Play", "Prestige gained during play from cards and boroughs."),
    ScoreColumn("city", "City", "Final scoring step 2: the end-game prestige of every card in the city."),
    ScoreColumn("loans", "Loans", "Steps 3-4: -7 for each loan that could not be repaid with £15."),
    ScoreColumn("money", "Money", "Step 5: +1 for each £3 left."),
    ScoreColumn("poverty", "Poverty", "Steps 1, 6-7: the poverty table for what is left after the comparison."),
)


def camel(data: Any) -> Any:
    """A dataclass's dict with the API's camelCase keys (poverty_down -> povertyDown), as the data files spell them."""
    if isinstance(data, dict):
        return {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), key): camel(value) for key, value in data.items()}
    if isinstance(data, list):
        return [camel(value) for value in data]
    return data


@functools.cache
def catalogue_data() -> dict[str, Any]:
    """The static card catalogue a client draws cards from (every card and borough by id), keys in camelCase."""
    cat = shipped_catalogue()
    return {
        "cards": {c.id: camel(dataclasses.asdict(c)) for c in cat.cards.values()},
        "boroughs": {b.id: camel(dataclasses.asdict(b)) for b in cat.boroughs.values()},
        "boardColumns": {str(k): v for k, v in BOARD_COLUMNS.items()},
    }


class LondonTitle:
    """London (2nd edition) by Martin Wallace, 2-4 players."""

    id = "london"
    name = "London (2nd edition)"
    min_seats = 2
    max_seats = 4
    takeover_level = "greedy"
    words = WORDS  # its phrases for actions and events, and its catalogues (words.py, locale/)

    def option_specs(self) -> list[OptionSpec]:
        """Return the options this title accepts."""
        return list(OPTIONS)

    def check_options(self, seats: object, options: dict[str, Any] | None) -> dict[str, Any]:
        """Return the options with defaults filled in; raise BadOptions for anything unsupported."""
        return checked(OPTIONS, check_seats(self.name, self.min_seats, self.max_seats, seats), options)

    def score_columns(self) -> list[ScoreColumn]:
        """Return the parts of a final score, in the order of the rulebook's final scoring."""
        return list(COLUMNS)

    def bots(self) -> list[BotLevel]:
        """Return London's own bot levels: greedy, and search (the generic information-set search)."""
        return [greedy.LEVEL, search.LEVEL]

    def schemas(self) -> dict[str, Any]:
        """Return the JSON Schemas of the view, an action, an event and the result (schemas.py)."""
        return {"view": view_schema(), "action": action_schema(), "event": event_schema(),
                "result": result_schema(self.id, list(COLUMNS))}

    def new_match(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> LondonMatch:
        """Set up a new match from a seed (all setup randomness comes from it)."""
        opts = self.check_options(seats, options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOptions("seed must be an integer")
        match = LondonMatch(shipped_catalogue())
        deal(match, seats, seed, opts)
        return match

    def action_space(self) -> list[Action]:
        """Return every action the title can list, in the order documented in encoding.py (id = index)."""
        return [dict(a) for a in shipped_index().space]

    def observation_size(self, seats: int) -> int:
        """Return the length of a seat's observation in a match of this many seats (encoding.py)."""
        return observation_size(seats)

    def board(self) -> dict[str, Any]:
        """Return the card catalogue (cards and boroughs by id) and the board's columns by player count."""
        return catalogue_data()

    def match_from_dict(self, data: dict[str, Any]) -> LondonMatch:
        """Rebuild a match from to_dict() output."""
        match = LondonMatch(shipped_catalogue())
        match.load(data)
        return match


LONDON = LondonTitle()
