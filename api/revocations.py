"""Revoked credentials end the streams that carry them at once, in every API process.

A stream rechecks its credential every FIREBREAK_EVENTS_RECHECK_SECONDS (60 by default) and at its expiry. When a
player's credentials are revoked (a ban, an account's deletion, signing out everywhere: rare events, unlike a
single session's sign-out, whose streams end at their recheck) the process that did it publishes the player's id on
the queue Redis (a plain server: its pub/sub reaches every process); each API process listens, notes the player's
revocation and wakes every stream reader it runs (match events, the players' feeds, chat), so the streams of that
player (myevents.Guard: revoked_since) look at their credential again before they deliver anything more, and a
revoked one ends within moments rather than a minute; the others go back to waiting.
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

KEPT = 100_000  # revoked players a process remembers (the oldest forgotten: their streams recheck as after a gap)

_generation = [0, 0]  # [revocations this process heard of, the generation of its last gap in listening]
_revoked: dict[str, int] = {}  # player -> the generation at which its revocation was heard


def generation() -> int:
    """How many revocations this process has heard of."""
    return _generation[0]


def heard(player: str | None) -> None:
    """Count a player's revocation (None: a gap in listening, which may have hidden any)."""
    _generation[0] += 1
    if player is None or len(_revoked) >= KEPT:
        _revoked.clear()
        _generation[1] = _generation[0]
    if player is not None:
        _revoked[player] = _generation[0]


def revoked_since(player: str | None, seen: int) -> bool:
    """Whether a stream of this player (None: of anyone) that last checked at generation `seen` must check its
    credential again: its player was revoked since, or this process may have missed a revocation since."""
    if player is None:
        return _generation[0] > seen
    return _generation[1] > seen or _revoked.get(player, -1) > seen


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
                heard(None)  # anything published while nobody listened: every stream rechecks once
                self.wake()
                try:
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            heard(str(message.get("data")))
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
