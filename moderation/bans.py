"""Bans: a player the operator bans can neither sign in nor play, until the ban ends (or for good).

Laying a ban writes the ban's outbox entry (keys.BANS_PENDING, on the queue Redis), then one script in the player's
slot marks the player banned (its hash's `banned`: until when, inf for good) and bumps its token version, which
stops every session and access token at once; the players layer refuses every credential of a banned player (its
personal access tokens and the operator's JWTs too: players/authenticate.py) and every sign-in (players/sessions.py).
The API then tells every API process (api/revocations.py), so open streams end within moments. The rest, done by a
worker (workers/moderation.py) and idempotent: live seats resign, waiting seats are left, seeks are cancelled; the
outbox entry is dropped once done, and the reconciler hands on an entry a crash left.
"""

from __future__ import annotations

import math
import time
from typing import Any

from firebreak.matches.connections import Script
from firebreak.moderation import keys
from firebreak.players import keys as player_keys

FOREVER = math.inf

# KEYS: the player. ARGV: until (epoch seconds, or inf). Ban it and bump its token version; 0 when no such player.
_BAN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'banned', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'ver', 1)
return 1
"""


class Bans:
    """Laying and lifting bans, over the matches Redis (players' keys) and the queue Redis (the outbox)."""

    def __init__(self, redis: Any, queue: Any) -> None:
        self.redis = redis
        self.queue = queue
        self._ban = Script(redis, _BAN)

    async def ban(self, player: str, seconds: float | None) -> float | None:
        """Ban a player for `seconds` from now (None: for good); until when, or None when there is no such
        player (nothing written then)."""
        until = FOREVER if seconds is None else time.time() + seconds
        if not await self.redis.exists(player_keys.player(player)):
            return None
        await self.queue.zadd(keys.BANS_PENDING, {player: time.time()})  # first: a crash after leaves the rest owed
        if not int(await self._ban(keys=[player_keys.player(player)], args=[repr(until)])):
            await self.queue.zrem(keys.BANS_PENDING, player)
            return None
        return until

    async def unban(self, player: str) -> bool:
        """Lift a player's ban (it signs in again; its old sessions stay ended); whether it had one."""
        return bool(await self.redis.hdel(player_keys.player(player), "banned"))
