"""Action-phase plans: short sequences of actions that spend the 4 action points towards one aim, and their rating.

An aim is a macro: walk a pawn to a contained fire and put it out, bring enough free bands to contain a burning
district, guard a threatened district with a free band, blow up a district as a fire break. A plan is one
macro, or the best second macro after one of the most promising first ones (one step of look-ahead, within the
action points left). Each plan is played on the state itself through the action table (actions.py) and rated by
rating.rating, then undone, so only legal sequences are ever rated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firebreak.domain.contract import Action
from firebreak.domain.greatfire.bots.lookahead import apply
from firebreak.domain.greatfire.bots.rating import pawn_reach, rating
from firebreak.domain.greatfire.state import Phase, State

FIRST_KEPT = 6          # first macros whose best follow-up is searched
Steps = tuple[Action, ...]
END: Action = {"type": "endActions"}


@dataclass(frozen=True)
class Plan:
    """Actions to take in order (endActions not included) and the rating of the state they lead to."""

    steps: Steps
    value: float


def _save(s: State) -> tuple[Any, ...]:
    """The facts an actions-phase action may change. A district's row of houses is only ever replaced by the
    actions (a demolition empties it: rules/actions.py), never changed in place, so the rows are shared."""
    return (list(s.cones), list(s.bands), [list(p) for p in s.pawns], list(s.put_out), s.hero, s.ap,
            [list(t) for t in s.tokens], list(s.houses), list(s.demolished), list(s.board_tokens), s.version)


def _restore(s: State, saved: tuple[Any, ...]) -> None:
    (cones, bands, pawns, put_out, s.hero, s.ap, tokens, houses, demolished, board_tokens, s.version) = saved
    s.cones, s.bands, s.put_out = list(cones), list(bands), list(put_out)
    s.pawns, s.tokens = [list(p) for p in pawns], [list(t) for t in tokens]
    s.houses, s.demolished, s.board_tokens = list(houses), list(demolished), list(board_tokens)


def _play(s: State, seat: int, steps: Steps) -> None:
    for action in steps:
        apply(s, seat, action)


def band_crossable(s: State) -> list[bool]:
    """Where a band may pass on its way: every district that is not burning (R11: it stops on an uncovered cone)."""
    return [c <= b for c, b in zip(s.cones, s.bands, strict=True)]


def band_paths(s: State, target: int, within: int, crossable: list[bool]) -> tuple[list[int], list[int]]:
    """Steps a band needs from each district to target and its next step, at most `within` steps (the action
    points left; further districts count as far).

    Breadth first from the target over districts a band can cross (band_crossable(s)): not Pudding Lane and
    not burning.
    """
    return s.geo.paths_to(target, crossable, within)


def in_reach(to_target: tuple[int, ...], free: list[int], need: int, within: int) -> bool:
    """False when `need` units of the free bands cannot reach the target in `within` steps even over burning
    districts (to_target: the pawns' steps to it, pawn_reach(geo).steps[target], a lower bound of the bands'): no
    band path search needed then."""
    return min([to_target[b] for b in free]) * need <= within


def _walk(ids: tuple[str, ...], hop: list[int] | tuple[int, ...], start: int, steps: int,
          kind: str, pawn: int = 0) -> list[Action]:
    out: list[Action] = []
    at = start
    for _ in range(steps):
        nxt = hop[at]
        if kind == "pawn":
            out.append({"type": "movePawn", "pawn": pawn, "to": ids[nxt]})
        else:
            out.append({"type": "moveBand", "from": ids[at], "to": ids[nxt]})
        at = nxt
    return out


def macros(s: State, seat: int) -> list[Steps]:
    """Candidate aims for the action points left (each a legal sequence)."""
    geo, ids, ap = s.geo, s.geo.ids, s.ap
    cones, bands = s.cones, s.bands
    n = len(ids)
    reach = pawn_reach(geo)
    contained = [d for d in range(n) if 0 < cones[d] <= bands[d]]
    out: list[Steps] = []
    for pawn, at in enumerate(s.pawns[seat]):
        for d in contained:
            k = reach.steps[d][at]
            walk = _walk(ids, reach.next_step[d], at, min(k, ap), "pawn", pawn)
            outs = min(cones[d], ap - k) if k <= ap else 0
            steps = tuple(walk) + ({"type": "putOut", "district": ids[d]},) * outs
            if steps:
                out.append(steps)
    free = [d for d in range(n) if bands[d] > cones[d]]
    if not free:
        return out + _demolitions(s, seat, free)
    own, objectives, houses, adjacent = s.colours[seat], s.objectives[seat], s.houses, geo.adjacent
    crossable = band_crossable(s)
    for t in range(n):
        if t == geo.origin:
            continue
        if cones[t] > bands[t]:  # burning: contain it
            need = cones[t] - bands[t]
        elif (cones[t] or bands[t] or not any(houses[t]) or not any(cones[e] > bands[e] for e in adjacent[t])
              or not (any(houses[t][c] for c in own) or ids[t] in objectives)):
            continue
        else:  # guard an own or objective district with houses next to a burning one
            need = 1
        if not in_reach(reach.steps[t], free, need, ap):
            continue
        dist, hop = band_paths(s, t, ap, crossable)
        units = sorted((dist[b], b) for b in free for _ in range(bands[b] - cones[b]) if dist[b] <= ap)
        if len(units) < need or sum(k for k, _ in units[:need]) > ap:
            continue
        steps_list: list[Action] = []
        for k, b in units[:need]:
            steps_list.extend(_walk(ids, hop, b, k, "band"))
        out.append(tuple(steps_list))
    return out + _demolitions(s, seat, free)


def _demolitions(s: State, seat: int, free: list[int]) -> list[Steps]:
    """R11c: bring a free band to a district next to the fire (or use one there) and blow it up."""
    if "demolition" not in s.tokens[seat]:
        return []
    geo, ids = s.geo, s.geo.ids
    crossable = band_crossable(s)
    out: list[Steps] = []
    for d in range(len(ids)):
        if (s.cones[d] or not geo.burnable[d] or s.demolished[d] or (geo.size[d] >= 3 and any(s.houses[d]))
                or not any(s.cones[e] for e in geo.adjacent[d])):
            continue
        blow: Action = {"type": "demolish", "district": ids[d]}
        if s.bands[d]:
            out.append((blow,))
            continue
        if not free or not in_reach(pawn_reach(geo).steps[d], free, 1, s.ap):
            continue
        dist, hop = band_paths(s, d, s.ap, crossable)
        near = [(dist[b], b) for b in free if dist[b] <= s.ap]
        if near:
            k, b = min(near)
            out.append((*_walk(ids, hop, b, k, "band"), blow))
    return out


def best_plans(s: State, seat: int) -> list[Plan]:
    """Every plan considered, best first (ties: the shorter plan); the empty plan means ending the phase."""
    assert s.phase is Phase.ACTIONS and s.turn == seat
    base = _save(s)
    plans: dict[tuple[Any, ...], Plan] = {}

    def keep(steps: Steps, value: float) -> None:
        key = tuple(tuple(a.values()) for a in steps)  # an action's type leads its fields, in one order per type
        if key not in plans or plans[key].value < value:
            plans[key] = Plan(steps, value)

    keep((), rating(s, seat))
    first: list[tuple[float, Steps]] = []
    for steps in macros(s, seat):
        _play(s, seat, steps)
        first.append((rating(s, seat), steps))
        _restore(s, base)
    first.sort(key=lambda item: (-item[0], len(item[1])))
    for k, (value, steps) in enumerate(first):
        keep(steps, value)
        if k >= FIRST_KEPT:
            continue
        _play(s, seat, steps)
        after = _save(s)
        for more in macros(s, seat):
            _play(s, seat, more)
            keep(steps + more, rating(s, seat))
            _restore(s, after)
        _restore(s, base)
    return sorted(plans.values(), key=lambda p: (-p.value, len(p.steps)))
