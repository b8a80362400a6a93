"""Resampling what a seat cannot see (for information-set search): others' unknown hand cards, the deck order
within each of its A/B/C parts, others' covered and face-down cards, and the borough deck order."""

from __future__ import annotations

import random
from collections import Counter

from firebreak.domain.london.state import Phase, State
from firebreak.domain.rng import Rng


def resample_into(s: State, seat: int, rng: random.Random) -> None:
    """Redraw, in place, everything hidden from the seat, consistently with its view (which stays identical)."""
    if s.phase is Phase.OVER:
        return
    # another seat's half-staged card (and its chosen discard) stays in its hand: the staging goes on in the copy
    staged = [s.pending[k] for k in ("card", "discard") if k in s.pending] if s.pending and s.turn != seat else []
    # the slots to refill
    stack_slots: list[tuple[int, int, int]] = []
    pool: list[str] = []
    hand_slots: list[int] = []
    for owner in range(s.seats):
        if owner == seat:
            continue
        for i, stack in enumerate(s.stacks[owner]):
            for j, card in enumerate(stack):
                if j < len(stack) - 1 or card in s.face_down[owner]:
                    stack_slots.append((owner, i, j))
                    pool.append(card)
        kept = [c for c in s.hands[owner] if c in s.known[owner] or (owner == s.turn and c in staged)]
        unknown = [c for c in s.hands[owner] if c not in kept]
        hand_slots.extend([owner] * len(unknown))
        pool.extend(unknown)
        s.hands[owner] = kept
    pool.extend(s.deck)
    pool.sort()  # from here on only what the seat knows and the generator decide (L18)
    rng.shuffle(pool)
    letter = {c: s.card(c).deck for c in pool}
    need = Counter(letter[c] for c in s.deck)
    spare = Counter(letter[c] for c in pool)
    spare.subtract(need)
    # stack slots first: buildable cards of a deck letter with cards to spare (always possible: the true layout is)
    down = {(owner, i, j) for owner, i, j in stack_slots if s.stacks[owner][i][j] in s.face_down[owner]}
    for owner, i, j in stack_slots:
        new = next(c for c in pool if s.card(c).buildable and spare[letter[c]] > 0)
        pool.remove(new)
        spare[letter[new]] -= 1
        s.stacks[owner][i][j] = new
    for owner in range(s.seats):
        if owner != seat:
            s.face_down[owner] = [card for i, stack in enumerate(s.stacks[owner]) for j, card in enumerate(stack)
                                  if (owner, i, j) in down]
    # the deck keeps its letters position by position
    by_letter: dict[str, list[str]] = {}
    for c in pool:
        by_letter.setdefault(letter[c], []).append(c)
    deck = [by_letter[letter[old]].pop() for old in s.deck]
    dealt = set(deck)
    pool = [c for c in pool if c not in dealt]  # what is left, in order, fills the hands (ids are unique)
    s.deck = deck
    for owner, card in zip(hand_slots, pool, strict=True):
        s.hands[owner].append(card)
    s.borough_deck.sort()
    rng.shuffle(s.borough_deck)
    if s.turn != seat:
        s.activated = [c for c in s.activated if c == "borough" or c in s.face_up_tops(s.turn)]
    s.rng = Rng(rng.getrandbits(64))
