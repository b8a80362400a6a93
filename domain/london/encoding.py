"""London's integer action space and per-seat observation (the encoded contract, for learning environments).

The action space lists, in the order of docs/schemas/london/action.schema.json, built from the catalogue (cards
and boroughs in data order; ids are indices):
  repayLoan, takeLoan, drawDeck; drawBoard one per card; skipDraw, develop; buyLand one per borough; run,
  drawThree; play one per card; discard one per card; newStack; placeOn one per stack index 0..STACK_CAP-1;
  pay, cancel, endDevelop; activate one per card; runBorough; flip one per card; endRun.
STACK_CAP is the number of buildable (city) cards of the box: every stack holds at least one of them, so a seat
never has more stacks than that. With the shipped data (101 cards, 86 buildable, 20 boroughs) that is 624 actions.

The observation is a flat list of whole numbers 0-255 (larger ones are clipped, negative ones read 0) from the
seat's point of view: seats are numbered relative to the observer (0 is the observer, 1 the seat on its left...).
It shows only what the seat's view shows: others' hands (but their known cards), covered and face-down cards
and what they are staging stay out of it. Layout (N cards, B boroughs, S seats, K = STACK_CAP):
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

from domain.contract import OBSERVATION_HIGH, Action
from domain.encoding import ActionIndex
from domain.london.data import DECKS, Catalogue, shipped_catalogue
from domain.london.state import Phase, State
from domain.london.views import PUBLIC_STEP, public_step

STEPS = tuple(dict.fromkeys(PUBLIC_STEP.values()))
PHASES = tuple(Phase)
PENDING_FOR = ("play", "land", "activate", "flip")


def stack_cap(cat: Catalogue) -> int:
    """The most stacks a seat can ever have: every stack holds at least one buildable card."""
    return sum(1 for card in cat.cards.values() if card.buildable)


def build_action_space(cat: Catalogue) -> list[Action]:
    """Every action London can list, in the documented order (see the module docstring)."""
    cards, boroughs = list(cat.cards), list(cat.boroughs)

    def per_card(kind: str) -> list[Action]:
        return [{"type": kind, "card": c} for c in cards]

    def bare(*kinds: str) -> list[Action]:
        return [{"type": kind} for kind in kinds]

    space = bare("repayLoan", "takeLoan", "drawDeck") + per_card("drawBoard") + bare("skipDraw", "develop")
    space += [{"type": "buyLand", "borough": b} for b in boroughs] + bare("run", "drawThree")
    space += per_card("play") + per_card("discard") + bare("newStack")
    space += [{"type": "placeOn", "stack": i} for i in range(stack_cap(cat))]
    space += bare("pay", "cancel", "endDevelop") + per_card("activate") + bare("runBorough")
    space += per_card("flip") + bare("endRun")
    return space


@functools.cache
def shipped_index() -> ActionIndex:
    """The action index of the shipped catalogue (built once)."""
    return ActionIndex(build_action_space(shipped_catalogue()))


def observation_size(seats: int, cat: Catalogue | None = None) -> int:
    """The length of an observation for a match of this many seats (shipped data unless given)."""
    cat = cat or shipped_catalogue()
    n, b, k = len(cat.cards), len(cat.boroughs), stack_cap(cat)
    size = len(STEPS) + 2 * seats + 5 + len(DECKS) + n + n + b + n + 1 + k
    size += seats * (10 + 3 * n + 2 * b)
    size += n + len(PHASES) + len(PENDING_FOR) + 3 * n + b + 3
    return size


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


def observation(s: State, seat: int) -> list[int]:
    """The seat's observation (layout in the module docstring), computed from the state."""
    cat, seats = s.cat, s.seats
    cards = {c: i for i, c in enumerate(cat.cards)}
    boroughs = {b: i for i, b in enumerate(cat.boroughs)}
    n, nb, cap = len(cards), len(boroughs), stack_cap(cat)
    over = s.phase is Phase.OVER
    mine = s.turn == seat and not over
    out: list[int] = _one_hot(len(STEPS), STEPS.index(public_step(s)))
    out += _one_hot(seats, None if over else (s.turn - seat) % seats) + _one_hot(seats, (s.start - seat) % seats)
    letters = [s.card(c).deck for c in s.deck]
    out += [0 if s.turns_left is None else s.turns_left + 1, s.draws_left, len(s.deck)]
    out += [letters.count(letter) for letter in DECKS]
    out += [len(s.borough_deck), s.loan_tokens()]
    board = [0] * n
    columns = len(s.board_top)
    for row, cells in enumerate((s.board_top, s.board_bottom)):
        for col, card in enumerate(cells):
            if card is not None:
                board[cards[card]] = 1 + row * columns + col
    out += board + _per(cards, s.discard) + _per(boroughs, s.borough_display)
    tops = [] if over else s.face_up_tops(s.turn)
    out += _per(cards, [c for c in s.activated if c in tops])
    out.append(int(not over and "borough" in s.activated))
    played = [0] * cap
    for i in [] if over else s.played:
        played[i] = 1
    out += played
    for owner in [(seat + r) % seats for r in range(seats)]:
        out += _seat(s, owner, owner == seat, cards, boroughs)
    out += _per(cards, s.hands[seat])
    out += _staged(s, cards, boroughs) if mine else [0] * (len(PHASES) + len(PENDING_FOR) + 3 * n + nb + 3)
    return [x if 0 <= x <= OBSERVATION_HIGH else (0 if x < 0 else OBSERVATION_HIGH) for x in out]


def _seat(s: State, owner: int, open_all: bool, cards: dict[str, int], boroughs: dict[str, int]) -> list[int]:
    """One seat's public facts (its whole city when the observer owns it)."""
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


def _staged(s: State, cards: dict[str, int], boroughs: dict[str, int]) -> list[int]:
    """The observer's own pending decision (only while it is to act)."""
    n, p = len(cards), s.pending or {}
    out = _one_hot(len(PHASES), PHASES.index(s.phase))
    out += _one_hot(len(PENDING_FOR), PENDING_FOR.index(p["for"]) if "for" in p else None)
    for key in ("card", "discard", "discarded"):
        out += _one_hot(n, cards[p[key]] if p.get(key) in cards else None)
    out += _one_hot(len(boroughs), boroughs[p["borough"]] if p.get("borough") in boroughs else None)
    stack = p.get("stack")
    out += [0 if stack is None else stack + 1, p.get("amount", 0), p.get("draws", 0)]
    return out
