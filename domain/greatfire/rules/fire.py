"""The fire phase: which cards, sources and targets are legal (R1-R5), and what arrival does (R6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress
from operator import gt

from firebreak.domain.contract import Event
from firebreak.domain.greatfire.rules.supply import add_cones, refill_origin
from firebreak.domain.greatfire.state import BurningGroups, State

GROUPS_KEPT = 1024  # fire states whose groups are remembered across states (a bot tries the same ones often)
_KNOWN: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[object, BurningGroups]] = {}


def groups(s: State) -> BurningGroups:
    """The groups of connected burning districts (R2) and those a cone may leave (R1).

    The answer for the last cones and bands asked about is kept (State.groups_cache) and handed out again
    while they stand; the answers for the last GROUPS_KEPT fire states of any state are kept too (the bots
    rate many states that share a fire state), so equal fire states get the same answer object.
    """
    cones, bands = tuple(s.cones), tuple(s.bands)
    cached = s.groups_cache
    if cached is not None and cached[0] == cones and cached[1] == bands:
        return cached[2]
    geo = s.geo
    key = (id(geo), cones, bands)
    known = _KNOWN.get(key)
    if known is not None and known[0] is geo:
        s.groups_cache = (cones, bands, known[1])
        return known[1]
    unseen = list(map(gt, cones, bands))  # burning and not yet labelled
    label = [-1] * len(unseen)
    live: list[int] = []
    members: list[int] = []
    adjacent = s.geo.adjacent
    # compress reads unseen as it goes, so a district labelled from an earlier start is skipped.
    for group, start in enumerate(compress(range(len(unseen)), unseen)):
        unseen[start] = False
        label[start] = group
        component = [start]
        for d in component:  # grows while it is read: breadth first
            for e in adjacent[d]:
                if unseen[e]:
                    unseen[e] = False
                    label[e] = group
                    component.append(e)
        if max(map(cones.__getitem__, component)) >= 2:
            live.append(group)
            members.extend(component)
    members.sort()
    found = BurningGroups(tuple(label), frozenset(live), tuple(members))
    s.groups_cache = (cones, bands, found)
    if len(_KNOWN) >= GROUPS_KEPT:
        _KNOWN.clear()
    _KNOWN[key] = (geo, found)
    return found


def burning_groups(s: State) -> tuple[int, ...]:
    """Label each district with its group of connected burning districts (R2), -1 when not burning."""
    return groups(s).label


def target_class(s: State, d: int) -> int:
    """R5 priority class: 1 houses/no TB, 2 houses/TB, 3 empty/no TB, 4 empty/TB."""
    return (1 if any(s.houses[d]) else 3) + (1 if s.bands[d] else 0)


def reachable(s: State, card: str, label: Sequence[int], group: int) -> set[int]:
    """Every target (any class) a cone from this burning group can reach with the card (R2-R4)."""
    members = [d for d, g in enumerate(label) if g == group]
    return group_reach(s, card, label, members).get(group, set())


def group_reach(s: State, card: str, label: Sequence[int], members: Iterable[int]) -> dict[int, set[int]]:
    """For each group of the member districts (by index) that reaches a target with the card, every target
    its members reach (R2-R4); keyed in the order of each group's first member that reaches one."""
    reach = s.geo.fire_reach[card]
    demolished = s.demolished
    found: dict[int, set[int]] = {}
    for d in members:
        hit = [e for e in reach[d] if label[e] == -1 and not demolished[e]]
        if hit:
            found.setdefault(label[d], set()).update(hit)
    return found


def best_class(s: State, found: set[int]) -> list[int]:
    """R5: only the targets of the best priority class, sorted by index."""
    if not found:
        return []
    classes = {e: target_class(s, e) for e in found}
    best = min(classes.values())
    return sorted(e for e, k in classes.items() if k == best)


def group_targets(s: State, card: str, label: Sequence[int], group: int) -> list[int]:
    """Targets of the best class reachable with the card from a burning group (R3-R5), sorted by index."""
    return best_class(s, reachable(s, card, label, group))


