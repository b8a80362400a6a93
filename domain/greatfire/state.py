"""The state of a Great Fire match: plain lists indexed by district, seat and colour, plus the shared predicates."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from firebreak.domain.greatfire.components import Components
from firebreak.domain.greatfire.geometry import Geometry
from firebreak.domain.rng import Rng

TOTAL_CONES = 65
ORIGIN_START_CONES = 25
HOUSES_PER_COLOUR = 20
ACTION_POINTS = 4
HAND_SIZE = 5
HERO_THRESHOLD = 3
HERO_VP = 2
INTENSIFY_CONES = 3


class Phase(StrEnum):
    """What kind of decision is pending."""

    REDEAL = "redeal"
    PLACE_BANDS = "placeBands"
    PLACE_PAWNS = "placePawns"
    FIRE = "fire"
    DISCARD = "discard"
    PLACE_CONES = "placeCones"
    ACTIONS = "actions"
    NON_PLAYER = "nonPlayer"        # 2 players: an automated step of the non-player turn is due (R20)
    NON_PLAYER_CHOICE = "nonPlayerChoice"  # 2 players: the conducting seat breaks a true tie (R21)
    OVER = "over"


# Attributes saved by to_dict, in order; everything else is derived or shared (board, components).
_FIELDS = (
    "seats", "options", "seed", "rng", "version", "phase", "turn", "start", "queue",
    "houses", "cones", "bands", "demolished", "board_tokens", "supply",
    "deck", "box", "discard", "hands",
    "colours", "pawn_colours", "pawns", "objectives", "tokens", "put_out", "hero",
    "card", "source", "moves_left", "double_played", "ap", "to_place", "place_reason", "place_returned", "turns_left",
    "npc_stage", "npc_card", "priority_deck", "priority_discard", "npc_priority", "movement_deck",
    "movement_discard", "npc_objective", "npc_target", "npc_bands", "npc_choice", "npc_intensify",
)
# The same fields by how copy_into copies them; it rebuilds rng, options, npc_choice and npc_bands itself
# (tests/greatfire/test_state.py checks that these cover _FIELDS).
_SHARED = (  # immutable values
    "seats", "seed", "version", "phase", "turn", "start", "supply", "hero", "card", "source", "moves_left",
    "double_played", "ap", "to_place", "place_reason", "place_returned", "turns_left", "npc_stage", "npc_card",
    "npc_priority", "npc_objective", "npc_target", "npc_intensify",
)
_FLAT_LISTS = (
    "queue", "cones", "bands", "demolished", "board_tokens", "deck", "box", "discard", "put_out",
    "priority_deck", "priority_discard", "movement_deck", "movement_discard",
)
_NESTED_LISTS = ("houses", "hands", "colours", "pawn_colours", "pawns", "objectives", "tokens")
# copy_into copies the list of rows of houses but shares the rows: the rules replace a dealt row, never change it
# (tests/greatfire/test_rating_memo.py holds every rule to it), and a clone is made per tried move by the bots
_ROWS_SHARED = ("houses",)
_ROWS_COPIED = tuple(name for name in _NESTED_LISTS if name not in _ROWS_SHARED)
_FLAT, _NESTED = "flat", "nested"
# how to_dict and load copy each field (None: _special); phase and rng are converted, the rest kept as they are
_KINDS: dict[str, str | None] = {**dict.fromkeys(_SHARED, ""), **dict.fromkeys(_FLAT_LISTS, _FLAT),
                                 **dict.fromkeys(_NESTED_LISTS, _NESTED), "phase": None}


def _copied(name: str, value: Any, out: bool) -> Any:
    """A field's value copied by its kind, in its saved form (out) or the state's."""
    kind = _KINDS.get(name)
    if kind is _FLAT:
        return value[:]
    if kind is _NESTED:
        return [row[:] for row in value]
    if kind is None:
        return _special(name, value, out)
    return value


def _special(name: str, value: Any, out: bool) -> Any:
    """The saved form (out) or the state's form of a field copied its own way."""
    if name == "rng":
        return value.state if out else Rng(value)
    if name == "phase":
        return value.value if out else Phase(value)
    if name == "npc_bands":
        return None if value is None else [row[:] for row in value]
    return None if value is None else dict(value)  # options, npc_choice


class BurningGroups(NamedTuple):
    """The connected groups of burning districts (R2), as fire.groups finds them."""

    label: tuple[int, ...]          # [district] -> its group, -1 when not burning
    live: frozenset[int]            # groups holding a district with >= 2 cones: a cone may leave them (R1)
    live_members: tuple[int, ...]   # the districts of the live groups, by index


