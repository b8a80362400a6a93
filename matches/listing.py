"""The lobby list filtered by title, seat count and free seats, paged with the lobby's own cursors.

A filtered page costs a bounded read, never a scan of every match: it reads at most SCAN_BUDGET entries of the
status's lobby set after the cursor (newest first), checks each against the filter with one pipelined round trip
(its meta's title and seat count, its seats' count), and stops at a full page. The end cursor is the last entry
examined, in the lobby's "<score>:<id>" form (valid when that match leaves the list), so the next page resumes right
after it; a page whose budget ran out before it filled comes back short (even empty) with hasNextPage true.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firebreak.domain import titles
from firebreak.matches import keys
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.lobby import Lobby
from firebreak.matches.store import CURSOR_SLACK, Loaded

SCAN_BUDGET = 500  # lobby entries one filtered page examines at most


@dataclass(frozen=True)
class Filters:
    """What a listed match must have: a title, a seat count, at least this many open seats (None: any)."""

    title: str | None = None
    seat_count: int | None = None
    free_seats: int | None = None

    @property
    def active(self) -> bool:
        """Whether any filter is set."""
        return self.title is not None or self.seat_count is not None or self.free_seats is not None

    def accepts(self, title: str, seat_count: int, taken: int, status: MatchStatus) -> bool:
        """Whether a match of this title, seat count, taken seats and status passes."""
        free = seat_count - taken if status is MatchStatus.WAITING else 0
        return ((self.title is None or title == self.title)
                and (self.seat_count is None or seat_count == self.seat_count)
                and (self.free_seats is None or free >= self.free_seats))


async def page(lobby: Lobby, status: MatchStatus, first: int, after: str | None,
               filters: Filters) -> tuple[list[Loaded], bool, str | None]:
    """A page of the lobby with the filters applied (no filter: the lobby's own page), newest first; whether more
    may follow, and the end cursor."""
    if not filters.active:
        return await lobby.page(status, first, after)
    store = lobby.store
    rows = await _rows(store.queue, keys.lobby(status), after, SCAN_BUDGET + 1)
    if rows is None:
        return [], False, None
    examined = rows[:SCAN_BUDGET]
    facts = await _facts(store.redis, [match_id for match_id, _ in examined])
    served = {title.id for title in titles.all_titles()}
    picked: list[Loaded] = []
    gone: list[str] = []
    last: tuple[str, float] | None = None
    for (match_id, score), fact in zip(examined, facts, strict=True):
        if len(picked) == first:
            break
        last = (match_id, score)
        loaded = None
        if fact is None:  # archived (an over match) or gone: read it whole
            loaded = await store.load(match_id)
            if loaded is None:
                gone.append(match_id)
                continue
            fact = (loaded.meta["title"], loaded.seat_count, len(loaded.seats))
        if fact[0] not in served or not filters.accepts(*fact, status):
            continue
        loaded = loaded or await store.load(match_id)
        if loaded is None:
            gone.append(match_id)
        elif loaded.status is status:
            picked.append(loaded)
    await store.prune_lobby(status, gone)
    more = len(rows) > examined.index(last) + 1 if last is not None else False
    cursor = None if last is None else f"{last[1]!r}:{last[0]}"
    return picked, more, cursor


async def _rows(queue: Any, lobby: str, after: str | None, count: int) -> list[tuple[str, float]] | None:
    """Up to count (id, score) entries after a cursor, newest first (None: a malformed cursor)."""
    if not after:
        rows: list[tuple[str, float]] = await queue.zrevrange(lobby, 0, count - 1, withscores=True)
        return rows
    score_text, _, last_id = after.partition(":")
    try:
        score = float(score_text)
    except ValueError:
        return None
    rows = await queue.zrevrangebyscore(lobby, score, "-inf", start=0, num=count + CURSOR_SLACK, withscores=True)
    # equal scores come in reverse id order: drop those at or before the cursor
    return [(m, s) for m, s in rows if not (s == score and m >= last_id)][:count]


async def _facts(redis: Any, match_ids: list[str]) -> list[tuple[str, int, int] | None]:
    """Each live match's title, seat count and taken seats (None: no live meta), in one pipelined round trip."""
    if not match_ids:
        return []
    pipe = redis.pipeline(transaction=False)
    for match_id in match_ids:
        pipe.hmget(keys.meta(match_id), ["title", "seats"])
        pipe.hlen(keys.seats(match_id))
    replies = await pipe.execute()
    out: list[tuple[str, int, int] | None] = []
    for n in range(len(match_ids)):
        (title, seats), taken = replies[2 * n], replies[2 * n + 1]
        out.append(None if title is None or seats is None else (title, int(seats), int(taken)))
    return out