def spreading_groups(s: State, card: str, found: BurningGroups, first: bool = False) -> set[int]:
    """The live groups from which the card reaches at least one target (R1-R4); with first, stop at one."""
    reach = s.geo.fire_reach[card]
    demolished = s.demolished
    label = found.label
    out: set[int] = set()
    for d in found.live_members:
        g = label[d]
        if g not in out:
            for e in reach[d]:
                if label[e] == -1 and not demolished[e]:
                    out.add(g)
                    if first:
                        return out
                    break
    return out


def sources(s: State, card: str) -> list[int]:
    """R1: burning districts with >= 2 cones from which the card leads somewhere."""
    found = groups(s)
    useful = spreading_groups(s, card, found)
    label, cones = found.label, s.cones
    return [d for d in found.live_members if label[d] in useful and cones[d] >= 2]


def has_move(s: State, card: str) -> bool:
    """Whether the card gives at least one legal move (sources(s, card) is not empty)."""
    return bool(spreading_groups(s, card, groups(s), first=True))


def targets(s: State, card: str, source: int) -> list[int]:
    """The legal targets for a cone taken from source with the card (R2-R5)."""
    label = burning_groups(s)
    if label[source] == -1 or s.cones[source] < 2:
        return []
    return group_targets(s, card, label, label[source])


def playable_cards(s: State, hand: list[str]) -> list[str]:
    """Distinct cards of a hand that give at least one legal move (R8 when empty), in N, E, S, W order."""
    found = groups(s)
    if not found.live:
        return []
    return [card for card in ("N", "E", "S", "W") if card in hand and spreading_groups(s, card, found, first=True)]


def spread(s: State, seat: int | None, source: int, target: int, events: list[Event]) -> None:
    """Move one cone from source to target and resolve its arrival (R6, R9).

    seat is the player who takes a token found there; None is the 2-player non-player turn, whose fire removes
    any token in the district it moves into unseen, contained or not (R20).
    """
    geo = s.geo
    s.cones[source] -= 1
    s.cones[target] += 1
    event: Event = {"type": "fireSpread", "from": geo.ids[source], "to": geo.ids[target]}
    events.append(event)
    if s.bands[target] >= s.cones[target]:
        # R6: a free trained band sits on the arriving cone; a contained fire burns nothing.
        event["contained"] = True
        if seat is None:
            _remove_token(s, target, events)
    else:
        event["contained"] = False
        burn(s, seat, target, events)
    refill_origin(s, events)


def burn(s: State, seat: int | None, d: int, events: list[Event]) -> None:
    """An uncontained fire arrives: houses go, cones rise to the district's size, a token is taken (R6)."""
    geo = s.geo
    lost = {s.comps.colours[c]: n for c, n in enumerate(s.houses[d]) if n}
    s.houses[d] = [0] * len(s.houses[d])
    if lost:
        events.append({"type": "housesBurnt", "district": geo.ids[d], "houses": lost})
    need = max(geo.size[d], s.cones[d]) - s.cones[d]
    if need:
        added = add_cones(s, d, need, events)
        events.append({"type": "fireGrew", "district": geo.ids[d], "cones": added})
    token = s.board_tokens[d]
    if token is None:
        return
    if seat is None:
        _remove_token(s, d, events)
        return
    s.board_tokens[d] = None
    s.tokens[seat].append(token)
    events.append({"type": "tokenTaken", "seat": seat, "district": geo.ids[d]})
    events.append({"type": "tokenRevealed", "seat": seat, "district": geo.ids[d], "token": token, "audience": [seat]})


def _remove_token(s: State, d: int, events: list[Event]) -> None:
    """R20: the non-player fire removes a token from the game without anyone looking at it."""
    if s.board_tokens[d] is not None:
        s.board_tokens[d] = None
        events.append({"type": "tokenRemoved", "district": s.geo.ids[d]})


def placeable(s: State) -> list[int]:
    """R12: burning districts other than Pudding Lane that can take one more cone (cones <= size + 2)."""
    size = s.geo.size
    origin = s.geo.origin
    return [d for d in range(len(s.cones))
            if d != origin and s.cones[d] > s.bands[d] and s.cones[d] + 1 <= size[d] + 2]
