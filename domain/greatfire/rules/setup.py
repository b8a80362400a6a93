"""Setup (R14-R16): deal, houses region by region, colours, tokens, objectives, redeals, bands and pawns."""

from __future__ import annotations

from typing import Any

from firebreak.domain.contract import Action, Event
from firebreak.domain.greatfire.components import DECKS
from firebreak.domain.greatfire.rules.flow import start_turn
from firebreak.domain.greatfire.state import HAND_SIZE, ORIGIN_START_CONES, TOTAL_CONES, Phase, State

STACK_LETTERS = "ABCDEFGH"


def seat_order(s: State, start: int) -> list[int]:
    """Seats clockwise (to the left) from start."""
    return [(start + k) % s.seats for k in range(s.seats)]


def deal_setup(s: State, seats: int, seed: int, options: dict[str, Any], start: int | None) -> None:
    """Lay out everything random (R14) and queue the setup decisions (R15, R16)."""
    geo, comps, rng = s.geo, s.comps, s.rng
    n = len(geo.ids)
    colours_per_seat = 2 if seats == 2 else 1
    s.seats, s.options, s.seed, s.version = seats, dict(options), seed, 0
    s.cones = [0] * n
    s.cones[geo.origin] = ORIGIN_START_CONES
    s.supply = TOTAL_CONES - ORIGIN_START_CONES
    s.bands = [0] * n
    s.demolished = [False] * n
    s.discard, s.box = [], []
    s.deck = comps.fire_deck()
    rng.shuffle(s.deck)
    s.hands = [[s.deck.pop() for _ in range(HAND_SIZE)] for _ in range(seats)]
    s.houses = [[0] * len(comps.colours) for _ in range(n)]
    _place_houses(s)
    palette = list(range(len(comps.colours)))
    rng.shuffle(palette)
    s.colours = [palette[k * colours_per_seat:(k + 1) * colours_per_seat] for k in range(seats)]
    if options.get("hiddenColours"):
        # Optional rule A: each player takes pawns at random, which may not match the secret colours.
        pawn_palette = list(range(len(comps.colours)))
        rng.shuffle(pawn_palette)
        s.pawn_colours = [pawn_palette[k * colours_per_seat:(k + 1) * colours_per_seat] for k in range(seats)]
    else:
        s.pawn_colours = [list(c) for c in s.colours]
    s.pawns = [[-1] * colours_per_seat for _ in range(seats)]
    pool = comps.token_pool()
    rng.shuffle(pool)
    s.board_tokens = [None] * n
    for d, token in zip((d.index for d in geo.board.districts if d.token_site), pool, strict=True):
        s.board_tokens[d] = token
    s.objectives = [[] for _ in range(seats)]
    for deck in DECKS:
        cards = list(comps.objective_decks[deck])
        if seats == 2:
            cards = _one_copy_each(cards)  # R19: the 2-player game removes one copy of each card
        rng.shuffle(cards)
        for seat in range(seats):
            s.objectives[seat].append(cards.pop())
    s.tokens = [[] for _ in range(seats)]
    s.put_out = [0] * seats
    s.hero = None
    s.card, s.source, s.moves_left, s.double_played = None, None, 0, False
    s.ap, s.to_place, s.place_reason, s.place_returned, s.turns_left = 0, 0, "", False, None
    _deal_non_player_decks(s)
    s.start = rng.below(seats) if start is None else start
    s.queue = seat_order(s, s.start)
    s.turn = s.start
    _next_redeal(s, [])


def _deal_non_player_decks(s: State) -> None:
    """R19/R20: the 2-player game shuffles the colour priority and trained band movement decks."""
    s.npc_stage = s.npc_card = s.npc_objective = None
    s.npc_priority = s.npc_target = None
    s.npc_bands = s.npc_choice = None
    s.npc_intensify = False
    s.priority_discard, s.movement_discard = [], []
    if s.seats != 2:
        s.priority_deck, s.movement_deck = [], []
        return
    s.priority_deck = list(range(len(s.comps.colour_priority)))
    s.rng.shuffle(s.priority_deck)
    s.movement_deck = list(s.comps.band_movement)
    s.rng.shuffle(s.movement_deck)


def _one_copy_each(cards: list[str]) -> list[str]:
    out: list[str] = []
    for card in cards:
        if card not in out:
            out.append(card)
    return out


