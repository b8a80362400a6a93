"""Which matches a player has open right now: a mark per (player, match) with a short TTL, refreshed by the
player's open match streams (api/schema/subscription.py) and read by the push forwarder, which pushes nothing of a
match the player is looking at (as Lichess's push module does)."""

from __future__ import annotations

import time
from typing import Any

from firebreak.push import keys

TTL = 30        # seconds a mark lives: more than a stream's longest wait between two looks (10 s)
REFRESH = 5.0   # seconds between two refreshes by one stream


class Watch:
    """One open stream's mark: refreshed at most every REFRESH seconds, dropped when the stream closes."""

    def __init__(self, redis: Any, player: str, match_id: str) -> None:
        self.redis = redis
        self.key = keys.watching(player, match_id)
        self._at = -REFRESH

    async def refresh(self) -> None:
        """Set or extend the mark (unless this stream did so less than REFRESH seconds ago)."""
        now = time.monotonic()
        if now - self._at >= REFRESH:
            self._at = now
            await self.redis.set(self.key, "1", ex=TTL)

    async def close(self) -> None:
        """Drop the mark (the stream closed)."""
        await self.redis.delete(self.key)
