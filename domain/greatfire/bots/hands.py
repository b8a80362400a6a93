"""What a seat reads from the rivals' whole history of fire moves: a belief over each rival's hand, kept exactly.

A hand is five cards of four kinds (N, E, S, W), so it has at most 56 compositions; the belief holds, for each
rival, a probability for every composition its hand size allows, and follows the hand through the game from the
seat's successive views (every version's, as a client receives them), as a hidden Markov model:

- at the first view the hand is dealt from the cards the seat has not seen (a multivariate hypergeometric draw);
- a rival about to choose a fire move (its fire phase, no card played yet) whose next view shows the card it
  played: every composition is weighed by the chance that a rival holding it plays that card, as the greedy bot
  would choose from that rival's seat (rating.rating of each card's best move, objectives left out and tokens of
  unknown kind, as belief.rival_moves rates them): a softmax (BETA per VP) over the distinct cards held that give
  a move, mixed with a uniform choice (SLIP: what the rating cannot see, the rival's objectives and tokens, or a
  rival that is no greedy bot); then the card leaves the hand;
- a rival in its discard phase (R8) holds no card that gives a move: compositions holding one are ruled out; the
  card discarded (the public discard pile grows by it) leaves the hand;
- a hand that grows draws each card in proportion to the cards the seat has not seen; a hand that shrinks with no
  card shown loses one of its cards at random.

Every older fire move counts, through the cards still held: a card the rival kept when it played a worse one
stays in its hand until it is played. A redeal (R15) starts every rival's hand afresh. HandWorlds draws worlds
for the search with each rival's hand drawn from its belief (the rivals in a random order, each from the cards
the others left), the deck and the box from the rest. No bot level uses it: bench/hand_information.py measures
with it how little greedy rivals' fire moves tell of their hands (docs/benchmarks.md, "What reading the table
could buy").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import product
from typing import Any

from firebreak.domain.greatfire.bots.belief import best_ratings, choosing_fire, rival_moves
from firebreak.domain.greatfire.components import CARDS, shipped_components
from firebreak.domain.greatfire.match import Determinizer, GreatFireMatch
from firebreak.domain.greatfire.state import Phase
from firebreak.domain.rng import Rng

BETA = 8.0     # softmax sharpness (per VP of rating) of a rival's modelled choice of card
SLIP = 0.1     # share of a rival's choices modelled as uniform among the cards it holds that give a move
Hand = tuple[int, int, int, int]  # cards held of each kind, in CARDS order
Dist = dict[Hand, float]
Rate = Callable[[dict[str, Any], int, int], dict[str, float]]  # (view, viewer, rival) -> best rating by card


def hands_of(size: int) -> list[Hand]:
    """Every composition of a hand of this size."""
    return [h for h in product(range(size + 1), repeat=4) if sum(h) == size]  # type: ignore[misc]


def composition(cards: list[str]) -> Hand:
    """A hand's composition."""
    return tuple(cards.count(c) for c in CARDS)  # type: ignore[return-value]


def dealt(size: int, pool: Hand) -> Dist:
    """The chance of each composition of a hand of this size dealt from the pool (hypergeometric)."""
    out: Dist = {h: float(math.prod(math.comb(p, k) for p, k in zip(pool, h, strict=True))) for h in hands_of(size)}
    return _normalised(out) or {h: 1.0 for h in hands_of(size)}


def _normalised(dist: Dist) -> Dist:
    total = sum(dist.values())
    return {h: p / total for h, p in dist.items() if p > 0} if total > 0 else {}


def unseen(view: dict[str, Any]) -> Hand:
    """The cards of each kind the seat has not seen: the deck less the face-up discard and its own hand."""
    deck = composition(shipped_components().fire_deck())
    own = composition(list(view["you"]["hand"]))
    left = [max(0, n - view["discardCards"][c] - k) for n, c, k in zip(deck, CARDS, own, strict=True)]
    return (left[0], left[1], left[2], left[3])


class RivalHand:
    """One rival's hand as a distribution over compositions."""

    def __init__(self, size: int, pool: Hand) -> None:
        self.size = size
        self.dist = dealt(size, pool)

    def weigh(self, likelihood: Callable[[Hand], float], pool: Hand) -> None:
        """Condition on evidence (a fresh deal from the pool when nothing held fits it)."""
        self.dist = _normalised({h: p * likelihood(h) for h, p in self.dist.items()}) or dealt(self.size, pool)

    def remove(self, card: str, pool: Hand) -> None:
        """The card left the hand (shown): hands without it are ruled out."""
        k = CARDS.index(card)
        held = _normalised({_minus(h, k): p for h, p in self.dist.items() if h[k]})
        self.size = max(0, self.size - 1)
        self.dist = held or dealt(self.size, pool)

    def lose(self) -> None:
        """A card left the hand unseen: each held card as likely as another."""
        out: Dist = {}
        for h, p in self.dist.items():
            for k, n in enumerate(h):
                if n:
                    key = _minus(h, k)
                    out[key] = out.get(key, 0.0) + p * n / self.size
        self.dist, self.size = out, self.size - 1

    def draw(self, pool: Hand) -> None:
        """A card joined the hand unseen, drawn from the cards the seat has not seen."""
        total = sum(pool)
        if not total:
            pool, total = (1, 1, 1, 1), 4
        out: Dist = {}
        for h, p in self.dist.items():
            for k, n in enumerate(pool):
                if n:
                    key = _plus(h, k)
                    out[key] = out.get(key, 0.0) + p * n / total
        self.dist, self.size = out, self.size + 1


