"""How good a state looks to one seat, from facts the seat knows: the R17 score, the threat, what is in reach.

The greedy bot and the search bot's action plans rate states with it. It reads the public board, the seat's
own colours, objectives and tokens, and every seat's put-out cones and the Hero of London card; it never
reads another seat's hand, objectives or tokens, nor what a face-down token is (UNKNOWN_TOKEN stands for a
token whose kind the seat has not seen).
"""

from __future__ import annotations

from dataclasses import dataclass

from firebreak.domain.greatfire.geometry import Geometry
from firebreak.domain.greatfire.rules import fire
from firebreak.domain.greatfire.state import ACTION_POINTS, HERO_THRESHOLD, HERO_VP, BurningGroups, State

UNKNOWN_TOKEN = "unknown"      # a token the seat holds or will take without having seen its kind
TOKEN_VALUE = {"victoryPoint": 1.0, "demolition": 0.5, "doubleMove": 0.5}
UNKNOWN_VALUE = 0.6            # the pool's mean: 10 charges and 6 double moves at 0.5, 4 one-VP tokens at 1
EXPOSURE = (0.0, 0.3, 0.45, 0.55)  # share of a district's value lost when 0, 1, 2, 3+ burning groups border it
GUARDED = 0.35                 # a free band covers the first cone that arrives (R6): that much of the risk stays
PUT_OUT_REACH = 0.35           # VP per contained cone the seat's pawn can reach and put out next turn
HERO_CHASE = 0.5               # VP for standing a put-out away from taking the Hero of London card


@dataclass(frozen=True)
class Reach:
    """Steps a pawn needs between districts (never through Pudding Lane), and the next step on the way."""

    steps: tuple[tuple[int, ...], ...]
    next_step: tuple[tuple[int, ...], ...]


_REACH: dict[int, tuple[Geometry, Reach]] = {}


def pawn_reach(geo: Geometry) -> Reach:
    """All-pairs pawn distances over the board (R11: any adjacent district but Pudding Lane), cached."""
    cached = _REACH.get(id(geo))
    if cached is not None and cached[0] is geo:
        return cached[1]
    steps: list[tuple[int, ...]] = []
    next_step: list[tuple[int, ...]] = []
    for target in range(len(geo.ids)):
        dist, hop = geo.paths_to(target)  # dist[d]: d's distance to target, hop[d]: its next step
        steps.append(tuple(dist))
        next_step.append(tuple(hop))
    reach = Reach(tuple(steps), tuple(next_step))  # steps[target][d]: from d to target
    _REACH[id(geo)] = (geo, reach)
    return reach


@dataclass(frozen=True)
class Threat:
    """Where the fire threatens, for every seat alike (it depends on the cones and bands only)."""

    bordering: tuple[int, ...]  # districts not burning that border a group that can spread, by index
    risks: dict[int, float]     # exposure() of those districts
    contained: tuple[int, ...]  # districts on fire and contained (bands >= cones > 0)


THREATS_KEPT = 1024
_THREATS: dict[int, tuple[BurningGroups, Threat]] = {}


def threat(s: State, found: BurningGroups) -> Threat:
    """The threat of the state's fire (found: fire.groups(s)), kept by fire state: fire.groups answers equal fire
    states with the same object."""
    known = _THREATS.get(id(found))
    if known is not None and known[0] is found:
        return known[1]
    label, adjacent = found.label, s.geo.adjacent
    cones, bands = s.cones, s.bands
    around: dict[int, set[int]] = {}  # district not burning -> the groups that can spread next to it
    for d in found.live_members:
        group = label[d]
        for e in adjacent[d]:
            if label[e] == -1:
                if e in around:
                    around[e].add(group)
                else:
                    around[e] = {group}
    risks = {e: _risk(len(groups), bands[e] > cones[e]) for e, groups in around.items()}  # as exposure() has it
    out = Threat(tuple(sorted(around)), risks, tuple(d for d, c in enumerate(cones) if c and c <= bands[d]))
    if len(_THREATS) >= THREATS_KEPT:
        _THREATS.clear()
    _THREATS[id(found)] = (found, out)  # found is held, so its id is not reused while the entry stands
    return out


