"""The state of a London match: plain lists indexed by seat, card ids as strings, and the shared predicates."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from firebreak.domain.london.data import Borough, Card, Catalogue, Gain
from firebreak.domain.rng import Rng

START_MONEY = 5
START_HAND = 6
HAND_LIMIT = 9
LOAN = 10
LOAN_REPAY = 15
LOAN_TOKENS = 12
UNPAID_LOAN_PRESTIGE = 7
DRAW_THREE = 3
BOROUGH_DISPLAY = 3
BOARD_COLUMNS = {2: 3, 3: 4, 4: 5}  # L2: the board has 5 columns; 2 players use 3, 3 players 4


class Phase(StrEnum):
    """What kind of decision is pending."""

    START = "start"                  # repay loans, then draw the turn's first card
    ACTION = "action"                # choose one of the four actions
    DRAW = "draw"                    # draws owed by an effect or by drawThree
    DEVELOP = "develop"              # play a card (or stop)
    DISCARD_FOR = "discardFor"       # the card of the same colour discarded to play the chosen one
    PLACE = "place"                  # a new stack or on top of an older one
    PAY = "pay"                      # pay a cost (or take a loan, or cancel)
    RUN = "run"                      # activate cards (or stop)
    ACTIVATION_DISCARD = "activationDiscard"  # the card a card's activation costs
    FLIP = "flip"                    # which card flips (the Hospital's ongoing effect)
    HAND_LIMIT = "handLimit"         # discard down to the hand limit
    OVER = "over"


# Attributes saved by to_dict, in order; the catalogue is shared.
_FIELDS = (
    "seats", "options", "seed", "rng", "version", "phase", "turn", "start",
    "deck", "board_top", "board_bottom", "discard", "borough_display", "borough_deck",
    "hands", "known", "stacks", "face_down", "boroughs", "money", "loans", "poverty",
    "prestige_land", "prestige_play",
    "activated", "played", "borough_run", "played_any", "draws_left", "resume", "pending", "turns_left",
)


class State:
    """Every fact of a match; the rules modules read and change it, the match class guards it."""

    cat: Catalogue
    seats: int
    options: dict[str, Any]
    seed: int
    rng: Rng
    version: int
    phase: Phase
    turn: int
    start: int
    deck: list[str]                  # city card deck, top last (C at the bottom, then B, then A)
    board_top: list[str | None]      # the development board's top row
    board_bottom: list[str | None]   # its bottom row
    discard: list[str]               # out of the game: the board's bottom row when it overflowed, action cards
    borough_display: list[str]       # the face-up boroughs to buy
    borough_deck: list[str]          # top last
    hands: list[list[str]]
    known: list[list[str]]           # [seat] -> cards in its hand that everyone saw it take from the board
    stacks: list[list[list[str]]]    # [seat][stack] -> cards bottom first; the last is the top
    face_down: list[list[str]]       # [seat] -> its city cards turned face down
    boroughs: list[list[str]]        # [seat] -> boroughs bought, the last is the top
    money: list[int]
    loans: list[int]
    poverty: list[int]
    prestige_land: list[int]         # prestige gained buying boroughs
    prestige_play: list[int]         # prestige gained during play from cards and borough runs
    activated: list[str]             # this turn: cards activated ("borough" once the top borough ran)
    played: list[int]                # this turn: stacks that got a card (not to be covered again this turn)
    borough_run: bool                # this run: the top borough's run effect is applied
    played_any: bool                 # this develop action: a card was played
    draws_left: int
    resume: str                      # the phase to go on with once the draws are done ("end": end the turn)
    pending: dict[str, Any] | None   # the staged choice in progress: {"for": play|action|land|activate, ...}
    turns_left: int | None           # once the deck ran out: last turns still to play

    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat

    # ----- predicates the rules share ---------------------------------------------------------
    def card(self, card_id: str) -> Card:
        """The card with this id."""
        return self.cat.cards[card_id]

    def borough(self, borough_id: str) -> Borough:
        """The borough with this id."""
        return self.cat.boroughs[borough_id]

    def face_up_tops(self, seat: int) -> list[str]:
        """The seat's cards lying face up on top of a stack (the ones with ongoing effects, the ones to run)."""
        down = self.face_down[seat]
        return [stack[-1] for stack in self.stacks[seat] if stack[-1] not in down]

    def top_borough(self, seat: int) -> Borough | None:
        """The seat's top borough (the only one whose effects count), if any."""
        return self.borough(self.boroughs[seat][-1]) if self.boroughs[seat] else None

    def ongoing(self, seat: int, kind: str) -> int:
        """The sum of the amounts of the seat's active ongoing effects of a kind (count for kinds without one)."""
        total = 0
        for card_id in self.face_up_tops(seat):
            effect = self.card(card_id).ongoing
            if effect is not None and effect.kind == kind:
                total += effect.amount or 1
        top = self.top_borough(seat)
        if top is not None and top.ongoing is not None and top.ongoing.kind == kind:
            total += top.ongoing.amount or 1
        return total

    def count(self, seat: int, per: str | None) -> int:
        """How many times a gain with this `per` applies for the seat (1 without one)."""
        if per is None:
            return 1
        owned = [self.borough(b) for b in self.boroughs[seat]]
        if per == "riverBorough":
            return sum(1 for b in owned if b.river)
        if per == "northBorough":
            return sum(1 for b in owned if b.side == "N")
        if per == "southBorough":
            return sum(1 for b in owned if b.side == "S")
        if per == "borough":
            return len(owned)
        if per == "stack":
            return len(self.stacks[seat])
        return sum(1 for c in self.face_up_tops(seat) if self.card(c).colour == per)

    def scaled(self, seat: int, gain: Gain) -> Gain:
        """The gain with its amounts multiplied by its `per` count."""
        n = self.count(seat, gain.per)
        return Gain(gain.money * n, gain.prestige * n, gain.poverty_down * n, gain.poverty_up * n, gain.draw * n)

    def loan_tokens(self) -> int:
        """Loan tokens left in the supply (L5: the box's 12 are the limit)."""
        return LOAN_TOKENS - sum(self.loans)

    def hand_limit(self, seat: int) -> int:
        """The seat's hand limit: 9 plus ongoing effects."""
        return HAND_LIMIT + self.ongoing(seat, "handLimit")

    def board_cards(self) -> list[str]:
        """The cards on the development board, top row first."""
        return [c for c in self.board_top + self.board_bottom if c is not None]

    # ----- serialisation ---------------------------------------------------------------------
    def to_dict(self, copied: bool = True) -> dict[str, Any]:
        """Return every fact as JSON-able data (copied=False: the state's own containers, to be encoded at once)."""
        out: dict[str, Any] = {}
        for name in _FIELDS:
            value = getattr(self, name)
            if name == "rng":
                value = value.state
            elif name == "phase":
                value = value.value
            elif copied:
                value = _copy(value)
            out[name] = value
        return out

    def load(self, data: dict[str, Any]) -> None:
        """Set every fact from to_dict() output."""
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise ValueError(f"match data lacks {', '.join(missing)}")
        for name in _FIELDS:
            value = data[name]
            if name == "rng":
                value = Rng(value)
            elif name == "phase":
                value = Phase(value)
            else:
                value = _copy(value)
            setattr(self, name, value)

    def copy_into(self, other: State) -> None:
        """Copy every fact into another state (used by clone, the searches' hot path: each field by its shape)."""
        for name, copy in _COPIERS:
            setattr(other, name, copy(getattr(self, name)))


def _copy(value: Any) -> Any:
    """A copy of plain JSON-like data (lists and dicts nested a few levels)."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


_FLAT = {"deck", "board_top", "board_bottom", "discard", "borough_display", "borough_deck", "money", "loans", "poverty",
         "prestige_land", "prestige_play", "activated", "played"}  # lists of strings, numbers or None
_ROWS = {"hands", "known", "face_down", "boroughs"}  # [seat] -> a list of strings
_SCALARS = {"seats", "seed", "version", "phase", "turn", "start", "borough_run", "played_any", "draws_left", "resume",
            "turns_left"}  # immutable values


def _copier(name: str) -> Callable[[Any], Any]:
    """How copy_into copies a field (options and pending, dicts of plain data, the generic way)."""
    if name in _FLAT:
        return list.copy
    if name in _ROWS:
        return lambda rows: [row[:] for row in rows]
    if name == "stacks":
        return lambda seats: [[stack[:] for stack in stacks] for stacks in seats]
    if name == "rng":
        return lambda rng: Rng(rng.state)
    if name in _SCALARS:
        return lambda value: value
    return _copy


_COPIERS = tuple((name, _copier(name)) for name in _FIELDS)
