"""Great Fire's integer action space and per-seat observation (the encoded contract, for learning environments).

The action space is the action table's (actions.py), built from the board and component data (ids are indices),
in this order:
  1. keepHand, redeal
  2. placeBand, 3. placePawn: one per district, in board.json order
  4. playCard: one per fire card N, E, S, W
  5. chooseSource, 6. spreadFire: one per district
  7. playDoubleMove, endFire
  8. discard: one per fire card
  9. placeCone, 10. breakTie: one per district
  11. movePawn: pawn 0..MAX_PAWNS-1, each with every district as "to"
  12. moveBand: every district "from" (board order) with each of its neighbours "to" (board order)
  13. putOut, 14. demolish: one per district
  15. endActions
With the shipped data (72 districts, 175 links) that is 1,083 actions.

The observation is a flat list of integers from the seat's point of view: seats are numbered relative to the
observer (0 is the observer, 1 the seat on its left...). It shows only what the seat's view shows (R18): other
seats' hands, objectives, token kinds and, under Hidden Colours, colours stay out of it, at every phase; a seat's
tokens are always a count. Every number is a whole number 0-255 as filled, so the layout does not clip (the
largest count the 65 cones and the 60 fire cards; tests/greatfire/test_encoding.py checks the range along
matches). Layout (the pieces of layout(), in order; D districts, C colours, K fire cards, S seats, T token kinds,
P priority cards):
  per district (D x (C + 5 + S)): houses per colour, cones, bands, demolished, token lying there, the
    observer's objectives naming it, pawns of each relative seat there
  phase one-hot (10); turn, start seat, hero as relative-seat one-hots (3 x S)
  supply, fire cards left, stack cards left, cards until intensify (+1, 0: none), discard pile size,
    turns left (+1, 0: not in the final rounds), discarded cards per fire card (K)
  stage, zeros outside its phase: played card one-hot (K), chosen source one-hot (D), moves left, double move
    played (fire); action points (actions); cones to place, placement reason one-hot (3) (placing cones)
  score track: houses lost per colour (C)
  per relative seat (S x (6 + 2C)): hand size, cones put out, houses lost (0 when hidden), colours known,
    tokens held (a count), hero; its colours multi-hot (zeros when hidden); its pawn colours multi-hot
  the observer's secrets: hand per fire card (K), tokens per kind (T)
  2 seats only, the non-player turn: fire card one-hot (K), colour priority card one-hot (P), movement
    card one-hot (D), tie kind one-hot (4), tie options multi-hot (D), priority and movement deck sizes (2),
    priority discards multi-hot (P), movement discards per district (D), stage one-hot (3), target one-hot
    (D), steps of the bands still to move per district (D), intensify pending (1)
"""

from __future__ import annotations

import functools

from firebreak.domain.encoding import ActionIndex, ObservationLayout, Piece
from firebreak.domain.greatfire.actions import ACTIONS
from firebreak.domain.greatfire.board import load_board
from firebreak.domain.greatfire.components import CARDS, TOKEN_KINDS, Components, shipped_components
from firebreak.domain.greatfire.geometry import Geometry, geometry
from firebreak.domain.greatfire.state import HOUSES_PER_COLOUR, Phase, State

PHASES = tuple(Phase)
PLACE_REASONS = ("noMove", "intensify", "nonPlayer")
TIE_KINDS = ("target", "source", "band", "bandMove")
NPC_STAGES = ("fire", "bands", "end")
COUNTS = 6  # supply, fire cards left, stack cards left, until intensify, discard pile size, turns left
SEAT_FACTS = 6  # hand size, cones put out, houses lost, colours known, tokens held, hero


@functools.cache
def shipped_index() -> ActionIndex:
    """The action index of the shipped board (built once): the action table's space over its geometry, in the
    documented order."""
    return ActionIndex(ACTIONS.space(geometry(load_board())))