def rating(s: State, seat: int) -> float:
    """The seat's R17 score less what the fire threatens, plus put-outs in reach, against the rivals' mean."""
    geo = s.geo
    own = s.colours[seat]
    houses = s.houses
    found = fire.groups(s)
    label = found.label
    threatened = threat(s, found)
    risks = threatened.risks
    standing = [*map(sum, zip(*houses, strict=True))]  # houses standing by colour
    mine = 0
    for c in own:
        mine += standing[c]
    other = sum(standing) - mine
    # Exposure: the standing houses of districts that are not burning but border a group that can spread,
    # added up by district index.
    own_risk = other_risk = 0.0
    single = own[0] if len(own) == 1 else None  # one colour a seat from 3 seats on
    for d in threatened.bordering:
        row = houses[d]
        total = sum(row)
        if not total:
            continue
        risk = risks[d]
        held = row[single] if single is not None else sum([row[c] for c in own])
        own_risk += 2 * held * risk
        other_risk += 2 * (total - held) * risk
    objective_vp = 0.0
    for d in sorted({geo.index[o] for o in s.objectives[seat]}):
        if label[d] == -1 and any(houses[d]):  # a bordering one with houses has its risk from the loop above
            objective_vp += geo.objective_vp[d] * (1 - risks.get(d, 0.0))
    put_out = s.put_out[seat]
    mine_total = (2 * mine - own_risk + put_out + objective_vp + token_value(s.tokens[seat])
                  + HERO_VP * (s.hero == seat) + put_out_reach(s, seat, threatened.contained))
    rivals = max(1, s.seats - 1)
    rivals_put_out = sum(s.put_out) - put_out + (HERO_VP if s.hero is not None and s.hero != seat else 0)
    return mine_total - (2 * other - other_risk + rivals_put_out) / rivals


def exposure(s: State, d: int, label: tuple[int, ...], live: frozenset[int]) -> float:
    """The share of a district's value the fire threatens: by how many groups that can spread border it (fire.groups'
    label and live groups), less when a free band guards it (R6); 0 when none borders it."""
    groups = {label[e] for e in s.geo.adjacent[d] if label[e] in live}
    return _risk(len(groups), s.bands[d] > s.cones[d]) if groups else 0.0


def _risk(groups: int, guarded: bool) -> float:
    """The exposure of a district that borders this many groups that can spread (at least one), guarded or not."""
    risk = EXPOSURE[min(groups, 3)]
    return risk * GUARDED if guarded else risk


def token_value(tokens: list[str]) -> float:
    """VP the held tokens are worth: one-VP tokens score, charges and double moves are worth spending well."""
    return sum(TOKEN_VALUE.get(t, UNKNOWN_VALUE) for t in tokens)


def put_out_reach(s: State, seat: int, contained: tuple[int, ...] | None = None) -> float:
    """Contained cones the seat's pawns can put out next turn (and the Hero card they would bring); contained:
    the contained districts when the caller has them (Threat.contained)."""
    if contained is None:
        contained = threat(s, fire.groups(s)).contained
    if not contained:
        return 0.0
    steps = pawn_reach(s.geo).steps
    best = 0
    for at in s.pawns[seat]:
        if at < 0:
            continue
        for d in contained:
            best = max(best, min(s.cones[d], ACTION_POINTS - steps[d][at]))
    value = PUT_OUT_REACH * best
    holder = s.hero
    need = HERO_THRESHOLD if holder is None else s.put_out[holder] + 1
    if holder != seat and best and s.put_out[seat] + best >= need:
        value += HERO_CHASE
    return value