def _minus(h: Hand, k: int) -> Hand:
    return tuple(n - (i == k) for i, n in enumerate(h))  # type: ignore[return-value]


def _plus(h: Hand, k: int) -> Hand:
    return tuple(n + (i == k) for i, n in enumerate(h))  # type: ignore[return-value]


def choice_likelihood(played: str, ratings: dict[str, float]) -> Callable[[Hand], float]:
    """The chance that a rival holding a composition plays the card: greedy's softmax, with SLIP uniform."""
    def likelihood(h: Hand) -> float:
        held = [c for c, n in zip(CARDS, h, strict=True) if n and c in ratings]
        if played not in held:
            return 0.0
        top = max(ratings[c] for c in held)
        mass = {c: math.exp(BETA * (ratings[c] - top)) for c in held}
        return (1 - SLIP) * mass[played] / sum(mass.values()) + SLIP / len(held)
    return likelihood


def best_by_card(view: dict[str, Any], viewer: int, rival: int) -> dict[str, float]:
    """The rating of the best fire move each card gives the rival, as greedy rates them from its seat (objectives
    left out); a card that gives no move is absent."""
    return best_ratings(rival_moves(view, viewer, rival), [])


class HandBelief:
    """One seat's belief over its rivals' hands, fed every view the seat sees, in order (observe)."""

    def __init__(self, seat: int, rate: Rate = best_by_card) -> None:
        self.seat, self.rate = seat, rate
        self.previous: dict[str, Any] | None = None
        self.rivals: dict[int, RivalHand] = {}

    def observe(self, view: dict[str, Any]) -> None:
        """Take in the seat's next view (a view of the same version again changes nothing)."""
        before = self.previous
        if before is not None and before["version"] == view["version"]:
            return
        self.previous = view
        pool = unseen(view)
        sizes = [row["handSize"] for row in view["players"]]
        if before is None or view["phase"] == Phase.REDEAL.value or before["phase"] == Phase.REDEAL.value:
            self.rivals = {r: RivalHand(sizes[r], pool) for r in range(len(sizes)) if r != self.seat}
            return
        shown = {c: view["discardCards"][c] - before["discardCards"][c] for c in CARDS}
        rival = choosing_fire(before)
        if rival is not None and rival != self.seat and view["turn"] == rival and view["stage"]["card"] is not None:
            played = view["stage"]["card"]
            hand = self.rivals[rival]
            hand.weigh(choice_likelihood(played, self.rate(before, self.seat, rival)), pool)
            hand.remove(played, pool)
            shown[played] -= 1
        if before["phase"] == Phase.DISCARD.value and before["turn"] != self.seat:
            rival = before["turn"]
            hand = self.rivals[rival]
            gives = set(self.rate(before, self.seat, rival))
            hand.weigh(lambda h: float(not any(n and c in gives for c, n in zip(CARDS, h, strict=True))), pool)
            for card in CARDS:
                if shown[card] > 0 and sizes[rival] < hand.size:
                    hand.remove(card, pool)
                    shown[card] -= 1
        for r, hand in self.rivals.items():
            while hand.size > sizes[r]:
                hand.lose()
            while hand.size < sizes[r]:
                hand.draw(pool)

    def hand(self, rival: int) -> Dist:
        """The rival's hand as a distribution over compositions."""
        return self.rivals[rival].dist


class HandWorlds:
    """Worlds for the search (search.Worlds): guesses from the view with each rival's hand drawn from the belief."""

    def __init__(self, view: dict[str, Any], seat: int, belief: HandBelief) -> None:
        self.det = Determinizer(view, seat)
        self.belief, self.seat = belief, seat
        self.sizes = [row["handSize"] for row in view["players"]]
        self.unseen = composition(list(self.det.unseen_cards))

    def sample(self, rng: Rng) -> GreatFireMatch:
        """One guess: the rivals' hands from the belief, the deck's fire cards and the box from the rest."""
        s = self.det.sample(rng)
        left = list(self.unseen)
        rivals = [r for r in range(len(self.sizes)) if r != self.seat]
        rng.shuffle(rivals)
        for r in rivals:
            known = self.belief.rivals.get(r)
            pool: Hand = tuple(left)  # type: ignore[assignment]
            dist = known.dist if known is not None and known.size == self.sizes[r] else dealt(self.sizes[r], pool)
            fits = _fitting(dist, pool) or _fitting(dealt(self.sizes[r], pool), pool)
            h = _pick(fits, rng)
            s.hands[r] = [c for c, k in zip(CARDS, h, strict=True) for _ in range(k)]
            left = [n - k for n, k in zip(left, h, strict=True)]
        cards = [c for c, n in zip(CARDS, left, strict=True) for _ in range(n)]
        rng.shuffle(cards)
        s.deck = [cards.pop() if slot is None else slot for slot in self.det.deck_slots]
        s.box = cards
        return s


def _fitting(dist: Dist, pool: Hand) -> list[tuple[Hand, float]]:
    """The compositions the pool can supply, with their weights."""
    return [(h, p) for h, p in dist.items() if all(k <= n for k, n in zip(h, pool, strict=True))]


def _pick(weighted: list[tuple[Hand, float]], rng: Rng) -> Hand:
    total = sum(p for _, p in weighted)
    pick = rng.next_u64() / 2.0 ** 64 * total
    for h, p in weighted:
        pick -= p
        if pick < 0:
            return h
    return weighted[-1][0]
