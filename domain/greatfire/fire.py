"""The fire phase: which cards, sources and targets are legal (R1-R5), and what arrival does (R6)."""

from __future__ import annotations

from domain.contract import Event
from domain.greatfire.state import State
from domain.greatfire.supply import add_cones, refill_origin


def burning_groups(s: State) -> list[int]:
    """Label each district with its group of connected burning districts (R2), -1 when not burning."""
    n = len(s.cones)
    label = [-1] * n
    adjacent = s.geo.adjacent
    group = 0
    for start in range(n):
        if label[start] != -1 or s.cones[start] <= s.bands[start]:
            continue
        label[start] = group
        stack = [start]
        while stack:
            d = stack.pop()
            for e in adjacent[d]:
                if label[e] == -1 and s.cones[e] > s.bands[e]:
                    label[e] = group
                    stack.append(e)
        group += 1
    return label


def target_class(s: State, d: int) -> int:
    """R5 priority class: 1 houses/no TB, 2 houses/TB, 3 empty/no TB, 4 empty/TB."""
    return (1 if any(s.houses[d]) else 3) + (1 if s.bands[d] else 0)


def reachable(s: State, card: str, label: list[int], group: int) -> set[int]:
    """Every target (any class) a cone from this burning group can reach with the card (R2-R4)."""
    reach = s.geo.card_adjacent[card]
    burnable = s.geo.burnable
    found: set[int] = set()
    for d, g in enumerate(label):
        if g != group:
            continue
        for e in reach[d]:
            if burnable[e] and label[e] == -1 and not s.demolished[e]:
                found.add(e)
    return found


def best_class(s: State, found: set[int]) -> list[int]:
    """R5: only the targets of the best priority class, sorted by index."""
    if not found:
        return []
    best = min(target_class(s, e) for e in found)
    return sorted(e for e in found if target_class(s, e) == best)


def group_targets(s: State, card: str, label: list[int], group: int) -> list[int]:
    """Targets of the best class reachable with the card from a burning group (R3-R5), sorted by index."""
    return best_class(s, reachable(s, card, label, group))


def sources(s: State, card: str, label: list[int] | None = None) -> list[int]:
    """R1: burning districts with >= 2 cones from which the card leads somewhere."""
    label = burning_groups(s) if label is None else label
    useful: dict[int, bool] = {}
    out = []
    for d, g in enumerate(label):
        if g == -1 or s.cones[d] < 2:
            continue
        if g not in useful:
            useful[g] = bool(group_targets(s, card, label, g))
        if useful[g]:
            out.append(d)
    return out


def targets(s: State, card: str, source: int) -> list[int]:
    """The legal targets for a cone taken from source with the card (R2-R5)."""
    label = burning_groups(s)
    if label[source] == -1 or s.cones[source] < 2:
        return []
    return group_targets(s, card, label, label[source])


def playable_cards(s: State, hand: list[str]) -> list[str]:
    """Distinct cards of a hand that give at least one legal move (R8 when empty), in N, E, S, W order."""
    label = burning_groups(s)
    return [card for card in ("N", "E", "S", "W") if card in hand and sources(s, card, label)]


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
