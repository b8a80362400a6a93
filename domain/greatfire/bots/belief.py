"""What a seat reads from the rivals' fire moves: a belief over their hands, kept from the views it has seen.

The belief reads nothing but the seat's successive views (every version's, as a client receives them). When a
view shows a rival about to choose a fire move (its fire phase, no card played yet) and the next view shows the
card it played, the belief rates, as the greedy bot would from that rival's seat (rating.rating), the best fire
move each card would have given: a rival that played a card while another would have rated better most likely
did not hold the other. Objectives stay unknown (the rating leaves them out) and tokens count as of unknown kind,
so the rating is a function of the view alone.

The evidence weighs a guessed world (a determinization): the rival's hand when it chose is its hand in the world
with the card it has drawn since taken out (any of them, averaged) and the played card put back; the
likelihood of the played card is a softmax (BETA) of the cards' ratings over the distinct cards of that hand.
Only each rival's last fire move counts. BeliefWorlds draws CANDIDATES guesses from the uniform sampler and keeps
one in proportion to its weight (importance resampling).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from firebreak.domain.greatfire.bots.lookahead import fire_moves, play_fire_move
from firebreak.domain.greatfire.bots.rating import UNKNOWN_TOKEN, exposure, rating
from firebreak.domain.greatfire.components import CARDS, DECKS
from firebreak.domain.greatfire.match import Determinizer, GreatFireMatch
from firebreak.domain.greatfire.rules import fire
from firebreak.domain.greatfire.state import Phase
from firebreak.domain.rng import Rng

BETA = 8.0        # softmax sharpness (per VP of rating) of the rivals' modelled choice of card
CANDIDATES = 32    # uniform guesses drawn per world kept


@dataclass(frozen=True)
class Move:
    """One fire move a rival could have made: its card, the rating of its outcome without objectives, and what
    each district that can be an objective would add to that rating (rating.rating's objective term)."""

    card: str
    base: float
    objectives: dict[str, float]


@dataclass(frozen=True)
class Evidence:
    """A rival's last fire move: the card it played, the moves it could have made, its hand size then."""

    seat: int
    played: str
    moves: tuple[Move, ...]
    hand_size: int

    def ratings(self, objectives: list[str]) -> dict[str, float]:
        """best_ratings of the moves the rival could have made."""
        return best_ratings(self.moves, objectives)


def best_ratings(moves: tuple[Move, ...], objectives: list[str]) -> dict[str, float]:
    """The best rating of a move with each card that gives one, for a rival holding these objectives."""
    best: dict[str, float] = {}
    held = set(objectives)  # once, not once a move
    for move in moves:
        value = move.base + sum(move.objectives.get(o, 0.0) for o in held)
        if move.card not in best or value > best[move.card]:
            best[move.card] = value
    return best


def choosing_fire(view: dict[str, Any]) -> int | None:
    """The seat about to choose a fire move with a card from its hand (no card played yet), else None."""
    if view["phase"] != Phase.FIRE.value:
        return None
    stage = view["stage"]
    if stage["card"] is not None or stage["source"] is not None:
        return None
    turn: int | None = view["turn"]
    return turn


def objective_values(s: GreatFireMatch) -> dict[str, float]:
    """What each district that can be an objective adds to rating.rating for its holder (the same term)."""
    geo = s.geo
    found = fire.groups(s)
    label, live = found.label, found.live
    out: dict[str, float] = {}
    for district_id in _objective_districts(s):
        d = geo.index[district_id]
        burning_or_empty = not sum(s.houses[d]) or label[d] != -1
        out[district_id] = 0.0 if burning_or_empty else geo.objective_vp[d] * (1 - exposure(s, d, label, live))
    return out


def _objective_districts(s: GreatFireMatch) -> list[str]:
    return sorted({d for deck in DECKS for d in s.comps.objective_decks[deck]})


def rival_moves(view: dict[str, Any], viewer: int, rival: int) -> tuple[Move, ...]:
    """Every fire move the rival could make with any card, rated as greedy rates them from the rival's seat, from
    the viewer's view (the rival's objectives left out, its tokens and the face-down ones of unknown kind)."""
    world = Determinizer(view, viewer).sample(Rng.from_seed(view["version"]))  # only public facts are read
    world.hands[rival] = list(CARDS)
    world.objectives[rival] = []
    world.tokens[rival] = [UNKNOWN_TOKEN] * len(world.tokens[rival])
    world.board_tokens = [None if t is None else UNKNOWN_TOKEN for t in world.board_tokens]
    out = []
    for move in fire_moves(world, rival, None):
        trial = world.clone()
        play_fire_move(trial, rival, move)
        assert move.card is not None
        out.append(Move(move.card, rating(trial, rival), objective_values(trial)))
    return tuple(out)


class Belief:
    """One seat's reading of the rivals' fire moves, fed every view the seat sees, in order (observe)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.previous: dict[str, Any] | None = None
        self.evidence: dict[int, Evidence] = {}

    def observe(self, view: dict[str, Any]) -> None:
        """Take in the seat's next view (a view of the same version again changes nothing)."""
        before = self.previous
        if before is not None and before["version"] == view["version"]:
            return
        self.previous = view
        if before is None:
            return
        rival = choosing_fire(before)
        if rival is None or rival == self.seat or view["phase"] != Phase.FIRE.value or view["turn"] != rival:
            return
        played = view["stage"]["card"]
        if played is None:
            return
        moves = rival_moves(before, self.seat, rival)
        if not any(m.card == played for m in moves):
            return  # not a move greedy's table knows: no evidence
        size = before["players"][rival]["handSize"]
        self.evidence[rival] = Evidence(rival, played, moves, size)

    def likelihood(self, world: GreatFireMatch) -> float:
        """How likely the rivals' last fire moves are if their hands are as in the world (up to a constant)."""
        weight = 1.0
        for ev in self.evidence.values():
            weight *= _seat_likelihood(ev, world.hands[ev.seat], ev.ratings(world.objectives[ev.seat]))
        return weight


def _seat_likelihood(ev: Evidence, hand: list[str], ratings: dict[str, float]) -> float:
    """The played card's likelihood given the hand now, averaged over which card was drawn since."""
    drawn = len(hand) - (ev.hand_size - 1)
    if drawn == 0:
        return _choice(ev.played, [*hand, ev.played], ratings)
    if drawn != 1 or not hand:
        return 1.0  # not a plain draw since (the hand was shown or cut): no evidence
    total = 0.0
    for k in range(len(hand)):
        total += _choice(ev.played, [*hand[:k], *hand[k + 1:], ev.played], ratings)
    return total / len(hand)


def _choice(played: str, hand: list[str], ratings: dict[str, float]) -> float:
    """Softmax likelihood of playing the card among the distinct cards of the hand that give a move."""
    held = [c for c in set(hand) if c in ratings]
    top = max(ratings[c] for c in held)
    mass = {c: math.exp(BETA * (ratings[c] - top)) for c in held}
    return mass[played] / sum(mass.values())


class BeliefWorlds:
    """Worlds for the search (search.Worlds): guesses from the view, resampled by the belief's weights."""

    def __init__(self, view: dict[str, Any], seat: int, belief: Belief, candidates: int = CANDIDATES) -> None:
        self.det = Determinizer(view, seat)
        self.belief, self.candidates = belief, candidates

    def sample(self, rng: Rng) -> GreatFireMatch:
        """One guess, drawn among CANDIDATES uniform guesses in proportion to the belief's weight."""
        if not self.belief.evidence:
            return self.det.sample(rng)
        guesses = [self.det.sample(Rng(rng.next_u64())) for _ in range(self.candidates)]
        weights = [self.belief.likelihood(g) for g in guesses]
        total = sum(weights)
        pick = rng.next_u64() / 2.0 ** 64 * total
        for guess, w in zip(guesses, weights, strict=True):
            pick -= w
            if pick < 0:
                return guess
        return guesses[-1]
