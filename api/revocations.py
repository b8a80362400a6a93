"""Revoked credentials end the streams that carry them at once, in every API process.

A stream rechecks its credential every FIREBREAK_EVENTS_RECHECK_SECONDS (60 by default) and at its expiry. When a
player's credentials are revoked (a ban, an account's deletion, signing out everywhere) the process that did it
publishes the player's revocation on the queue Redis (a plain server: its pub/sub reaches every process); each API
process listens, counts a new revocation generation and wakes every stream reader it runs (match events, the
players' feeds, chat), so each stream looks at its credential again before it delivers anything more (myevents.Guard
rechecks when the generation moved), and a revoked one ends within moments rather than a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

CHANNEL = "firebreak:revoked"  # pub/sub channel on the queue Redis: a message is a revoked player's id
RETRY = 1.0                    # seconds before listening again after Redis went away

log = logging.getLogger("firebreak.api")

_generation = [0]  # revocations this process heard of (and those it cannot tell it missed: a reconnection)


def generation() -> int:
    """How many revocations this process has heard of: a stream rechecks its credential when it moved."""
    return _generation[0]


def heard() -> None:
    """Count a revocation (or a gap in listening, which may have hidden one)."""
    _generation[0] += 1


async def publish(queue: Any, player: str) -> None:
    """Tell every API process that the player's credentials were revoked."""
    await queue.publish(CHANNEL, player)


class Listener:
    """One process's subscription to the revocations; `wake` wakes every stream reader of the process."""

    def __init__(self, queue: Any, wake: Callable[[], None]) -> None:
        self.queue = queue
        self.wake = wake
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Listen in a task of the running loop."""
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name="revocations")

    async def _run(self) -> None:
        while True:
            try:
                pubsub = self.queue.pubsub()
                await pubsub.subscribe(CHANNEL)
                heard()  # anything published while nobody listened: recheck once
                self.wake()
                try:
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            heard()
                            self.wake()
                finally:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: listen again soon; streams keep their periodic rechecks
                log.warning("revocations: listening again in %.0f s (%s)", RETRY, type(exc).__name__)
                await asyncio.sleep(RETRY)

    async def stop(self) -> None:
        """Stop listening."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None