def _one_hot(n: int, at: int | None) -> list[int]:
    out = [0] * n
    if at is not None:
        out[at] = 1
    return out


def _rel(s: State, seat: int, owner: int | None) -> int | None:
    """The owner's seat relative to the observer (None stays None)."""
    return None if owner is None else (owner - seat) % s.seats


def _districts(s: State, seat: int) -> list[int]:
    geo, seats = s.geo, s.seats
    n = len(geo.ids)
    pawns_at = [[0] * seats for _ in range(n)]
    for owner in range(seats):
        r = (owner - seat) % seats
        for d in s.pawns[owner]:
            if d >= 0:
                pawns_at[d][r] += 1
    mine = [0] * n
    for o in s.objectives[seat]:
        mine[geo.index[o]] += 1
    out: list[int] = []
    for d in range(n):
        out += s.houses[d]
        out += (s.cones[d], s.bands[d], int(s.demolished[d]), int(s.board_tokens[d] is not None), mine[d])
        out += pawns_at[d]
    return out


def _phase(s: State, seat: int) -> list[int]:
    return _one_hot(len(PHASES), PHASES.index(s.phase))


def _turn(s: State, seat: int) -> list[int]:
    return _one_hot(s.seats, None if s.phase is Phase.OVER else _rel(s, seat, s.turn))


def _start(s: State, seat: int) -> list[int]:
    return _one_hot(s.seats, _rel(s, seat, s.start))


def _hero(s: State, seat: int) -> list[int]:
    return _one_hot(s.seats, _rel(s, seat, s.hero))


def _counts(s: State, seat: int) -> list[int]:
    until = next((k for k, card in enumerate(reversed(s.deck)) if card.startswith("#")), None)
    fire_left = sum(1 for card in s.deck if not card.startswith("#"))
    return [s.supply, fire_left, len(s.deck) - fire_left, 0 if until is None else until + 1, len(s.discard),
            0 if s.turns_left is None else s.turns_left + 1]


def _discard_cards(s: State, seat: int) -> list[int]:
    return [s.discard.count(card) for card in CARDS]


def _stage_size(geo: Geometry) -> int:
    return len(CARDS) + len(geo.ids) + 4 + len(PLACE_REASONS)


def _stage(s: State, seat: int) -> list[int]:
    """Where the pending decision stands inside its phase (only the phase's own facts, as the view's stage)."""
    n = len(s.geo.ids)
    fire, actions, placing = s.phase is Phase.FIRE, s.phase is Phase.ACTIONS, s.phase is Phase.PLACE_CONES
    out = _one_hot(len(CARDS), CARDS.index(s.card) if fire and s.card is not None else None)
    out += _one_hot(n, s.source if fire else None)
    out += (s.moves_left if fire else 0, int(fire and s.double_played), s.ap if actions else 0,
            s.to_place if placing else 0)
    out += _one_hot(len(PLACE_REASONS), PLACE_REASONS.index(s.place_reason) if placing else None)
    return out


def _standing(s: State) -> list[int]:
    """Houses standing per colour."""
    return [sum(column) for column in zip(*s.houses, strict=True)]


def _score_track(s: State, seat: int) -> list[int]:
    return [HOUSES_PER_COLOUR - x for x in _standing(s)]


def _seats(s: State, seat: int) -> list[int]:
    """Each relative seat's public facts (its colours and houses lost only when known to the observer)."""
    colours = len(s.comps.colours)
    standing = _standing(s)
    hidden = bool(s.options.get("hiddenColours")) and s.phase is not Phase.OVER
    out: list[int] = []
    for owner in [(seat + k) % s.seats for k in range(s.seats)]:
        known = not hidden or owner == seat
        lost = sum(HOUSES_PER_COLOUR - standing[c] for c in s.colours[owner]) if known else 0
        out += (len(s.hands[owner]), s.put_out[owner], lost, int(known), len(s.tokens[owner]), int(s.hero == owner))
        owned = [0] * colours
        if known:
            for c in s.colours[owner]:
                owned[c] = 1
        pawn_colours = [0] * colours
        for c in s.pawn_colours[owner]:
            pawn_colours[c] += 1
        out += owned + pawn_colours
    return out


