"""Cheap playouts for the search bot: a fast heuristic policy for every seat, and the leaf evaluation.

Both run on a full state the searching seat sampled itself (a determinization), so reading any field here
reads only that seat's own guess of the hidden facts. Actions go straight to the rules modules: the policy
builds them from the same functions that list the legal ones, so the listing and its checks are skipped.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domain.contract import Action, Event
from domain.greatfire import fire, npc, scoring, setup, turns
from domain.greatfire.actions import demolition_sites
from domain.greatfire.components import CARDS
from domain.greatfire.plans import band_crossable, band_paths, in_reach
from domain.greatfire.rating import EXPOSURE, pawn_reach
from domain.greatfire.state import Phase, State

THREAT = 2 * EXPOSURE[1]  # VP an own house next to a burning district is counted short (as rating.rating does)
TOKEN_VALUE = 0.5     # VP a face-down token is worth to the seat that burns its district
HELD_TOKEN_VALUE = 0.5  # VP a held demolition or double-move token is worth (spent only for a gain)
NOISE = 1.0           # VP of uniform noise on the policy's fire choices, so playouts differ
MAX_STEPS = 400       # safety cap on the decisions of one playout


@dataclass(frozen=True)
class FireMove:
    """One complete fire move: the card (None when already played), the source and the target."""

    card: str | None
    source: int
    target: int


def apply(s: State, seat: int, action: Action) -> None:
    """Apply an action known to be legal, without listing the legal actions first."""
    events: list[Event] = []
    if s.phase in (Phase.PLACE_BANDS, Phase.PLACE_PAWNS, Phase.REDEAL):
        setup.apply_setup(s, seat, action, events)
    else:
        turns.apply_turn(s, seat, action, events)
    s.version += 1


def colour_weights(s: State, seat: int) -> list[float]:
    """VP a house of each colour is worth to the seat: -2 own, +2 shared among the rivals, 0 unowned."""
    weights = [0.0] * len(s.comps.colours)
    rivals = max(1, s.seats - 1)
    for other in range(s.seats):
        for c in s.colours[other]:
            weights[c] += -2.0 if other == seat else 2.0 / rivals
    return weights


def house_worth(row: list[int], weights: list[float]) -> float:
    """VP a district's houses are worth to the seat whose colour_weights these are."""
    return sum(n * w for n, w in zip(row, weights, strict=True) if n)


def target_value(s: State, seat: int, target: int, weights: list[float], worth: dict[int, float]) -> float:
    """What burning the target is worth to the seat: houses and objectives lost, a token, the new threat.

    worth memoises house_worth by district for one state and one set of weights (start it empty).
    """
    if s.bands[target] > s.cones[target]:
        return 0.0  # R6: a free band covers the arriving cone; nothing burns
    geo = s.geo
    row = s.houses[target]
    value = house_worth(row, weights)
    district = geo.ids[target]
    vp = geo.objective_vp[target]
    if vp and any(row):
        rivals = max(1, s.seats - 1)
        for other in range(s.seats):
            if district in s.objectives[other]:
                value += -vp if other == seat else vp / rivals
    if s.board_tokens[target] is not None:
        value += TOKEN_VALUE
    cones, bands, houses = s.cones, s.bands, s.houses
    for e in geo.adjacent[target]:
        if cones[e] <= bands[e]:
            near = worth.get(e)
            if near is None:
                near = worth[e] = house_worth(houses[e], weights)
            value += 0.5 * THREAT * near
    return value


def fire_moves(s: State, seat: int, played: str | None) -> list[FireMove]:
    """Every distinct complete fire move with the card already played (None: with each playable card).

    Per card, burning group and target (R1-R5, as fire.py lists them, in one pass): the canonical source
    (Pudding Lane, else the most cones) and any source whose loss of a cone leaves it contained, the only
    way the choice of source changes much.
    """
    geo = s.geo
    cones, bands = s.cones, s.bands
    found = fire.groups(s)
    label = found.label
    sources: dict[int, list[int]] = {}
    for d in found.live_members:
        if cones[d] >= 2:
            sources.setdefault(label[d], []).append(d)
    if not sources:
        return []
    cards = [played] if played is not None else [c for c in CARDS if c in s.hands[seat]]
    picks: dict[int, list[int]] = {}
    for group, options in sources.items():
        canonical = geo.origin if geo.origin in options else max(options, key=cones.__getitem__)
        picks[group] = [canonical] + [d for d in options if d != canonical and bands[d] and cones[d] == bands[d] + 1]
    out: list[FireMove] = []
    for c in cards:
        for group, targets in fire.group_reach(s, c, label, found.live_members).items():
            for target in fire.best_class(s, targets):
                out.extend(FireMove(None if played else c, d, target) for d in picks[group])
    return out


