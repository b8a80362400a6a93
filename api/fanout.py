"""One stream reader per watched match in an API process, whatever the number of its subscribers.

A subscriber that has caught up waits here for the match's next step instead of blocking a Redis connection
of its own in XREAD: a per-match reader task holds the one blocking read and wakes every waiter when the
stream grows; each waiter then reads what it has not seen (XRANGE, which does not block). So the connections
an API process holds grow with the matches watched, not with the subscribers (bench/subscribers.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from matches.store import MatchStore

BLOCK_MS = 10_000   # one blocking read's length; a reader with no waiter left stops after its read
log = logging.getLogger("firebreak.fanout")


class _Watch:
    """The reader of one match: the newest version it saw, and an event set (then replaced) on each growth."""

    def __init__(self, after: int) -> None:
        self.latest = after
        self.grown = asyncio.Event()
        self.waiters = 0
        self.task: asyncio.Task[None] | None = None
        self.failure: BaseException | None = None


class Fanout:
    """Per-process readers of match event streams, shared by the subscribers of each match."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        self.watches: dict[str, _Watch] = {}

    async def wait(self, match_id: str, after: int, timeout: float) -> bool:
        """Wait up to timeout seconds for a step after version `after`; return whether one came (the caller
        reads it with store.events_after). A reader's failed read (Redis away) is raised here too."""
        watch = self.watches.get(match_id)
        if watch is None:
            watch = self.watches[match_id] = _Watch(after)
        if watch.latest > after:
            return True
        watch.waiters += 1
        try:
            if watch.task is None or watch.task.done():
                watch.failure = None
                watch.task = asyncio.create_task(self._read(match_id, watch), name=f"fanout-{match_id}")
            grown = watch.grown
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(grown.wait(), timeout)
            if watch.failure is not None:
                raise watch.failure
            return watch.latest > after
        finally:
            watch.waiters -= 1

    async def _read(self, match_id: str, watch: _Watch) -> None:
        try:
            while watch.waiters > 0:
                rows = await self.store.wait_events(match_id, watch.latest, BLOCK_MS)
                if rows:
                    watch.latest = max(watch.latest, rows[-1][0])
                    self._wake(watch)
                    await asyncio.sleep(0)  # the woken leave (or come back) before the next read is decided
        except Exception as exc:  # Redis unreachable: every waiter hears of it, the next wait starts afresh
            watch.failure = exc
            self._wake(watch)
        finally:
            if watch.waiters == 0 and self.watches.get(match_id) is watch:
                del self.watches[match_id]

    @staticmethod
    def _wake(watch: _Watch) -> None:
        grown, watch.grown = watch.grown, asyncio.Event()
        grown.set()

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
