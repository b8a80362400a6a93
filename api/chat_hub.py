"""One chat reader per watched match in an API process, whatever the number of its chat subscribers (as api/fanout.py
is for match events).

A reader task holds the one blocking XREAD on the match's chat signal stream (chat/keys.py: entries name a channel
and a seq, never a text), fetches each new message once, keeps the newest RECENT of each channel, and wakes every
waiter; a waiter takes the messages after its cursor from the reader when they are all there, else reads the store
(it fell behind). So one message costs an API process two Redis calls, not two per subscriber (bench/chat_fanout.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from firebreak.chat import keys
from firebreak.chat.store import Channel, ChatStore, Message

BLOCK_MS = 10_000  # one blocking read's length; a reader with no waiter left stops after its read
RECENT = 64        # messages of each channel a reader keeps for its waiters


class Watch:
    """The reader of one match's chat: the newest messages of each channel, and an event set (then replaced)
    whenever one arrives."""

    def __init__(self) -> None:
        self.recent: dict[Channel, deque[Message]] = {channel: deque(maxlen=RECENT) for channel in Channel}
        self.changed = asyncio.Event()
        self.waiters = 0
        self.task: asyncio.Task[None] | None = None

    def after(self, channel: Channel, seq: int) -> list[Message] | None:
        """The messages of a channel after seq, if the reader holds every one of them (None: read the store)."""
        kept = self.recent[channel]
        if not kept or kept[-1].seq <= seq:
            return []
        if kept[0].seq > seq + 1:
            return None
        return [m for m in kept if m.seq > seq]

    @staticmethod
    async def wait(event: asyncio.Event, timeout: float) -> None:
        """Wait until `event` (the reader's `changed` as it was taken before looking at the messages) is set, or
        the timeout."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


class ChatHub:
    """Per-process readers of the chat signal streams, shared by the subscribers of each match."""

    def __init__(self, store: ChatStore) -> None:
        self.store = store
        self.redis: Any = store.redis
        self._watches: dict[str, Watch] = {}

    @contextlib.asynccontextmanager
    async def watching(self, match_id: str) -> AsyncIterator[Watch]:
        """The match's reader, started if need be, for as long as the block runs (the last waiter out lets it
        stop after its current read). Messages sent once this is entered are all seen by it."""
        watch = self._watches.get(match_id)
        if watch is None:
            watch = self._watches[match_id] = Watch()
            last = await self.redis.xrevrange(keys.signal(match_id), count=1)
            watch.task = asyncio.create_task(self._read(match_id, watch, last[0][0] if last else "0-0"))
        watch.waiters += 1
        try:
            yield watch
        finally:
            watch.waiters -= 1

    async def _read(self, match_id: str, watch: Watch, after: str) -> None:
        try:
            while True:
                got = await self.redis.xread({keys.signal(match_id): after}, block=BLOCK_MS, count=100)
                for _stream, entries in got or []:
                    wanted: dict[Channel, list[int]] = {channel: [] for channel in Channel}
                    for entry_id, fields in entries:
                        after = entry_id
                        with contextlib.suppress(ValueError, KeyError):
                            wanted[Channel(fields["c"])].append(int(fields["s"]))
                    for channel, seqs in wanted.items():
                        for message in await self.store.many(match_id, channel, seqs):
                            watch.recent[channel].append(message)
                    changed, watch.changed = watch.changed, asyncio.Event()
                    changed.set()
                if watch.waiters <= 0:
                    break
        finally:
            if self._watches.get(match_id) is watch:
                del self._watches[match_id]
            changed, watch.changed = watch.changed, asyncio.Event()
            changed.set()

    def wake_all(self) -> None:
        """Wake every follower (a credential was revoked somewhere: each stream looks at its own again)."""
        for watch in list(self._watches.values()):
            changed, watch.changed = watch.changed, asyncio.Event()
            changed.set()

    def readers(self) -> int:
        """How many matches this process reads the chat of now."""
        return len(self._watches)

    async def close(self) -> None:
        """Stop every reader."""
        for watch in list(self._watches.values()):
            if watch.task is not None:
                watch.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await watch.task
        self._watches.clear()
