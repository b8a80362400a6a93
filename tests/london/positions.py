"""Crafted London positions for rule tests: a new match whose cards are moved where a test needs them."""

from __future__ import annotations

from typing import Any

from firebreak.domain import titles
from firebreak.domain.london.data import slug
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.state import Phase


def cid(name: str, copy: int = 1) -> str:
    """The id of a card or borough by its name (and copy number for cards)."""
    return f"{slug(name)}-{copy}"


def bid(name: str) -> str:
    """The id of a borough by its name."""
    return slug(name)


def new(seats: int = 2, seed: int = 1) -> LondonMatch:
    """A new match with seat 0 to start."""
    m = titles.get("london").new_match(seats=seats, seed=seed, options={"startSeat": 0})
    assert isinstance(m, LondonMatch)
    return m


def lift(m: LondonMatch, card: str) -> None:
    """Take a card out of wherever it is (deck, a hand, the board, a city, the discard pile)."""
    for place in [m.deck, m.discard, *m.hands]:
        if card in place:
            place.remove(card)
    for seat in range(m.seats):
        if card in m.known[seat]:
            m.known[seat].remove(card)
        if card in m.face_down[seat]:
            m.face_down[seat].remove(card)
        for stack in m.stacks[seat]:
            if card in stack:
                stack.remove(card)
        m.stacks[seat] = [s for s in m.stacks[seat] if s]
    for row in (m.board_top, m.board_bottom):
        if card in row:
            row[row.index(card)] = None


def give(m: LondonMatch, seat: int, *cards: str) -> None:
    """Put cards into a seat's hand."""
    for card in cards:
        lift(m, card)
        m.hands[seat].append(card)


def set_hand(m: LondonMatch, seat: int, *cards: str) -> None:
    """Replace a seat's hand (the old cards go to the bottom of the deck)."""
    old = [c for c in m.hands[seat] if c not in cards]
    m.hands[seat] = []
    m.known[seat] = []
    m.deck[0:0] = old
    give(m, seat, *cards)


def build(m: LondonMatch, seat: int, *stacks: list[str], down: tuple[str, ...] = ()) -> None:
    """Give the seat these building stacks (bottom first), with the named cards face down."""
    for stack in stacks:
        for card in stack:
            lift(m, card)
    m.stacks[seat] = [list(s) for s in stacks]
    m.face_down[seat] = list(down)


def own(m: LondonMatch, seat: int, *boroughs: str) -> None:
    """Give the seat these boroughs (the last on top), taken out of the display or the borough deck."""
    for b in boroughs:
        if b in m.borough_display:
            m.borough_display[m.borough_display.index(b)] = m.borough_deck.pop()
        elif b in m.borough_deck:
            m.borough_deck.remove(b)
    m.boroughs[seat] = list(boroughs)


def show(m: LondonMatch, *boroughs: str) -> None:
    """Put these boroughs face up in the display (the others go back to the borough deck)."""
    for b in m.borough_display:
        if b not in boroughs:
            m.borough_deck.append(b)
    for b in boroughs:
        if b in m.borough_deck:
            m.borough_deck.remove(b)
    m.borough_display = list(boroughs)


def at(m: LondonMatch, phase: Phase = Phase.ACTION, **facts: Any) -> LondonMatch:
    """Set the pending step (the turn's draw done) and any plain facts (money=[...]...)."""
    for name, value in facts.items():
        setattr(m, name, value)
    m.phase = phase
    m._legal = None
    return m


def play(m: LondonMatch, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply actions of the seat to act, in order; return all their events."""
    events: list[dict[str, Any]] = []
    for action in actions:
        events += m.apply(m.turn, action)
    return events


def all_cards(m: LondonMatch) -> list[str]:
    """Every card id wherever it is (each must appear once)."""
    cards = [*m.deck, *m.discard, *m.board_cards()]
    for seat in range(m.seats):
        cards += m.hands[seat]
        cards += [c for stack in m.stacks[seat] for c in stack]
    return cards