class State:
    """Every fact of a match; the rules modules read and change it, the match class guards it."""

    geo: Geometry
    comps: Components
    seats: int
    options: dict[str, Any]
    seed: int
    rng: Rng
    version: int
    phase: Phase
    turn: int                      # the seat whose decision is pending (or whose turn it is)
    start: int                     # start player
    queue: list[int]               # setup: seats still to decide, in order
    houses: list[list[int]]        # [district][colour] -> houses standing; once dealt, a row is replaced, never changed
    cones: list[int]               # [district] -> fire cones
    bands: list[int]               # [district] -> trained bands (pinned = min(cones, bands))
    demolished: list[bool]
    board_tokens: list[str | None]  # face-down token lying on a district
    supply: int
    deck: list[str]                # bottom first; fire cards "N"/"E"/"S"/"W", stack cards "#A".."#F"
    box: list[str]                 # fire cards left out of this game
    discard: list[str]
    hands: list[list[str]]
    colours: list[list[int]]       # [seat] -> colour indices owned (secret under Hidden Colours)
    pawn_colours: list[list[int]]  # [seat] -> colour of each pawn
    pawns: list[list[int]]         # [seat] -> district of each pawn (-1 before placement)
    objectives: list[list[str]]    # [seat] -> objective district ids
    tokens: list[list[str]]        # [seat] -> token kinds held
    put_out: list[int]
    hero: int | None
    card: str | None               # fire phase: the card played
    source: int | None             # fire phase: the chosen source district
    moves_left: int
    double_played: bool
    ap: int
    to_place: int
    place_reason: str
    place_returned: bool           # R10/P10: this placement already had its round of returned cones
    turns_left: int | None         # after the last draw: turns still to play after the current one
    # 2-player non-player turn (R20-R22); empty in the base game
    npc_stage: str | None          # "fire" | "bands" | "end"
    npc_card: str | None           # the fire card flipped for this non-player turn
    priority_deck: list[int]       # colour priority cards (indices into components), top last
    priority_discard: list[int]
    npc_priority: int | None       # the colour priority card face up
    movement_deck: list[str]       # trained band movement cards (objective ids), top last
    movement_discard: list[str]
    npc_objective: str | None      # the trained band movement card face up
    npc_target: int | None         # the district the fire expands into, once decided
    npc_bands: list[list[int]] | None  # bands still to move: [district, steps]; None until selected
    npc_choice: dict[str, Any] | None  # the tie the conducting seat must break: {"kind", "options"}
    npc_intensify: bool            # the flip uncovered a stack card: intensify at the end (R20)
    # derived, not saved: the cones and bands fire.groups last labelled, and its answer
    groups_cache: tuple[tuple[int, ...], tuple[int, ...], BurningGroups] | None
    # derived, not saved: what the districts showed at the last json_view and its texts (views.Shown; checked by
    # value before use, so a clone shares it)
    shown: Any

    def __init__(self, geo: Geometry, comps: Components) -> None:
        self.geo = geo
        self.comps = comps
        self.groups_cache = None
        self.shown = None

    # ----- predicates the rules share (R1-R6 words) -------------------------------------------
    def burning(self, d: int) -> bool:
        """On fire and not contained: more cones than trained bands."""
        return self.cones[d] > self.bands[d]

    def contained(self, d: int) -> bool:
        """On fire and trained bands >= cones."""
        return 0 < self.cones[d] <= self.bands[d]

    def seat_houses(self, seat: int) -> int:
        """Houses of the seat's colour(s) still on the map."""
        return sum([row[c] for row in self.houses for c in self.colours[seat]])

    # ----- serialisation ---------------------------------------------------------------------
    def to_dict(self, copied: bool = True) -> dict[str, Any]:
        """Return every fact as JSON-able data (each list copied once, by its field's kind; copied=False: the
        state's own lists, to be encoded at once)."""
        mine = vars(self)
        if not copied:  # the lists as they are; the fields copied their own way (rng, phase...) as usual
            return {name: mine[name] if _KINDS.get(name) is not None else _special(name, mine[name], out=True)
                    for name in _FIELDS}
        return {name: _copied(name, mine[name], out=True) for name in _FIELDS}

    def load(self, data: dict[str, Any]) -> None:
        """Set every fact from to_dict() output (each list copied once, by its field's kind)."""
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise ValueError(f"match data lacks {', '.join(missing)}")
        mine = vars(self)
        for name in _FIELDS:
            mine[name] = _copied(name, data[name], out=False)

    def copy_into(self, other: State) -> None:
        """Copy every fact into another state (used by clone), as load(to_dict()) would but copying once; the rows
        of houses, which the rules only replace, are shared."""
        mine, theirs = vars(self), vars(other)
        for name in _SHARED:
            theirs[name] = mine[name]
        for name in _FLAT_LISTS + _ROWS_SHARED:
            theirs[name] = mine[name][:]
        for name in _ROWS_COPIED:
            theirs[name] = [row[:] for row in mine[name]]
        other.rng = Rng(self.rng.state)
        other.options = dict(self.options)
        other.npc_choice = None if self.npc_choice is None else dict(self.npc_choice)
        other.npc_bands = None if self.npc_bands is None else [row[:] for row in self.npc_bands]
        other.groups_cache = self.groups_cache
        other.shown = self.shown
