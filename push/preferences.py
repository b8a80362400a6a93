"""Which kinds of event a player wants pushed (every pushed kind is on until the player turns it off)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firebreak.push import keys
from firebreak.push.message import PUSHED
from firebreak.push.subscriptions import PushError


async def read(redis: Any, player: str) -> dict[str, bool]:
    """Every pushed kind -> whether the player wants it."""
    stored = await redis.hgetall(keys.preferences(player))
    return {kind: stored.get(kind, "1") == "1" for kind in PUSHED}


async def update(redis: Any, player: str, changes: Mapping[str, bool]) -> dict[str, bool]:
    """Turn kinds on or off (PushError naming an unknown kind: nothing changed); return every kind's setting."""
    unknown = sorted(set(changes) - set(PUSHED))
    if unknown:
        raise PushError(f"not a pushed kind: {', '.join(unknown)[:200]} (pushed: {', '.join(PUSHED)})")
    if changes:
        await redis.hset(keys.preferences(player), mapping={k: "1" if on else "0" for k, on in changes.items()})
    return await read(redis, player)
