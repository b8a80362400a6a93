"""The rules of seeing for London's bots: a bot decides from its seat's view alone. Twins that differ only in
what the seat cannot see (other seats' unknown hand cards, their covered and face-down city cards, the deck order
within its A/B/C parts, the borough deck order, the engine's random state) must get the same decision from greedy
and from search at a fixed seed and iteration budget. The twin is made by hand here (scrambled), not by the
match's own resample, so a resample that leaked a hidden fact would be caught too."""

from __future__ import annotations

import random

import pytest

from firebreak.domain import titles
from firebreak.domain.bots import levels, random_choice
from firebreak.domain.contract import Budget
from firebreak.domain.london.bots import greedy
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.rng import Rng

TITLE = titles.get("london")
ITERATIONS = Budget(seconds=None, iterations=12)


def scrambled(m: LondonMatch, viewer: int) -> LondonMatch:
    """A copy of m that differs in every fact hidden from the viewer and in nothing it sees."""
    s = m.clone()
    letter = {c: s.card(c).deck for c in s.cat.cards}
    # the deck: each A/B/C part reversed in place (the view shows only how many of each letter are left)
    for part in "ABC":
        slots = [i for i, c in enumerate(s.deck) if letter[c] == part]
        cards = [s.deck[i] for i in slots][::-1]
        for i, c in zip(slots, cards, strict=True):
            s.deck[i] = c
    staged = {s.pending[k] for k in ("card", "discard") if k in s.pending} if s.pending else set()

    def swap_with_deck(card: str, city_only: bool) -> str:
        """A deck card of the same letter (a city card when it must lie in a city), put in the card's place."""
        for i in range(len(s.deck) - 1, -1, -1):
            other = s.deck[i]
            if letter[other] == letter[card] and (not city_only or s.card(other).kind == "city"):
                s.deck[i] = card
                return other
        return card

    for owner in range(s.seats):
        if owner == viewer:
            continue
        s.hands[owner] = [c if c in s.known[owner] or c in staged else swap_with_deck(c, False)
                          for c in s.hands[owner]]
        for stack in s.stacks[owner]:
            for j, card in enumerate(stack):
                if j < len(stack) - 1 or card in s.face_down[owner]:
                    new = swap_with_deck(card, True)
                    stack[j] = new
                    if card in s.face_down[owner]:
                        s.face_down[owner][s.face_down[owner].index(card)] = new
    s.borough_deck = s.borough_deck[::-1]
    s.rng = Rng(987654321)
    s.seed = m.seed + 1
    return s


def positions(seats: int, seed: int, every: int = 23) -> list[LondonMatch]:
    """Positions of a seeded game between a greedy seat and random seats, one every `every` steps."""
    m = TITLE.new_match(seats=seats, seed=seed)
    assert isinstance(m, LondonMatch)
    rng = random.Random(seed)
    out = []
    step = 0
    while not m.is_over() and len(out) < 8:
        seat = m.to_act()[0]
        if step % every == every - 1:
            out.append(m.clone())
        action = greedy.choose(m, seat, rng, Budget()) if seat == 0 else random_choice(m, seat, rng)
        m.apply(seat, action)
        step += 1
    return out


CASES = [(seats, seed) for seats, seed in ((2, 11), (3, 12), (4, 13))]


@pytest.mark.parametrize(("seats", "seed"), CASES)
def test_twins_that_differ_only_in_hidden_facts_get_the_same_decision(seats: int, seed: int) -> None:
    """Greedy and search, at a fixed rng seed and iteration budget, choose alike in a twin scrambled in every fact
    the seat to act cannot see (and the twin really differs: deck order, other hands, covered cards)."""
    search = levels(TITLE)["search"].choose
    compared = 0
    for m in positions(seats, seed):
        seat = m.turn
        twin = scrambled(m, seat)
        assert twin.view(seat) == m.view(seat)
        assert twin.to_dict() != m.to_dict()
        legal = m.legal_actions(seat)
        first = greedy.choose(m, seat, random.Random(5), Budget())
        assert first in legal
        assert greedy.choose(twin, seat, random.Random(5), Budget()) == first
        found = search(m, seat, random.Random(6), ITERATIONS)
        assert found in legal
        assert search(twin, seat, random.Random(6), ITERATIONS) == found
        compared += len(legal) > 1
    assert compared >= 3  # the positions held real choices, not only forced moves


def test_the_scramble_changes_what_other_seats_hold() -> None:
    """The twin is not the same match in disguise: other seats' unknown hand cards really differ."""
    m = positions(4, 13)[2]
    twin = scrambled(m, m.turn)
    others = [o for o in range(m.seats) if o != m.turn]
    assert any(sorted(twin.hands[o]) != sorted(m.hands[o]) for o in others)
    assert twin.deck != m.deck
