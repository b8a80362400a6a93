"""London's integer action space and per-seat observation (the encoded contract, for learning environments).

The action space is the action table's (actions.py), in the order of docs/schemas/london/action.schema.json,
built from the catalogue (cards and boroughs in data order; ids are indices):
  repayLoan, takeLoan, drawDeck; drawBoard one per card; skipDraw, develop; buyLand one per borough; run,
  drawThree; play one per card; discard one per card; newStack; placeOn one per stack index 0..STACK_CAP-1;
  pay, cancel, endDevelop; activate one per card; runBorough; flip one per card; endRun.
STACK_CAP (Catalogue.stack_cap) is the number of buildable (city) cards of the box: every stack holds at least
one of them, so a seat never has more stacks than that. With the shipped data (101 cards, 86 buildable, 20
boroughs) that is 624 actions.

The observation is a flat list of whole numbers 0-255 (larger ones are clipped, negative ones read 0) from the
seat's point of view: seats are numbered relative to the observer (0 is the observer, 1 the seat on its left...).
It shows only what the seat's view shows: others' hands (but their known cards), covered and face-down cards
and what they are staging stay out of it. Layout (the pieces of LAYOUT, in order; N cards, B boroughs, S seats,
K = STACK_CAP):
  public step one-hot (7); turn (zeros once over), start seat as relative-seat one-hots (2 x S)
  turns left (+1, 0: not in the last turns), draws left, deck size, deck size per letter A/B/C (3),
    borough deck size, loan tokens left
  board per card (N): 0 off the board, 1 + column in the top row, 1 + columns + column in the bottom row
  discard pile per card (N); borough display multi-hot (B)
  activated this turn per card (N), the top borough activated (1); stacks played this turn multi-hot (K)
  per relative seat (S x (10 + 3N + 2B)): money, loans, poverty, prestige, hand size, stacks, face-down tops,
    covered cards, boroughs, known hand size; known hand per card (N); per card of its city it shows, the stack
    index + 1 (N) and the card's place (N: 1 top face up, 2 top face down, 3 covered face up, 4 covered face
    down); boroughs owned multi-hot (B); top borough one-hot (B)
  the observer's secrets: hand per card (N); while it is to act: phase one-hot (12), staged choice "for"
    one-hot (4), staged card one-hot (N), staged discard one-hot (N), discarded-to-activate one-hot (N), staged
    borough one-hot (B), staged stack (+1, 0: none), amount, draws owed by a flip
"""

from __future__ import annotations

import functools

from firebreak.domain.encoding import ActionIndex, ObservationLayout, Piece
from firebreak.domain.london.actions import ACTIONS
from firebreak.domain.london.data import DECKS, Catalogue, shipped_catalogue
from firebreak.domain.london.state import Phase, State
from firebreak.domain.london.views import PUBLIC_STEP, public_step

STEPS = tuple(dict.fromkeys(PUBLIC_STEP.values()))
PHASES = tuple(Phase)
PENDING_FOR = ("play", "land", "activate", "flip")


@functools.cache
def shipped_index() -> ActionIndex:
    """The action index of the shipped catalogue (built once)."""
    return ActionIndex(ACTIONS.space(shipped_catalogue()))


def _one_hot(n: int, at: int | None) -> list[int]:
    out = [0] * n
    if at is not None:
        out[at] = 1
    return out


def _per(keys: dict[str, int], items: list[str]) -> list[int]:
    """Counts of the items per key position."""
    out = [0] * len(keys)
    for item in items:
        out[keys[item]] += 1
    return out


def _step(s: State, seat: int) -> list[int]:
    return _one_hot(len(STEPS), STEPS.index(public_step(s)))


def _turn(s: State, seat: int) -> list[int]:
    return _one_hot(s.seats, None if s.phase is Phase.OVER else (s.turn - seat) % s.seats)


def _start(s: State, seat: int) -> list[int]:
    return _one_hot(s.seats, (s.start - seat) % s.seats)


def _counts(s: State, seat: int) -> list[int]:
    letters = [s.card(c).deck for c in s.deck]
    return [0 if s.turns_left is None else s.turns_left + 1, s.draws_left, len(s.deck),
            *(letters.count(letter) for letter in DECKS), len(s.borough_deck), s.loan_tokens()]


def _board(s: State, seat: int) -> list[int]:
    cards = s.cat.card_index
    board = [0] * len(cards)
    columns = len(s.board_top)
    for row, cells in enumerate((s.board_top, s.board_bottom)):
        for col, card in enumerate(cells):
            if card is not None:
                board[cards[card]] = 1 + row * columns + col
    return board


def _discard_pile(s: State, seat: int) -> list[int]:
    return _per(s.cat.card_index, s.discard)


def _borough_display(s: State, seat: int) -> list[int]:
    return _per(s.cat.borough_index, s.borough_display)


