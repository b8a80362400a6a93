"""Which matches a player has open right now: per (player, match) a sorted set of the player's open streams on it,
each entry counted until a short time ahead and refreshed by its stream (api/schema/subscription.py), and read by
the push forwarder, which pushes nothing of a match the player is looking at (as Lichess's push module does). One
entry per stream, so closing one of two tabs on a match leaves the other counted (one shared mark, dropped by
whichever stream closed first, let pushes through while the other tab was still open)."""

from __future__ import annotations

import secrets
import time
from typing import Any

from firebreak.push import keys

TTL = 30        # seconds an entry counts: more than a stream's longest wait between two looks (10 s)
REFRESH = 5.0   # seconds between two refreshes by one stream


class Watch:
    """One open stream's entry: refreshed at most every REFRESH seconds, dropped when the stream closes."""

    def __init__(self, redis: Any, player: str, match_id: str) -> None:
        self.redis = redis
        self.key = keys.watching(player, match_id)
        self.stream = secrets.token_hex(8)
        self._at = -REFRESH

    async def refresh(self) -> None:
        """Count this stream as open until TTL seconds from now (unless it did so less than REFRESH seconds ago);
        entries of streams that died without closing age out."""
        now = time.monotonic()
        if now - self._at >= REFRESH:
            self._at = now
            wall = time.time()
            pipe = self.redis.pipeline(transaction=False)
            pipe.zremrangebyscore(self.key, "-inf", wall)
            pipe.zadd(self.key, {self.stream: wall + TTL})
            pipe.expire(self.key, TTL)
            await pipe.execute()

    async def close(self) -> None:
        """Drop this stream's entry (the stream closed); the player's other streams on the match still count."""
        await self.redis.zrem(self.key, self.stream)


async def watched(redis: Any, player: str, match_id: str) -> bool:
    """Whether the player has the match open right now (a stream's entry that has not aged out)."""
    return bool(await redis.zcount(keys.watching(player, match_id), f"({time.time()!r}", "+inf"))
