"""The players' event streams an API process listens to, read by as few blocking Redis reads as the layout allows.

On one Redis, a single reader task holds ONE blocking XREAD over the feeds of every player with a listener in this
process, whatever their number: the connections and Redis calls of idle listeners do not grow with them
(bench/my_events.py). A listener for a player the read does not cover yet wakes the reader (CLIENT UNBLOCK on its
connection), which starts the next read with that player's feed in it. On a Redis Cluster one XREAD may only name
keys of one slot, and every player's feed has a slot of its own: there each watched player gets a reader of its
own (as api/fanout.py gives each watched match one), shared by that player's listeners.

A listener asks for the events after its cursor: the reader keeps each watched player's recent events, so a
caught-up listener takes them without a Redis call; one further behind (or behind what the reader keeps) is told to
read the stream itself (None).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Any

from redis.asyncio import Redis

from firebreak.matches import keys
from firebreak.matches.feed import FeedEvent, cursor_order

BLOCK_MS = 10_000   # one blocking read's length
RECENT = 64         # events kept per watched player for listeners a little behind
COUNT = 100         # events one read takes per feed
CLIENT_NAME = "firebreak-feeds"  # the multiplexed reader's connection, as CLIENT LIST shows it
UNBLOCK_TRIES = 50  # times a new listener tries to wake a read that has not blocked yet (5 ms apart)


class _Signal(asyncio.Event):
    """Set when a watched player's events change; carries the reader's failure, if that is why."""

    failure: BaseException | None = None


class _Watch:
    """One watched player: the newest event id read, the recent events (complete after `base`), the listeners, and
    an asyncio event set (then replaced) whenever something changes."""

    def __init__(self, after: str) -> None:
        self.latest = after
        self.base = after
        self.recent: deque[FeedEvent] = deque()
        self.listeners = 0
        self.changed = _Signal()

    def add(self, events: list[FeedEvent]) -> None:
        """Keep events read after `latest` (the oldest go past RECENT, moving `base`)."""
        for event in events:
            if cursor_order(event.id) > cursor_order(self.latest):
                self.recent.append(event)
                self.latest = event.id
        while len(self.recent) > RECENT:
            self.base = self.recent.popleft().id

    def after(self, cursor: str) -> list[FeedEvent] | None:
        """The kept events after a cursor ([]: none yet), or None when the cursor is older than what is kept."""
        at = cursor_order(cursor)
        if at < cursor_order(self.base):
            return None
        return [event for event in self.recent if cursor_order(event.id) > at]

    def wake(self, failure: BaseException | None = None) -> None:
        """Wake everyone waiting on this player (failure: the reader's read failed)."""
        changed, self.changed = self.changed, _Signal()
        changed.failure = failure
        changed.set()


class Listener:
    """One listener's handle on a watched player (FeedHub.listen)."""

    def __init__(self, hub: FeedHub, player: str, watch: _Watch) -> None:
        self.hub = hub
        self.player = player
        self.watch = watch

    async def next(self, cursor: str, timeout: float) -> list[FeedEvent] | None:
        """The events after the cursor, waiting up to timeout seconds for some ([]: none came); None: the cursor is
        older than the reader keeps (read the stream). A reader's failed read (Redis away) is raised here."""
        ready = self.watch.after(cursor)
        if ready is None or ready:
            return ready
        changed = self.watch.changed
        await self.hub.ensure_reading(self.player)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)
        if changed.failure is not None:
            raise changed.failure
        return self.watch.after(cursor)


