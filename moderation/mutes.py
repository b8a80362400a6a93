"""Mutes: a player the operator mutes may not chat until the mute ends (MUTED); a mute is one key with the mute's
time to live, so it ends by itself."""

from __future__ import annotations

import math
import time
from typing import Any

from firebreak.moderation import keys

MAX_SECONDS = 10 * 365 * 24 * 3600  # the longest mute (about ten years: for good)


async def mute(redis: Any, player: str, seconds: float) -> float:
    """Mute a player for `seconds` from now (replacing a mute it has); return until when."""
    until = time.time() + seconds
    await redis.set(keys.muted(player), repr(until), ex=max(1, math.ceil(seconds)))
    return until


async def unmute(redis: Any, player: str) -> bool:
    """Lift a player's mute; whether it had one."""
    return bool(await redis.delete(keys.muted(player)))


async def muted_until(redis: Any, player: str) -> float | None:
    """Until when a player is muted (None: it is not)."""
    raw = await redis.get(keys.muted(player))
    if raw is None:
        return None
    until = float(raw)
    return until if until > time.time() else None
