"""Hidden-fact sampling: a full engine state built from one seat's view, the unknowns drawn consistently with it.

Only the view is read. What the seat sees is copied; what it cannot see (other hands, objectives and hidden
colours, face-down and held tokens, deck and box order, the 2-player deck orders, the engine's random state)
is drawn at random from what the view leaves possible: the card, token and objective pools minus what is
known to be elsewhere, in the structure the public counts fix (hand sizes, deck size, stacks left, cards to
the next stack card, token counts). The sampler fills a blank state it is given; match.py's Determinizer
gives it a blank match (so this module needs nothing of the match).
"""

from __future__ import annotations

from typing import Any

from firebreak.domain.greatfire.board import load_board
from firebreak.domain.greatfire.components import CARDS, DECKS, shipped_components
from firebreak.domain.greatfire.geometry import geometry
from firebreak.domain.greatfire.rules.setup import STACK_LETTERS, seat_order
from firebreak.domain.greatfire.state import ACTION_POINTS, Phase, State
from firebreak.domain.rng import Rng

UNSUPPORTED_PHASES = (Phase.OVER,)  # nothing is hidden once the match is over: a clone is the only sample


class Sampler:
    """Reads a view once; each fill() draws a fresh, independent guess consistent with it into a blank state."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        geo = geometry(load_board())
        comps = shipped_components()
        self.geo, self.comps, self.seat = geo, comps, seat
        self.phase = Phase(view["phase"])
        if self.phase in UNSUPPORTED_PHASES:
            raise ValueError(f"cannot determinize a view in phase {self.phase.value}")
        self.view = view
        colour_index = {name: k for k, name in enumerate(comps.colours)}
        seats = self.seats = view["seats"]
        n = len(geo.ids)
        districts = view["districts"]
        self.houses = [[0] * len(comps.colours) for _ in range(n)]
        self.cones = [0] * n
        self.bands = [0] * n
        self.demolished = [False] * n
        self.token_sites: list[int] = []
        players = view["players"]
        self.pawns = [[-1] * len(row["pawnColours"]) for row in players]
        for d, district_id in enumerate(geo.ids):
            row = districts[district_id]
            for colour, count in row["houses"].items():
                self.houses[d][colour_index[colour]] = count
            self.cones[d] = row["fire"]
            self.bands[d] = row["bands"]
            self.demolished[d] = row["demolished"]
            if row["token"]:
                self.token_sites.append(d)
            for pawn in row["pawns"]:
                self.pawns[pawn["seat"]][pawn["pawn"]] = d
        you = view["you"]
        self.own_colours = [colour_index[c] for c in you["colours"]]
        self.known_colours: list[list[int] | None] = [
            None if row["colours"] is None else [colour_index[c] for c in row["colours"]] for row in players]
        self.known_colours[seat] = list(self.own_colours)
        self.pawn_colours = [[colour_index[c] for c in row["pawnColours"]] for row in players]
        self.hand_sizes = [row["handSize"] for row in players]
        self.token_counts = [row["tokens"] for row in players]
        self.own_hand = list(you["hand"])
        self.own_tokens = list(you["tokens"])
        self.own_objectives = {o["deck"]: o["district"] for o in you["objectives"]}
        # Cards nobody has seen: the whole deck less the face-up discard and the seat's own hand.
        unseen = comps.fire_deck()
        for card in [c for c in CARDS for _ in range(view["discardCards"][c])] + self.own_hand:
            unseen.remove(card)
        self.unseen_cards = unseen
        self.discard = [c for c in CARDS for _ in range(view["discardCards"][c])]
        self.deck_slots = self._deck_slots(view)
        # Tokens: the pool less the seat's own and one charge per demolished district (R11c spends one).
        pool = comps.token_pool()
        for token in self.own_tokens + ["demolition"] * sum(self.demolished):
            if token in pool:
                pool.remove(token)
        self.unseen_tokens = pool
        self.objective_pools: dict[str, list[str]] = {}
        for deck in DECKS:
            cards = list(comps.objective_decks[deck])
            if seats == 2:
                cards = list(dict.fromkeys(cards))
            if deck in self.own_objectives:
                cards.remove(self.own_objectives[deck])
            self.objective_pools[deck] = cards
        self.hidden_colours = [c for c in range(len(comps.colours)) if c not in self.own_colours]
        self.per_seat = 2 if seats == 2 else 1

    def _deck_slots(self, view: dict[str, Any]) -> list[str | None]:
        """The deck from the bottom, stack cards in place and None where a fire card goes (R12 stack counts)."""
        counts = self.comps.fire_stacks[self.seats]
        stacks, size, until = view["stacksLeft"], view["deckSize"], view["untilIntensify"]
        slots: list[str | None] = []
        for k in range(stacks):
            slots.append("#" + STACK_LETTERS[k])
            slots.extend([None] * (counts[k] if k < stacks - 1 else until or 0))
        missing = size - slots.count(None)
        if missing < 0:
            raise ValueError("the view's deck counts do not fit the stack structure")
        return [None] * missing + slots  # only if the counts disagree (never with the shipped rules)

    def fill(self, s: State, rng: Rng) -> None:
        """Fill the blank state s (made on self.geo and self.comps) to fit the view, the unknowns drawn with rng."""
        view, seat, seats = self.view, self.seat, self.seats
        geo = self.geo
        s.seats, s.options, s.seed = seats, dict(view["options"]), 0
        s.rng = Rng(rng.next_u64())
        s.version = view["version"]
        s.phase = self.phase
        s.turn = view["turn"]
        s.start = view["startSeat"]
        s.houses = [list(row) for row in self.houses]
        s.cones = list(self.cones)
        s.bands = list(self.bands)
        s.demolished = list(self.demolished)
        s.supply = view["supply"]
        s.pawns = [list(p) for p in self.pawns]
        s.pawn_colours = [list(p) for p in self.pawn_colours]
        s.put_out = [row["putOut"] for row in view["players"]]
        s.hero = view["hero"]
        s.discard = list(self.discard)
        # Fire cards: other hands, the deck's fire slots, the box.
        cards = list(self.unseen_cards)
        rng.shuffle(cards)
        s.hands = []
        for other in range(seats):
            if other == seat:
                s.hands.append(list(self.own_hand))
            else:
                s.hands.append([cards.pop() for _ in range(self.hand_sizes[other])])
        s.deck = [cards.pop() if slot is None else slot for slot in self.deck_slots]
        s.box = cards
        # Tokens: face-down board tokens and the other seats' held tokens; the rest left the game unseen.
        tokens = list(self.unseen_tokens)
        rng.shuffle(tokens)
        s.board_tokens = [None] * len(geo.ids)
        for d in self.token_sites:
            s.board_tokens[d] = tokens.pop()
        s.tokens = [list(self.own_tokens) if other == seat else [tokens.pop() for _ in range(self.token_counts[other])]
                    for other in range(seats)]
        # Objectives: one card of each deck per seat, the others' drawn from what the seat does not hold.
        s.objectives = [[] for _ in range(seats)]
        for deck in DECKS:
            pool = list(self.objective_pools[deck])
            rng.shuffle(pool)
            for other in range(seats):
                s.objectives[other].append(self.own_objectives[deck] if other == seat else pool.pop())
        # Colours: as shown, or (Hidden Colours) drawn from the colours that are not the seat's own.
        free = list(self.hidden_colours)
        rng.shuffle(free)
        s.colours = []
        for other in range(seats):
            known = self.known_colours[other]
            s.colours.append(list(known) if known is not None else [free.pop() for _ in range(self.per_seat)])
        self._stage(s)
        self._non_player(s, rng)

    def _stage(self, s: State) -> None:
        """Phase fields: the pending decision's stage and the setup queue."""
        view = self.view
        stage = view["stage"]
        s.card, s.source, s.moves_left, s.double_played = None, None, 0, False
        s.ap, s.to_place, s.place_reason, s.place_returned = ACTION_POINTS, 0, "", False
        s.turns_left = view["turnsLeft"]
        s.queue = []
        if s.phase is Phase.FIRE:
            s.card = stage["card"]
            s.source = None if stage["source"] is None else self.geo.index[stage["source"]]
            s.moves_left = stage["movesLeft"]
            s.double_played = stage["doubleMovePlayed"]
        elif s.phase is Phase.ACTIONS:
            s.ap = stage["actionPoints"]
        elif s.phase is Phase.PLACE_CONES:
            s.to_place, s.place_reason = stage["conesToPlace"], stage["reason"]
        elif s.phase is Phase.REDEAL:
            order = seat_order(s, s.start)  # R15: the seats still to be offered a redeal, from the one deciding
            s.queue = order[order.index(s.turn):]
        elif s.phase is Phase.PLACE_BANDS:
            s.queue = [(s.turn + k) % s.seats for k in range(6 - sum(s.bands))]  # R16: in turn order
        elif s.phase is Phase.PLACE_PAWNS:
            unplaced = sum(p.count(-1) for p in s.pawns)
            s.queue = [(s.turn + k) % s.seats for k in range(unplaced)]

    def _non_player(self, s: State, rng: Rng) -> None:
        """2 players: the face-up cards, the automated steps' progress, the two decks in a random order."""
        s.npc_stage = s.npc_card = s.npc_objective = None
        s.npc_priority = s.npc_target = None
        s.npc_bands = s.npc_choice = None
        s.npc_intensify = False
        s.priority_deck, s.priority_discard, s.movement_deck, s.movement_discard = [], [], [], []
        section = self.view.get("nonPlayer")
        if section is None:
            return
        comps, index = self.comps, self.geo.index
        cards = [tuple(c) for c in comps.colour_priority]
        s.priority_discard = [cards.index(tuple(c)) for c in section["priorityDiscard"]]
        s.priority_deck = _rest(list(range(len(cards))), s.priority_discard, section["priorityDeck"], rng)
        s.movement_discard = list(section["movementDiscard"])
        s.movement_deck = _rest(list(comps.band_movement), s.movement_discard, section["movementDeck"], rng)
        s.npc_stage = section["stage"]
        s.npc_card = section["fireCard"]
        s.npc_priority = None if section["priorityCard"] is None else cards.index(tuple(section["priorityCard"]))
        s.npc_objective = section["movementCard"]
        s.npc_target = None if section["target"] is None else index[section["target"]]
        s.npc_bands = None if section["bandsToMove"] is None else [[index[d], k] for d, k in section["bandsToMove"]]
        s.npc_choice = None if section["tie"] is None else dict(section["tie"])
        s.npc_intensify = section["intensify"]


def _rest(cards: list[Any], seen: list[Any], size: int, rng: Rng) -> list[Any]:
    """The cards of a deck not in its face-up discard, shuffled, cut to the public size."""
    rest = list(cards)
    for card in seen:
        if card in rest:
            rest.remove(card)
    rng.shuffle(rest)
    return rest[:size]

