"""One stream reader per watched match in an API process, whatever the number of its subscribers.

A subscriber that has caught up waits here for the match's next steps instead of blocking a Redis connection of
its own in XREAD: a per-match reader task holds the one blocking read, keeps the steps it read, and wakes every
waiter when the stream grows; each waiter takes the new steps from the reader (no Redis call of its own). After
each read the reader also looks at the match's status, so that subscribers learn once for all that the match
is over (or gone). So the connections and Redis calls of an API process grow with the matches watched, not
with the subscribers (bench/subscribers.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import dataclass
from typing import Any

from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.store import MatchStore

BLOCK_MS = 10_000   # one blocking read's length; a reader with no waiter left stops after its read
RECENT = 64         # steps a reader keeps for waiters that are a little behind (others read the stream)

Rows = list[tuple[int, list[Any]]]


@dataclass
class Next:
    """What a waiter gets: the steps after its version (None: more than the reader keeps: read the stream),
    and whether the match has ended (over, or expired) with nothing after its version."""

    rows: Rows | None
    ended: bool = False


class _Watch:
    """The reader of one match: the newest version it saw, its recent steps, whether the match ended, and an
    event set (then replaced) whenever one of those changes."""

    def __init__(self, after: int) -> None:
        self.latest = after
        self.recent: deque[tuple[int, list[Any]]] = deque(maxlen=RECENT)
        self.ended = False
        self.changed = asyncio.Event()
        self.waiters = 0
        self.task: asyncio.Task[None] | None = None
        self.failure: BaseException | None = None

    def after(self, version: int) -> Next | None:
        """The answer for a waiter at `version`, or None while there is nothing new for it."""
        if self.latest > version:
            rows = [row for row in self.recent if row[0] > version]
            return Next(rows if rows and rows[0][0] == version + 1 else None)
        return Next([], True) if self.ended else None


class Fanout:
    """Per-process readers of match event streams, shared by the subscribers of each match."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        self.watches: dict[str, _Watch] = {}

    async def next(self, match_id: str, after: int, timeout: float) -> Next:
        """The steps after version `after`, waiting up to timeout seconds for some (Next([]) if none came). A
        reader's failed read (Redis away) is raised here too."""
        watch = self.watches.get(match_id)
        if watch is None:
            watch = self.watches[match_id] = _Watch(after)
        ready = watch.after(after)
        if ready is not None:
            return ready
        watch.waiters += 1
        try:
            if watch.task is None or watch.task.done():
                watch.failure = None
                watch.task = asyncio.create_task(self._read(match_id, watch), name=f"fanout-{match_id}")
            changed = watch.changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout)
            if watch.failure is not None:
                raise watch.failure
            return watch.after(after) or Next([])
        finally:
            watch.waiters -= 1
            self._forget(match_id, watch)

    async def _read(self, match_id: str, watch: _Watch) -> None:
        try:
            while watch.waiters > 0 and not watch.ended:
                status = await self.store.status(match_id)
                if status in (None, MatchStatus.OVER):  # the last step is stored by now: take whatever is left
                    while rows := await self.store.events_after(match_id, watch.latest):
                        self._add(watch, rows)
                    watch.ended = True
                    self._wake(watch)
                    break
                rows = await self.store.wait_events(match_id, watch.latest, BLOCK_MS)
                if rows:
                    self._add(watch, rows)
                    self._wake(watch)
                    await asyncio.sleep(0)  # the woken leave (or come back) before the next read is decided
        except Exception as exc:  # Redis unreachable: every waiter hears of it, the next wait starts afresh
            watch.failure = exc
            self._wake(watch)
        finally:
            self._forget(match_id, watch, reading=False)

    @staticmethod
    def _add(watch: _Watch, rows: Rows) -> None:
        fresh = [row for row in rows if row[0] > watch.latest]
        if fresh:
            watch.recent.extend(fresh)
            watch.latest = fresh[-1][0]

    @staticmethod
    def _wake(watch: _Watch) -> None:
        changed, watch.changed = watch.changed, asyncio.Event()
        changed.set()

    def _forget(self, match_id: str, watch: _Watch, reading: bool = True) -> None:
        """Drop a watch nobody waits on and no reader serves."""
        idle = watch.task is None or watch.task.done() or not reading
        if watch.waiters == 0 and idle and self.watches.get(match_id) is watch:
            del self.watches[match_id]

    def wake_all(self) -> None:
        """Wake every waiter (a credential was revoked somewhere: each stream looks at its own again)."""
        for watch in list(self.watches.values()):
            self._wake(watch)

    async def close(self) -> None:
        """Stop every reader (the process is stopping)."""
        tasks = [w.task for w in self.watches.values() if w.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.watches.clear()

    def readers(self) -> int:
        """How many matches have a reader now."""
        return sum(1 for w in self.watches.values() if w.task is not None and not w.task.done())
