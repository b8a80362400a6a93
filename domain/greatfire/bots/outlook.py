"""A seat's outlook: its final score against the rivals', estimated from the position by a fitted sum.

The search scores a rollout's outcome with this (search.py's leaf). The weights were
fitted (least squares: `python -m bench.greatfire_fit`) to the final margins of seeded 4-seat games of greedy bots,
a share of their positions sampled, as London's outlook was (domain/london/bots/outlook.py).

Each seat's position is a handful of plain quantities (features()): its houses by how far they stand from a fire
that can spread, its objectives the same way, what it has banked (put-out cones, one-VP tokens, the Hero of London
card), the tokens it holds to spend, the put-outs in its pawns' reach; the ones the fire can still take are also
weighted by how much of the deck is left. Its standing is their weighted sum, and a pair's estimated final margin
the difference of their standings.

It reads the full state it is given: the search hands it a world the seat sampled itself (a determinization), so
it reads only that seat's guesses of what it cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from firebreak.domain.greatfire.bots.rating import exposure, put_out_reach
from firebreak.domain.greatfire.rules import fire, scoring
from firebreak.domain.greatfire.state import BurningGroups, State

FAR = 3  # districts this many steps or more from a fire that can spread count as out of its reach


@dataclass(frozen=True)
class Features:
    """One seat's position as the fitted sum reads it (the names bench/greatfire_fit.py fits weights to); as
    Coefficients, the final VP per unit of each."""

    houses_far: float      # own houses FAR or more steps from a fire that can spread (or with none burning)
    houses_near: float     # own houses two steps from it
    houses_edge: float     # own houses bordering it (or in a district burning again: its band left a contained fire)
    houses_risk: float     # own houses times rating.py's exposure of their district (the groups bordering it)
    far_left: float        # houses_far times the share of the deck left
    near_left: float       # houses_near times the share of the deck left
    edge_left: float       # houses_edge times the share of the deck left
    risk_left: float       # houses_risk times the share of the deck left
    houses_banded: float   # own houses guarded by a free trained band (R5 sends the fire elsewhere first, R6)
    pawns_near: float      # own pawns on or next to a district with cones (put-outs to come)
    objectives_far: float  # VP of own objectives that survive now, FAR or more steps from a spreading fire
    objectives_near: float  # the same, closer
    objectives_near_left: float  # objectives_near times the share of the deck left
    put_out: float         # cones put out
    hero: float            # 1 while the seat holds the Hero of London card
    vp_tokens: float       # one-VP tokens
    held_tokens: float     # demolition and double-move tokens held
    reach: float           # the put-outs its pawns can reach next turn (rating.py's, in VP)
    to_move: float         # 1 when it is the seat's turn


Coefficients = Features
NAMES = tuple(f.name for f in fields(Features))

# Fitted by `python -m bench.greatfire_fit --games 1500 --sample 0.1` (4 seats): on the held-out games the sum explains
# 40.3% of the final margin's variance (the hand-weighted lookahead.standings 35.5%), and the margins spread 5.97 VP
# about it.
COEFFICIENTS = Coefficients(
    houses_far=2.032, houses_near=1.831, houses_edge=1.15, houses_risk=0.578, far_left=-1.363, near_left=-1.579,
    edge_left=-1.546, risk_left=0.655, houses_banded=0.268, pawns_near=0.308, objectives_far=0.809,
    objectives_near=0.755, objectives_near_left=-0.269, put_out=0.785, hero=1.056, vp_tokens=0.989, held_tokens=0.121,
    reach=0.685, to_move=0.124)


def distances(s: State, found: BurningGroups | None = None) -> list[int]:
    """Each district's steps from the nearest burning district of a group that can spread (0 on it; FAR when none
    is within FAR steps); found: fire.groups(s) when the caller has it."""
    found = found or fire.groups(s)
    dist = [FAR] * len(s.cones)
    frontier = list(found.live_members)
    for d in frontier:
        dist[d] = 0
    adjacent = s.geo.adjacent
    for step in range(1, FAR):
        nxt = []
        for d in frontier:
            for e in adjacent[d]:
                if dist[e] == FAR:
                    dist[e] = step
                    nxt.append(e)
        frontier = nxt
    return dist


def deck_left(s: State) -> float:
    """The deck against the deck and the played cards: 1 at the start, 0 once the last card is drawn."""
    return len(s.deck) / (len(s.deck) + len(s.discard)) if s.deck else 0.0


def features(s: State) -> list[Features]:
    """Every seat's features in the state."""
    geo = s.geo
    found = fire.groups(s)
    dist = distances(s, found)
    label, live = found.label, found.live
    left = deck_left(s)
    adjacent = geo.adjacent
    fiery = [bool(s.cones[d]) or any(s.cones[e] for e in adjacent[d]) for d in range(len(s.cones))]
    risk = [exposure(s, d, label, live) if dist[d] == 1 else 0.0 for d in range(len(dist))]
    out = []
    for seat in range(s.seats):
        own = s.colours[seat]
        by_distance = [0.0] * (FAR + 1)
        at_risk = banded = 0.0
        for d, row in enumerate(s.houses):
            held = sum([row[c] for c in own])
            if held:
                by_distance[max(dist[d], 1)] += held
                at_risk += held * risk[d]
                if s.bands[d] > s.cones[d]:
                    banded += held
        objective_far = objective_near = 0.0
        for o in s.objectives[seat]:
            d = geo.index[o]
            if scoring.survives(s, d):
                if dist[d] >= FAR:
                    objective_far += geo.objective_vp[d]
                else:
                    objective_near += geo.objective_vp[d]
        tokens = s.tokens[seat]
        near, edge = by_distance[2], by_distance[1]
        out.append(Features(
            houses_far=by_distance[FAR], houses_near=near, houses_edge=edge, houses_risk=at_risk,
            far_left=by_distance[FAR] * left, near_left=near * left, edge_left=edge * left, risk_left=at_risk * left,
            houses_banded=banded, pawns_near=sum(1 for at in s.pawns[seat] if at >= 0 and fiery[at]),
            objectives_far=objective_far, objectives_near=objective_near, objectives_near_left=objective_near * left,
            put_out=s.put_out[seat], hero=float(s.hero == seat), vp_tokens=tokens.count("victoryPoint"),
            held_tokens=len(tokens) - tokens.count("victoryPoint"), reach=put_out_reach(s, seat),
            to_move=float(s.turn == seat)))
    return out


def weighted(f: Features, k: Coefficients = COEFFICIENTS) -> float:
    """The seat's standing: its features' weighted sum."""
    return float(sum(getattr(f, name) * getattr(k, name) for name in NAMES))


def lead(s: State, seat: int, k: Coefficients = COEFFICIENTS) -> float:
    """The seat's standing against the rivals': half against the best, half against their mean (as the
    hand-weighted leaf before it did)."""
    standings = [weighted(f, k) for f in features(s)]
    mine = standings.pop(seat)
    return mine - 0.5 * max(standings) - 0.5 * sum(standings) / len(standings)