class FeedHub:
    """Per-process readers of the players' feeds, shared by every listener (one multiplexed read on one Redis)."""

    def __init__(self, redis: Any, cluster: bool) -> None:
        self.redis = redis
        self.cluster = cluster
        self.watches: dict[str, _Watch] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}  # "" -> the one reader (one Redis); player -> its reader
        self.covered: set[str] = set()      # the players the multiplexed read in flight names
        self.blocked_id: int | None = None  # the reader's connection id while its read may block
        self.generation = 0                 # counts the multiplexed reads started
        self.reads = 0                      # blocking reads sent (for the bench)

    @contextlib.asynccontextmanager
    async def listen(self, player: str, after: str) -> Any:
        """Watch a player's feed for as long as the block runs (after: the listener's cursor, where a new watch's
        reading starts); yields a Listener."""
        watch = self.watches.get(player)
        if watch is None:
            watch = self.watches[player] = _Watch(after)
        watch.listeners += 1
        try:
            yield Listener(self, player, watch)
        finally:
            watch.listeners -= 1
            if watch.listeners == 0 and self.watches.get(player) is watch:
                del self.watches[player]
                if self.cluster:
                    task = self.tasks.pop(player, None)
                    if task is not None:
                        task.cancel()

    def wake_all(self) -> None:
        """Wake every listener (a credential was revoked somewhere: each stream looks at its own again)."""
        for watch in list(self.watches.values()):
            watch.wake()

    async def ensure_reading(self, player: str) -> None:
        """Start the reader that covers this player, or wake the multiplexed one to add the player to its read."""
        lane = player if self.cluster else ""
        task = self.tasks.get(lane)
        if task is None or task.done():
            self.tasks[lane] = asyncio.create_task(self._read(lane), name=f"feedhub-{lane or 'all'}")
        elif not self.cluster and player not in self.covered:
            await self._unblock()

    async def _unblock(self) -> None:
        """Cut the multiplexed read in flight short so that the next one covers the newcomers."""
        generation = self.generation
        for _ in range(UNBLOCK_TRIES):
            blocked = self.blocked_id
            if generation != self.generation:
                return  # a newer read has started: it covers the newcomer
            if blocked is not None and await self.redis.client_unblock(blocked):
                return
            await asyncio.sleep(0.005)

    async def _read(self, lane: str) -> None:
        """The reader of a lane ("": every watched player, over one dedicated connection; else one player)."""
        conn: Any = None
        try:
            if not lane:
                conn = Redis(connection_pool=self.redis.connection_pool, single_connection_client=True)
                await conn.client_setname(CLIENT_NAME)
            while True:
                players = [lane] if lane else [p for p, w in self.watches.items() if w.listeners > 0]
                watched = {p: self.watches[p] for p in players if p in self.watches}
                if not watched:  # leave the lane free at once: a newcomer from now on starts a new reader
                    if self.tasks.get(lane) is asyncio.current_task():
                        del self.tasks[lane]
                    return
                streams = {keys.feed(p): w.latest for p, w in watched.items()}
                self.reads += 1
                if lane:
                    reply = await self.redis.xread(streams, count=COUNT, block=BLOCK_MS)
                else:
                    self.generation += 1
                    self.covered = set(watched)
                    self.blocked_id = await conn.client_id()
                    try:
                        reply = await conn.xread(streams, count=COUNT, block=BLOCK_MS)
                    finally:
                        self.blocked_id = None
                by_key = {keys.feed(p): p for p in watched}
                for stream, rows in _streams(reply):
                    watch = watched[by_key[stream]]
                    watch.add([FeedEvent.parse(entry_id, fields) for entry_id, fields in rows])
                    watch.wake()
                await asyncio.sleep(0)  # the woken take their events before the next read is decided
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # Redis unreachable: every listener of the lane hears of it; the next starts afresh
            for player, watch in list(self.watches.items()):
                if not lane or player == lane:
                    watch.wake(exc)
        finally:
            if not lane:
                self.covered = set()
            if conn is not None:  # dropped, not pooled: a pooled connection would keep the reader's name
                with contextlib.suppress(Exception):
                    if conn.connection is not None:
                        await conn.connection.disconnect()
                    await conn.aclose()

    async def close(self) -> None:
        """Stop every reader (the process is stopping)."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()
        self.watches.clear()

    def readers(self) -> int:
        """How many readers run now."""
        return sum(1 for task in self.tasks.values() if not task.done())


def _streams(reply: Any) -> list[tuple[str, list[tuple[str, dict[str, str]]]]]:
    """An XREAD reply as (stream, entries) pairs, whichever protocol answered (a list in RESP2, a map in RESP3)."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return [(str(stream), rows[0] if rows and isinstance(rows[0], list) else rows)
                for stream, rows in reply.items()]
    return [(str(stream), rows) for stream, rows in reply]

