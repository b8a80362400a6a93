"""Presence: when a player was last seen (keys.seen), written as they act (every authenticated request) and while
they hold a stream open (the player's event stream, a match subscription), at most once per
FIREBREAK_PRESENCE_TOUCH_SECONDS (60) per player and API process, so that an act costs a dictionary look-up and a
write a minute at most (`python -m bench.presence` measures it). A player is online while seen within
FIREBREAK_PRESENCE_ONLINE_SECONDS (an open stream touches every few seconds, so it keeps them online); otherwise
their friends see when they were last seen. Only friends see it (me.friends)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError

from firebreak.social import keys
from firebreak.social.config import SocialSettings

log = logging.getLogger("firebreak.presence")

SEEN_TTL = 90 * 24 * 3600      # seconds a last-seen time is kept
REMEMBERED = 100_000           # players a process remembers having marked (then it starts over)
_marked: dict[str, float] = {}  # player -> time.monotonic() of this process's last write
_every: list[float] = []        # FIREBREAK_PRESENCE_TOUCH_SECONDS, read once per process


def every() -> float:
    """Seconds between two writes of one player's mark by one process (the settings', read once)."""
    if not _every:
        _every.append(SocialSettings.from_env().touch_seconds)
    return _every[0]


@dataclass(frozen=True)
class Presence:
    """Whether a player is online now, and when they were last seen (epoch seconds; None: not for a long time)."""

    online: bool
    last_seen: float | None


async def touch(redis: Any, player: str) -> None:
    """Mark the player seen now, unless this process did so less than every() seconds ago (best effort: a failed
    write is logged and tried again on the next act)."""
    now = time.monotonic()
    last = _marked.get(player)
    if last is not None and now - last < every():
        return
    if len(_marked) >= REMEMBERED:
        _marked.clear()
    _marked[player] = now
    try:
        await redis.set(keys.seen(player), repr(time.time()), ex=SEEN_TTL)
    except RedisError as exc:
        _marked.pop(player, None)
        log.warning("presence of a player not written: %s", type(exc).__name__)


def forget(player: str) -> None:
    """Drop this process's memory of a player's mark (the next act writes it)."""
    _marked.pop(player, None)


async def of(redis: Any, players: list[str], online_seconds: float) -> dict[str, Presence]:
    """The presence of several players (one pipelined round trip)."""
    if not players:
        return {}
    pipe = redis.pipeline(transaction=False)
    for player in players:
        pipe.get(keys.seen(player))
    now = time.time()
    out = {}
    for player, raw in zip(players, await pipe.execute(), strict=True):
        seen = None if raw is None else float(raw)
        out[player] = Presence(seen is not None and now - seen <= online_seconds, seen)
    return out