def play_fire_move(s: State, seat: int, move: FireMove) -> None:
    """Play a whole fire move (its card when not yet played, the source, the target)."""
    ids = s.geo.ids
    if move.card is not None:
        apply(s, seat, {"type": "playCard", "card": move.card})
    apply(s, seat, {"type": "chooseSource", "district": ids[move.source]})
    apply(s, seat, {"type": "spreadFire", "district": ids[move.target]})


def _best_fire_move(s: State, seat: int, card: str | None, rng: random.Random) -> tuple[FireMove, float] | None:
    weights = colour_weights(s, seat)
    best: tuple[FireMove, float] | None = None
    seen: dict[int, float] = {}
    worth: dict[int, float] = {}
    for move in fire_moves(s, seat, card):
        if move.target not in seen:
            seen[move.target] = target_value(s, seat, move.target, weights, worth)
        value = seen[move.target] + NOISE * rng.random()
        if best is None or value > best[1]:
            best = (move, value)
    return best


def policy_step(s: State, rng: random.Random) -> None:
    """Take the policy's next decision (a whole fire move or action phase at once) for the seat to act."""
    seat = s.turn
    phase = s.phase
    if phase is Phase.NON_PLAYER:
        npc.step(s, [])
        s.version += 1
    elif phase is Phase.FIRE:
        _fire_phase(s, seat, rng)
    elif phase is Phase.ACTIONS:
        _actions_phase(s, seat)
    elif phase is Phase.PLACE_CONES:
        weights = colour_weights(s, seat)
        sites = fire.placeable(s)
        geo = s.geo

        def threat(d: int) -> float:
            return sum(n * w for e in geo.adjacent[d] for n, w in zip(s.houses[e], weights, strict=True) if n)

        pick = max(sites, key=lambda d: threat(d) + rng.random())
        apply(s, seat, {"type": "placeCone", "district": geo.ids[pick]})
    elif phase is Phase.DISCARD:
        apply(s, seat, {"type": "discard", "card": rng.choice(sorted(set(s.hands[seat])))})
    elif phase is Phase.NON_PLAYER_CHOICE:
        assert s.npc_choice is not None
        apply(s, seat, {"type": "breakTie", "district": rng.choice(s.npc_choice["options"])})
    elif phase in (Phase.PLACE_BANDS, Phase.PLACE_PAWNS):
        kind = "placeBand" if phase is Phase.PLACE_BANDS else "placePawn"
        apply(s, seat, {"type": kind, "district": s.geo.ids[rng.choice(s.geo.setup_sites)]})
    elif phase is Phase.REDEAL:
        apply(s, seat, {"type": "keepHand"})


def _fire_phase(s: State, seat: int, rng: random.Random) -> None:
    if s.source is not None:
        assert s.card is not None
        targets = fire.targets(s, s.card, s.source)
        weights = colour_weights(s, seat)
        worth: dict[int, float] = {}
        pick = max(targets, key=lambda t: target_value(s, seat, t, weights, worth) + NOISE * rng.random())
        apply(s, seat, {"type": "spreadFire", "district": s.geo.ids[pick]})
        return
    if s.card is not None and s.moves_left == 0:
        # R18b pause; R7: play a held token when the card still gives a move worth making.
        best = _best_fire_move(s, seat, s.card, rng) if "doubleMove" in s.tokens[seat] else None
        if best is not None and best[1] > NOISE:
            apply(s, seat, {"type": "playDoubleMove"})
            play_fire_move(s, seat, best[0])
        else:
            apply(s, seat, {"type": "endFire"})
        return
    best = _best_fire_move(s, seat, s.card, rng)
    assert best is not None, "the fire phase always offers a move (R8 opens the discard phase instead)"
    play_fire_move(s, seat, best[0])


def _actions_phase(s: State, seat: int) -> None:
    """Put out fire in reach, contain burning fires next to own houses, demolish a break before own houses."""
    geo = s.geo
    ids, adjacent = geo.ids, geo.adjacent
    own = s.colours[seat]
    while s.phase is Phase.ACTIONS and s.turn == seat:
        action: Action | None = None
        if s.ap:
            action = _put_out_step(s, seat)
        if action is None and s.ap:
            action = _containing_band_move(s, own)
        if action is None:
            sites = demolition_sites(s)
            if sites:
                weights = colour_weights(s, seat)
                value = {d: -house_worth(s.houses[d], weights) for d in sites}
                best = max(sites, key=value.__getitem__)
                if value[best] < 0 and any(s.houses[e][c] for e in adjacent[best] for c in own):
                    action = {"type": "demolish", "district": ids[best]}
        apply(s, seat, action or {"type": "endActions"})


