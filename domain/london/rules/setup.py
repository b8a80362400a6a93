"""Setup ("Підготовка до гри"): £5 each, the A-B-C deck (C at the bottom), 6 cards each, three starting boroughs."""

from __future__ import annotations

from typing import Any

from firebreak.domain.contract import Event
from firebreak.domain.london.data import DECKS
from firebreak.domain.london.rules.flow import start_turn
from firebreak.domain.london.state import BOARD_COLUMNS, START_HAND, START_MONEY, Phase, State
from firebreak.domain.rng import Rng


def deal(s: State, seats: int, seed: int, options: dict[str, Any]) -> list[Event]:
    """Set up a new match from the seed (all setup randomness comes from it); return the setup events."""
    s.seats, s.seed, s.options, s.version = seats, seed, dict(options), 0
    s.rng = Rng.from_seed(seed)
    s.deck = []
    for letter in reversed(DECKS):  # the deck's top is the list's end: C first (bottom), A last (top)
        part = [c.id for c in s.cat.cards.values() if c.deck == letter]
        s.rng.shuffle(part)
        s.deck.extend(part)
    s.hands = [[] for _ in range(seats)]
    for _ in range(START_HAND):
        for seat in range(seats):
            s.hands[seat].append(s.deck.pop())
    s.known = [[] for _ in range(seats)]
    s.stacks = [[] for _ in range(seats)]
    s.face_down = [[] for _ in range(seats)]
    s.boroughs = [[] for _ in range(seats)]
    s.money = [START_MONEY] * seats
    s.loans, s.poverty = [0] * seats, [0] * seats
    s.prestige_land, s.prestige_play = [0] * seats, [0] * seats
    columns = BOARD_COLUMNS[seats]
    s.board_top, s.board_bottom = [None] * columns, [None] * columns
    s.discard = []
    s.borough_display = [b.id for b in s.cat.boroughs.values() if b.start]
    s.borough_deck = [b.id for b in s.cat.boroughs.values() if not b.start]
    s.rng.shuffle(s.borough_deck)
    start = options.get("startSeat")
    s.start = start if isinstance(start, int) else s.rng.below(seats)
    s.turn = s.start
    s.turns_left = None
    s.phase = Phase.START
    events: list[Event] = [{"type": "setUp", "seats": seats, "start": s.start, "deck": len(s.deck),
                            "boroughs": list(s.borough_display)}]
    events.extend({"type": "handDealt", "seat": seat, "hand": list(s.hands[seat]), "audience": [seat]}
                  for seat in range(seats))
    start_turn(s, events)
    return events
