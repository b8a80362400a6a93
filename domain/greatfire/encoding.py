"""Great Fire's integer action space and per-seat observation (the encoded contract, for learning environments).

The action space lists, in this order, built from the board and component data (ids are indices):
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
tokens are always a count. Layout (D districts, C colours, K fire cards, S seats, T token kinds):
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
  2 seats only, the non-player turn: fire card one-hot (K), colour priority card one-hot (P cards), movement
    card one-hot (D), tie kind one-hot (4), tie options multi-hot (D), priority and movement deck sizes (2),
    priority discards multi-hot (P), movement discards per district (D), stage one-hot (3), target one-hot
    (D), steps of the bands still to move per district (D), intensify pending (1)
"""

from __future__ import annotations

import functools

from domain.contract import Action
from domain.encoding import ActionIndex
from domain.greatfire.board import load_board
from domain.greatfire.components import CARDS, TOKEN_KINDS, Components, shipped_components
from domain.greatfire.geometry import Geometry, geometry
from domain.greatfire.state import HOUSES_PER_COLOUR, Phase, State

MAX_PAWNS = 2  # pawns per seat: one per colour owned, two in the 2-player game (R19)
PHASES = tuple(Phase)
PLACE_REASONS = ("noMove", "intensify", "nonPlayer")
TIE_KINDS = ("target", "source", "band", "bandMove")
NPC_STAGES = ("fire", "bands", "end")


def build_action_space(geo: Geometry) -> list[Action]:
    """Every action Great Fire can list, in the documented order (see the module docstring)."""
    ids = geo.ids

    def per_district(kind: str) -> list[Action]:
        return [{"type": kind, "district": d} for d in ids]

    space: list[Action] = [{"type": "keepHand"}, {"type": "redeal"}]
    space += per_district("placeBand") + per_district("placePawn")
    space += [{"type": "playCard", "card": c} for c in CARDS]
    space += per_district("chooseSource") + per_district("spreadFire")
    space += [{"type": "playDoubleMove"}, {"type": "endFire"}]
    space += [{"type": "discard", "card": c} for c in CARDS]
    space += per_district("placeCone") + per_district("breakTie")
    space += [{"type": "movePawn", "pawn": p, "to": d} for p in range(MAX_PAWNS) for d in ids]
    space += [{"type": "moveBand", "from": ids[a], "to": ids[b]} for a in range(len(ids)) for b in geo.adjacent[a]]
    space += per_district("putOut") + per_district("demolish")
    space.append({"type": "endActions"})
    return space


@functools.cache
def shipped_index() -> ActionIndex:
    """The action index of the shipped board (built once)."""
    return ActionIndex(build_action_space(geometry(load_board())))


def observation_size(seats: int, geo: Geometry | None = None, comps: Components | None = None) -> int:
    """The length of an observation for a match of this many seats (shipped data unless given)."""
    geo = geo or geometry(load_board())
    comps = comps or shipped_components()
    d, c, k, t = len(geo.ids), len(comps.colours), len(CARDS), len(TOKEN_KINDS)
    size = d * (c + 5 + seats) + len(PHASES) + 3 * seats + 6 + k
    size += k + d + 4 + len(PLACE_REASONS) + c + seats * (6 + 2 * c) + k + t
    if seats == 2:
        p = len(comps.colour_priority)
        size += k + p + d + len(TIE_KINDS) + d + 2 + p + d + len(NPC_STAGES) + d + d + 1
    return size


def _one_hot(n: int, at: int | None) -> list[int]:
    out = [0] * n
    if at is not None:
        out[at] = 1
    return out


def observation(s: State, seat: int) -> list[int]:
    """The seat's observation (layout in the module docstring), computed from the state."""
    geo, comps, seats = s.geo, s.comps, s.seats
    n, colours = len(geo.ids), len(comps.colours)
    over = s.phase is Phase.OVER
    order = [(seat + k) % seats for k in range(seats)]

    def rel(owner: int | None) -> int | None:
        return None if owner is None else (owner - seat) % seats

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
    out += _one_hot(len(PHASES), PHASES.index(s.phase))
    out += _one_hot(seats, None if over else rel(s.turn)) + _one_hot(seats, rel(s.start))
    out += _one_hot(seats, rel(s.hero))
    until = next((k for k, card in enumerate(reversed(s.deck)) if card.startswith("#")), None)
    fire_left = sum(1 for card in s.deck if not card.startswith("#"))
    out += (s.supply, fire_left, len(s.deck) - fire_left, 0 if until is None else until + 1, len(s.discard),
            0 if s.turns_left is None else s.turns_left + 1)
    out += [s.discard.count(card) for card in CARDS]
    out += _stage(s)
    standing = [sum(column) for column in zip(*s.houses, strict=True)]
    out += [HOUSES_PER_COLOUR - x for x in standing]
    hidden = bool(s.options.get("hiddenColours")) and not over
    for owner in order:
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
    out += [s.hands[seat].count(card) for card in CARDS]
    out += [s.tokens[seat].count(kind) for kind in TOKEN_KINDS]
    if seats == 2:
        out += _non_player(s)
    return out


def _stage(s: State) -> list[int]:
    """Where the pending decision stands inside its phase (only the phase's own facts, as the view's stage)."""
    n = len(s.geo.ids)
    fire, actions, placing = s.phase is Phase.FIRE, s.phase is Phase.ACTIONS, s.phase is Phase.PLACE_CONES
    out = _one_hot(len(CARDS), CARDS.index(s.card) if fire and s.card is not None else None)
    out += _one_hot(n, s.source if fire else None)
    out += (s.moves_left if fire else 0, int(fire and s.double_played), s.ap if actions else 0,
            s.to_place if placing else 0)
    out += _one_hot(len(PLACE_REASONS), PLACE_REASONS.index(s.place_reason) if placing else None)
    return out


def _non_player(s: State) -> list[int]:
    """The 2-player non-player turn's public facts (as the view's nonPlayer section)."""
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