def _put_out_step(s: State, seat: int) -> Action | None:
    """Put out where a pawn stands on a contained fire, else step towards the nearest one it can reach and
    still put out this turn."""
    geo = s.geo
    contained = [d for d, c in enumerate(s.cones) if c and c <= s.bands[d]]
    if not contained:
        return None
    reach = pawn_reach(geo)
    best: tuple[int, int, int] | None = None  # steps, pawn, target
    for pawn, at in enumerate(s.pawns[seat]):
        for d in contained:
            k = reach.steps[d][at]
            if k == 0:
                return {"type": "putOut", "district": geo.ids[d]}
            if k < s.ap and (best is None or k < best[0]):
                best = (k, pawn, d)
    if best is None:
        return None
    _, pawn, d = best
    return {"type": "movePawn", "pawn": pawn, "to": geo.ids[reach.next_step[d][s.pawns[seat][pawn]]]}


def _containing_band_move(s: State, own: list[int]) -> Action | None:
    """A step of the nearest free band towards a burning district next to own houses that the free bands in
    reach can contain this turn."""
    geo = s.geo
    cones, bands, houses, ap = s.cones, s.bands, s.houses, s.ap
    free = [d for d, (c, b) in enumerate(zip(cones, bands, strict=True)) if b > c]
    if not free:
        return None
    units_free = sum(bands[b] - cones[b] for b in free)
    crossable: list[bool] | None = None
    best: tuple[int, int, list[int]] | None = None  # steps of the first band, band, its path's next steps
    for t, (c, b) in enumerate(zip(cones, bands, strict=True)):
        need = c - b
        if need <= 0 or need > 2 or need > units_free or t == geo.origin:
            continue
        # A band already found at k steps is beaten only from fewer steps: at most k - 1, need units at most ap.
        if not in_reach(s, t, free, need, ap) or (best is not None and not in_reach(s, t, free, 1, best[0] - 1)):
            continue
        if not any(houses[x][colour] for x in geo.adjacent[t] for colour in own):
            continue
        crossable = band_crossable(s) if crossable is None else crossable
        dist, hop = band_paths(s, t, ap, crossable)
        units = sorted(dist[f] for f in free for _ in range(bands[f] - cones[f]))
        if sum(units[:need]) > ap:
            continue
        first = min(free, key=dist.__getitem__)
        if best is None or dist[first] < best[0]:
            best = (dist[first], first, hop)
    if best is None:
        return None
    _, band, hop = best
    return {"type": "moveBand", "from": geo.ids[band], "to": geo.ids[hop[band]]}


def playout(s: State, seat: int, rng: random.Random, horizon: int) -> None:
    """Play on with the policy until the seat's turn has begun or ended horizon times, or the game ends.

    Counting from inside the seat's turn: 1 stops when it ends, 2 when the seat's next turn begins, 3 when
    that turn ends.
    """
    flips = 0
    was_own = s.turn == seat and s.phase is not Phase.NON_PLAYER
    for _ in range(MAX_STEPS):
        if s.phase is Phase.OVER:
            return
        own = s.turn == seat and s.phase is not Phase.NON_PLAYER
        if own != was_own:
            flips += 1
            if flips >= horizon:
                return
        was_own = own
        policy_step(s, rng)


def evaluate(s: State, seat: int) -> float:
    """The seat's score (R17) less the threat to its houses, against the rivals' (half the best, half the mean)."""
    geo = s.geo
    threatened = [0] * len(s.comps.colours)
    burning = [s.cones[d] > s.bands[d] for d in range(len(s.cones))]
    for d, row in enumerate(s.houses):
        if any(row) and any(burning[e] for e in geo.adjacent[d]):
            for c, n in enumerate(row):
                threatened[c] += n
    values = []
    for other in range(s.seats):
        held = sum(1 for token in s.tokens[other] if token != "victoryPoint")
        total = scoring.score(s, other)["total"] + HELD_TOKEN_VALUE * held
        values.append(total - THREAT * sum(threatened[c] for c in s.colours[other]))
    mine = values.pop(seat)
    return mine - 0.5 * max(values) - 0.5 * sum(values) / len(values)