def _activated(s: State, seat: int) -> list[int]:
    tops = [] if s.phase is Phase.OVER else s.face_up_tops(s.turn)
    return _per(s.cat.card_index, [c for c in s.activated if c in tops])


def _borough_activated(s: State, seat: int) -> list[int]:
    return [int(s.phase is not Phase.OVER and "borough" in s.activated)]


def _played(s: State, seat: int) -> list[int]:
    played = [0] * s.cat.stack_cap
    for i in [] if s.phase is Phase.OVER else s.played:
        played[i] = 1
    return played


def _seats(s: State, seat: int) -> list[int]:
    out: list[int] = []
    for owner in [(seat + r) % s.seats for r in range(s.seats)]:
        out += _seat(s, owner, owner == seat)
    return out


def _seat(s: State, owner: int, open_all: bool) -> list[int]:
    """One seat's public facts (its whole city when the observer owns it)."""
    cards, boroughs = s.cat.card_index, s.cat.borough_index
    n = len(cards)
    stacks, down = s.stacks[owner], s.face_down[owner]
    down_tops = sum(1 for stack in stacks if stack[-1] in down)
    covered = sum(len(stack) - 1 for stack in stacks)
    out = [s.money[owner], s.loans[owner], s.poverty[owner], s.prestige_land[owner] + s.prestige_play[owner],
           len(s.hands[owner]), len(stacks), down_tops, covered, len(s.boroughs[owner]), len(s.known[owner])]
    out += _per(cards, s.known[owner])
    where, place = [0] * n, [0] * n
    for i, stack in enumerate(stacks):
        for j, card in enumerate(stack):
            top, up = j == len(stack) - 1, card not in down
            if open_all or (top and up):
                where[cards[card]] = i + 1
                place[cards[card]] = (1 if top else 3) + (0 if up else 1)
    out += where + place
    out += _per(boroughs, s.boroughs[owner])
    out += _one_hot(len(boroughs), boroughs[s.boroughs[owner][-1]] if s.boroughs[owner] else None)
    return out


def _hand(s: State, seat: int) -> list[int]:
    return _per(s.cat.card_index, s.hands[seat])


def _staged_size(cat: Catalogue) -> int:
    return len(PHASES) + len(PENDING_FOR) + 3 * len(cat.cards) + len(cat.boroughs) + 3


def _staged(s: State, seat: int) -> list[int]:
    """The observer's own pending decision (zeros unless it is to act)."""
    if s.phase is Phase.OVER or s.turn != seat:
        return [0] * _staged_size(s.cat)
    cards, boroughs = s.cat.card_index, s.cat.borough_index
    n, p = len(cards), s.pending or {}
    out = _one_hot(len(PHASES), PHASES.index(s.phase))
    out += _one_hot(len(PENDING_FOR), PENDING_FOR.index(p["for"]) if "for" in p else None)
    for key in ("card", "discard", "discarded"):
        out += _one_hot(n, cards[p[key]] if p.get(key) in cards else None)
    out += _one_hot(len(boroughs), boroughs[p["borough"]] if p.get("borough") in boroughs else None)
    stack = p.get("stack")
    out += [0 if stack is None else stack + 1, p.get("amount", 0), p.get("draws", 0)]
    return out


def layout(cat: Catalogue) -> ObservationLayout[State]:
    """The observation's pieces for matches of this catalogue (the module docstring describes each)."""
    n, b = len(cat.cards), len(cat.boroughs)
    return ObservationLayout([
        Piece("step", lambda seats: len(STEPS), _step),
        Piece("turn", lambda seats: seats, _turn),
        Piece("start", lambda seats: seats, _start),
        Piece("counts", lambda seats: 5 + len(DECKS), _counts),
        Piece("board", lambda seats: n, _board),
        Piece("discardPile", lambda seats: n, _discard_pile),
        Piece("boroughDisplay", lambda seats: b, _borough_display),
        Piece("activated", lambda seats: n, _activated),
        Piece("boroughActivated", lambda seats: 1, _borough_activated),
        Piece("played", lambda seats: cat.stack_cap, _played),
        Piece("seats", lambda seats: seats * (10 + 3 * n + 2 * b), _seats),
        Piece("hand", lambda seats: n, _hand),
        Piece("staged", lambda seats: _staged_size(cat), _staged),
    ])


@functools.cache
def shipped_layout() -> ObservationLayout[State]:
    """The observation layout of the shipped catalogue (built once)."""
    return layout(shipped_catalogue())


def observation_size(seats: int) -> int:
    """The length of an observation for a match of this many seats (shipped data)."""
    return shipped_layout().size(seats)


def observation(s: State, seat: int) -> list[int]:
    """The seat's observation (layout in the module docstring), computed from the state (the pieces read the
    state's own catalogue)."""
    return shipped_layout().observe(s, seat)
