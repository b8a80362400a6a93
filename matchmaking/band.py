"""Which waiting seeks of one pool may sit at one table, and the tables to form from them (pure functions: no I/O).

Two seeks are compatible when they are of different players, neither of whom blocks the other (social/blocks.py:
the pairs `apart`), and, if both are rated, their ratings differ by at
most the wider of their two bands; a seek's band widens with the time it has waited (SeekSettings: band +
band_growth * seconds waited, capped at band_max unless 0), so a long waiter accepts ever wider opponents and is
not starved. An unrated seek (rating None: a new player, or ratings not in use) is compatible with any.

Tables are planned oldest seek first: each seek not yet placed anchors a table and takes the oldest seeks
compatible with every seeker already at it, until the seat count is reached. A table short of players whose anchor
asked for bots and has waited botsAfterSeconds is formed with the seekers who also asked for bots and waited for
them, bots filling the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from firebreak.matchmaking.config import SeekSettings
from firebreak.matchmaking.seeks import Seek


def band(seek: Seek, now: float, settings: SeekSettings) -> float:
    """The rating band of a seek by now."""
    wide = settings.band + settings.band_growth * seek.waited(now)
    return min(wide, settings.band_max) if settings.band_max > 0 else wide


def compatible(a: Seek, b: Seek, now: float, settings: SeekSettings,
               apart: frozenset[frozenset[str]] = frozenset()) -> bool:
    """Whether two seeks may sit at one table now (never when their players are a pair kept apart: a block)."""
    if a.player == b.player or frozenset((a.player, b.player)) in apart:
        return False
    if a.rating is None or b.rating is None:
        return True
    return abs(a.rating - b.rating) <= max(band(a, now, settings), band(b, now, settings))


@dataclass(frozen=True)
class Planned:
    """A table to form: its seekers (oldest first) and how many bots fill the other seats."""

    seekers: tuple[Seek, ...]
    bots: int


def plan(seeks: list[Seek], seats: int, now: float, settings: SeekSettings,
         apart: frozenset[frozenset[str]] = frozenset()) -> list[Planned]:
    """The tables to form now from a pool's waiting seeks (any order; seeks past their time are left out), never
    seating a pair of players kept apart."""
    waiting = sorted((s for s in seeks if s.expires > now), key=lambda s: (s.created, s.id))
    placed: set[str] = set()
    tables = []
    for anchor in waiting:
        if anchor.id in placed:
            continue
        group = _gather(anchor, [s for s in waiting if s.id not in placed], seats, now, settings, apart)
        if len(group) < seats and anchor.wants_bots(now):
            group = _gather(anchor, [s for s in waiting if s.id not in placed and s.wants_bots(now)], seats, now,
                            settings, apart)
        elif len(group) < seats:
            continue
        tables.append(Planned(tuple(group), seats - len(group)))
        placed.update(s.id for s in group)
    return tables


def _gather(anchor: Seek, candidates: list[Seek], seats: int, now: float, settings: SeekSettings,
            apart: frozenset[frozenset[str]]) -> list[Seek]:
    group = [anchor]
    for other in candidates:
        if len(group) == seats:
            break
        if other.id != anchor.id and all(compatible(member, other, now, settings, apart) for member in group):
            group.append(other)
    return group
