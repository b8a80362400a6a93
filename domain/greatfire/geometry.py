"""Adjacency of a board precomputed for the rules: who borders whom, and along which card's directions."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from firebreak.domain.greatfire.board import Board

# R3: a card allows its own direction and the two diagonals beside it.
CARD_DIRECTIONS: dict[str, frozenset[str]] = {
    "N": frozenset({"N", "NE", "NW"}),
    "E": frozenset({"E", "NE", "SE"}),
    "S": frozenset({"S", "SE", "SW"}),
    "W": frozenset({"W", "SW", "NW"}),
}


@dataclass(frozen=True)
class Geometry:
    """Index-based lookups derived once from a Board."""

    board: Board
    origin: int
    ids: tuple[str, ...]
    index: dict[str, int]
    adjacent: tuple[tuple[int, ...], ...]
    card_adjacent: dict[str, tuple[tuple[int, ...], ...]]
    fire_reach: dict[str, tuple[tuple[int, ...], ...]]  # card_adjacent kept to burnable districts (R2-R4)
    enterable: tuple[tuple[int, ...], ...]  # adjacent without Pudding Lane: where a pawn or band may step
    burnable: tuple[bool, ...]
    size: tuple[int, ...]
    setup_sites: tuple[int, ...]
    fill_order: tuple[int, ...]
    objective_vp: tuple[int, ...]

    def steps_over_burnable(self, start: int, unreachable: int) -> list[int]:
        """Steps from start to each district along burnable districts (breadth first); others get unreachable."""
        dist = [unreachable] * len(self.ids)
        dist[start] = 0
        queue = deque([start])
        while queue:
            d = queue.popleft()
            for e in self.adjacent[d]:
                if self.burnable[e] and dist[e] == unreachable:
                    dist[e] = dist[d] + 1
                    queue.append(e)
        return dist

    def paths_to(self, target: int, crossable: Sequence[bool] | None = None,
                 within: int | None = None) -> tuple[list[int], list[int]]:
        """Breadth first from target over districts a piece may enter (never Pudding Lane; only crossable ones
        when given): each district's steps to target (len(ids) + 1 when none, or when more than `within`
        steps away if given) and its next step towards it."""
        n = len(self.ids)
        far = n + 1
        dist, hop = [far] * n, [-1] * n
        # open_[d]: d may still be entered (not yet reached, crossable); the target counts as reached.
        open_ = [True] * n if crossable is None else list(crossable)
        open_[target] = False
        dist[target] = 0
        enterable = self.enterable
        frontier = [target]
        steps = 0
        limit = n if within is None else within
        while frontier and steps < limit:
            steps += 1
            following = []
            for e in frontier:
                for d in enterable[e]:
                    if open_[d]:
                        open_[d] = False
                        dist[d] = steps
                        hop[d] = e
                        following.append(d)
            frontier = following
        return dist, hop


_CACHE: dict[int, Geometry] = {}

REGION_FILL_ORDER = ("orange", "purple", "blue", "green")  # the rulebook starts with orange (the Tower)


def geometry(board: Board) -> Geometry:
    """Return the (cached) geometry of a board."""
    cached = _CACHE.get(id(board))
    if cached is not None and cached.board is board:
        return cached
    ds = board.districts
    adjacent = tuple(tuple(j for j, _ in board.neighbours[d.index]) for d in ds)
    card_adjacent = {
        card: tuple(tuple(j for j, way in board.neighbours[d.index] if way in dirs) for d in ds)
        for card, dirs in CARD_DIRECTIONS.items()
    }
    fire_reach = {card: tuple(tuple(e for e in row if ds[e].kind == "burnable") for row in rows)
                  for card, rows in card_adjacent.items()}
    fill = [d.index for region in REGION_FILL_ORDER for d in ds if d.region == region and d.kind == "burnable"]
    fill += [d.index for d in ds if d.kind == "burnable" and d.region not in REGION_FILL_ORDER]
    geo = Geometry(
        board=board,
        origin=board.origin,
        ids=tuple(d.id for d in ds),
        index={d.id: d.index for d in ds},
        adjacent=adjacent,
        card_adjacent=card_adjacent,
        fire_reach=fire_reach,
        enterable=tuple(tuple(e for e in row if e != board.origin) for row in adjacent),
        burnable=tuple(d.kind == "burnable" for d in ds),
        size=tuple(d.size or 0 for d in ds),
        setup_sites=tuple(d.index for d in ds if d.region != "green" and d.kind != "origin"),
        fill_order=tuple(fill),
        objective_vp=tuple(d.objective.vp if d.objective else 0 for d in ds),
    )
    _CACHE[id(board)] = geo
    return geo
