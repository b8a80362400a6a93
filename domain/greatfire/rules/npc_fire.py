"""The non-player turn's fire expansion (2-player expansion, R20): colour priority rules 1-4 and the source."""

from __future__ import annotations

from firebreak.domain.greatfire.rules import fire
from firebreak.domain.greatfire.state import State


def priority_key(s: State, d: int, order: tuple[int, ...]) -> tuple[int, ...]:
    """Sort key of a target: fire movement class first (R5), then most houses of each colour in card order."""
    return (fire.target_class(s, d), *(-s.houses[d][c] for c in order))


def colour_order(s: State) -> tuple[int, ...]:
    """The colours of the face-up colour priority card: the large house, then clockwise round the card."""
    assert s.npc_priority is not None
    names = s.comps.colour_priority[s.npc_priority]
    return tuple(s.comps.colours.index(name) for name in names)


def moves(s: State, card: str) -> dict[int, list[int]]:
    """Every possible expansion with the card: target -> the sources (>= 2 cones) whose fire reaches it."""
    burning = fire.groups(s)
    label, cones = burning.label, s.cones
    group_sources: dict[int, list[int]] = {}
    for d in burning.live_members:
        if cones[d] >= 2:
            group_sources.setdefault(label[d], []).append(d)
    reached = fire.group_reach(s, card, label, burning.live_members)
    out: dict[int, list[int]] = {}
    for group in sorted(reached):
        for target in reached[group]:
            out.setdefault(target, []).extend(group_sources[group])
    return out


def tied_targets(s: State, card: str) -> list[int]:
    """Rules 1-3: the targets that no colour on the card separates (more than one: rule 4 decides)."""
    options = moves(s, card)
    if not options:
        return []
    order = colour_order(s)
    best = min(priority_key(s, d, order) for d in options)
    return sorted(d for d in options if priority_key(s, d, order) == best)


def tied_sources(s: State, card: str, target: int) -> list[int]:
    """Pudding Lane if its fire reaches the target, else the connected source(s) with the most cones."""
    sources = moves(s, card).get(target, [])
    if s.geo.origin in sources:
        return [s.geo.origin]
    most = max(s.cones[d] for d in sources)
    return sorted(d for d in sources if s.cones[d] == most)
