"""What the bots' look-ahead plays and scores with: whole fire moves, actions applied without listing the legal
ones first, and the evaluation of an outcome (every seat's hand-weighted standing: bench/outlook_fit.py reports
it beside the fitted outlook.py).

All of it runs on a full state the deciding seat built itself (a working state or a determinization), so
reading any field here reads only that seat's own guess of the hidden facts. Actions go straight to the action
table's rules (actions.py): the bots build them from the same functions that list the legal ones, so the listing
and its checks are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

from firebreak.domain.contract import Action
from firebreak.domain.greatfire.actions import ACTIONS
from firebreak.domain.greatfire.bots.rating import EXPOSURE
from firebreak.domain.greatfire.components import CARDS
from firebreak.domain.greatfire.rules import fire, scoring
from firebreak.domain.greatfire.state import State

THREAT = 2 * EXPOSURE[1]  # VP an own house next to a burning district is counted short (as rating.rating does)
HELD_TOKEN_VALUE = 0.5  # VP a held demolition or double-move token is worth (spent only for a gain)


@dataclass(frozen=True)
class FireMove:
    """One complete fire move: the card (None when already played), the source and the target."""

    card: str | None
    source: int
    target: int


def apply(s: State, seat: int, action: Action) -> None:
    """Apply an action known to be legal, without listing the legal actions first."""
    ACTIONS.apply(s, seat, action, [])
    s.version += 1


def fire_moves(s: State, seat: int, played: str | None) -> list[FireMove]:
    """Every distinct complete fire move with the card already played (None: with each playable card).

    Per card, burning group and target (R1-R5, as rules/fire.py lists them, in one pass): the canonical source
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


def standings(s: State) -> list[float]:
    """Every seat's score (R17) plus its held tokens, less the threat to its houses: what evaluate compares."""
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
    return values


def evaluate(s: State, seat: int) -> float:
    """The seat's standing against the rivals' (half the best, half the mean)."""
    values = standings(s)
    mine = values.pop(seat)
    return mine - 0.5 * max(values) - 0.5 * sum(values) / len(values)