def _hand(s: State, seat: int) -> list[int]:
    return [s.hands[seat].count(card) for card in CARDS]


def _tokens(s: State, seat: int) -> list[int]:
    return [s.tokens[seat].count(kind) for kind in TOKEN_KINDS]


def _non_player_size(geo: Geometry, comps: Components) -> int:
    n, p = len(geo.ids), len(comps.colour_priority)
    return len(CARDS) + p + n + len(TIE_KINDS) + n + 2 + p + n + len(NPC_STAGES) + n + n + 1


def _non_player(s: State, seat: int) -> list[int]:
    """The 2-player non-player turn's public facts (as the view's nonPlayer section); nothing in a larger game."""
    if s.seats != 2:
        return []
    geo, comps = s.geo, s.comps
    n, p = len(geo.ids), len(comps.colour_priority)
    out = _one_hot(len(CARDS), None if s.npc_card is None else CARDS.index(s.npc_card))
    out += _one_hot(p, s.npc_priority)
    out += _one_hot(n, None if s.npc_objective is None else geo.index[s.npc_objective])
    tie = s.npc_choice
    out += _one_hot(len(TIE_KINDS), None if tie is None else TIE_KINDS.index(tie["kind"]))
    options = [0] * n
    for district in (tie or {}).get("options", []):
        options[geo.index[district]] = 1
    out += options
    out += (len(s.priority_deck), len(s.movement_deck))
    discards = [0] * p
    for k in s.priority_discard:
        discards[k] = 1
    out += discards
    moved = [0] * n
    for district in s.movement_discard:
        moved[geo.index[district]] += 1
    out += moved
    out += _one_hot(len(NPC_STAGES), None if s.npc_stage is None else NPC_STAGES.index(s.npc_stage))
    out += _one_hot(n, s.npc_target)
    steps = [0] * n
    for d, k in s.npc_bands or []:
        steps[d] += k
    out += steps
    out.append(int(s.npc_intensify))
    return out


def layout(geo: Geometry, comps: Components) -> ObservationLayout[State]:
    """The observation's pieces for matches on this board with these components (the module docstring describes
    each)."""
    d, c = len(geo.ids), len(comps.colours)
    non_player = _non_player_size(geo, comps)
    return ObservationLayout([
        Piece("districts", lambda seats: d * (c + 5 + seats), _districts),
        Piece("phase", lambda seats: len(PHASES), _phase),
        Piece("turn", lambda seats: seats, _turn),
        Piece("start", lambda seats: seats, _start),
        Piece("hero", lambda seats: seats, _hero),
        Piece("counts", lambda seats: COUNTS, _counts),
        Piece("discardCards", lambda seats: len(CARDS), _discard_cards),
        Piece("stage", lambda seats: _stage_size(geo), _stage),
        Piece("scoreTrack", lambda seats: c, _score_track),
        Piece("seats", lambda seats: seats * (SEAT_FACTS + 2 * c), _seats),
        Piece("hand", lambda seats: len(CARDS), _hand),
        Piece("tokens", lambda seats: len(TOKEN_KINDS), _tokens),
        Piece("nonPlayer", lambda seats: non_player if seats == 2 else 0, _non_player),
    ], clip=False)


@functools.cache
def shipped_layout() -> ObservationLayout[State]:
    """The observation layout of the shipped board and components (built once)."""
    return layout(geometry(load_board()), shipped_components())


def observation_size(seats: int) -> int:
    """The length of an observation for a match of this many seats (shipped data)."""
    return shipped_layout().size(seats)


def observation(s: State, seat: int) -> list[int]:
    """The seat's observation (layout in the module docstring), computed from the state (the pieces read the
    state's own board and components)."""
    return shipped_layout().observe(s, seat)