def _place_houses(s: State) -> None:
    """Region by region, orange first: 5 houses of each colour drawn blind per 30 slots."""
    geo = s.geo
    colours = len(s.comps.colours)
    for region in dict.fromkeys(geo.board.districts[d].region for d in geo.fill_order):
        slots = [d for d in geo.fill_order if geo.board.districts[d].region == region]
        total = sum(geo.size[d] for d in slots)
        per_colour = -(-total // colours)
        lid = [c for c in range(colours) for _ in range(per_colour)]
        s.rng.shuffle(lid)
        for d in slots:
            for _ in range(geo.size[d]):
                s.houses[d][lid.pop()] += 1


def identical_hand(hand: list[str]) -> bool:
    """R15: five identical cards entitle the player to a redeal."""
    return len(hand) == HAND_SIZE and len(set(hand)) == 1


def _next_redeal(s: State, events: list[Event]) -> None:
    """Offer the next redeal (R15) or, when none is owed, build the fire stack and place bands."""
    while s.queue:
        if identical_hand(s.hands[s.queue[0]]):
            s.phase, s.turn = Phase.REDEAL, s.queue[0]
            return
        s.queue.pop(0)
    _build_fire_stack(s)
    _start_band_placement(s, events)


def _build_fire_stack(s: State) -> None:
    """Stack card A first (bottom), its cards on it, then B..., the rest to the box."""
    counts = s.comps.fire_stacks[s.seats]
    rest = s.deck
    deck: list[str] = []
    for letter, count in zip(STACK_LETTERS, counts, strict=False):
        deck.append("#" + letter)
        deck.extend(rest.pop() for _ in range(count))
    s.box = rest
    s.deck = deck


def _start_band_placement(s: State, events: list[Event]) -> None:
    """R16: preset bands for the player count, then one band a seat in turn order until six are out."""
    for d in s.geo.board.districts:
        if s.seats in d.preset_band:
            s.bands[d.index] += 1
    free = 6 - sum(s.bands)
    order = seat_order(s, s.start)
    s.queue = [order[k % s.seats] for k in range(free)]
    s.phase = Phase.PLACE_BANDS
    _advance_placement(s, events)


def _advance_placement(s: State, events: list[Event]) -> None:
    if s.queue:
        s.turn = s.queue[0]
        return
    if s.phase is Phase.PLACE_BANDS:
        order = seat_order(s, s.start)
        s.queue = [seat for _ in range(len(s.pawns[0])) for seat in order]
        s.phase = Phase.PLACE_PAWNS
        _advance_placement(s, events)
        return
    s.turn = s.start
    start_turn(s, events)


def setup_actions(s: State) -> list[Action]:
    """The legal decisions of the pending setup step."""
    if s.phase is Phase.REDEAL:
        return [{"type": "keepHand"}, {"type": "redeal"}]
    kind = "placeBand" if s.phase is Phase.PLACE_BANDS else "placePawn"
    return [{"type": kind, "district": s.geo.ids[d]} for d in s.geo.setup_sites]


def keep_hand(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """R15: the seat keeps its hand of five identical cards."""
    s.queue.pop(0)
    events.append({"type": "handKept", "seat": seat})
    _next_redeal(s, events)


def redeal(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """R15: the seat's hand is shown, shuffled back into the deck, and five fresh cards are dealt."""
    events.append({"type": "handRedealt", "seat": seat, "shown": list(s.hands[seat])})
    s.deck.extend(s.hands[seat])
    s.rng.shuffle(s.deck)
    s.hands[seat] = [s.deck.pop() for _ in range(HAND_SIZE)]
    events.append({"type": "handDealt", "seat": seat, "hand": list(s.hands[seat]), "audience": [seat]})
    _next_redeal(s, events)


def place_band(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """R16: the seat places a trained band on the district."""
    d = s.geo.index[action["district"]]
    s.queue.pop(0)
    s.bands[d] += 1
    events.append({"type": "bandPlaced", "seat": seat, "district": action["district"]})
    _advance_placement(s, events)


def place_pawn(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """R16: the seat places its next landowner pawn on the district."""
    d = s.geo.index[action["district"]]
    s.queue.pop(0)
    pawn = s.pawns[seat].index(-1)
    s.pawns[seat][pawn] = d
    events.append({"type": "pawnPlaced", "seat": seat, "pawn": pawn, "district": action["district"]})
    _advance_placement(s, events)
