"""The leased queue that webhook deliveries (notifications/webhooks/deliveries.py) and pushes (push/queue.py) are
sent from, on the queue Redis: a due set (entry id -> when its next attempt is due) beside one hash per entry.

An attempt claims an entry by moving its due score to the end of a lease, its attempts counted, in one script, and
records its outcome only while that score is still its lease's end: a sender killed mid-send leaves the entry to
come due when the lease ends, and it is sent again (at least once). Each queue keeps its own keys and hash fields
(the scripts take them as arguments): the data a running service stored stays readable."""

from __future__ import annotations

import random
from typing import Any

from firebreak.matches import connections

# KEYS: the due set; ARGV: now, how many, the lease's end, the entries' key prefix. An entry whose hash is gone is
# dropped; each other one is leased, its attempts counted, then CLAIMED (the queue's Lua, with id, key and attempt
# set) adds what the sender needs to `out`.
_CLAIM = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local key = ARGV[4] .. id
  if redis.call('EXISTS', key) == 0 then
    redis.call('ZREM', KEYS[1], id)
  else
    redis.call('ZADD', KEYS[1], ARGV[3], id)
    local attempt = redis.call('HINCRBY', key, 'attempts', 1)
CLAIMED
  end
end
return out
"""

# KEYS: the due set, the entry, then the queue's own; ARGV: id, the lease's end, then the queue's own. Returns 0
# unless the attempt still holds the lease; else OUTCOME (the queue's Lua, which returns 1 when it recorded it).
_FINISH = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
OUTCOME
"""


def backoff(first: float, cap: float, failures: int, rng: random.Random | None = None) -> float:
    """The wait after the failures-th failed attempt: first doubling per failure up to cap, times a jitter of 0.8 to
    1.2 (so that a peer back from an outage is not hit by every entry at once)."""
    base = min(cap, first * 2.0 ** max(0, failures - 1))
    return base * (rng or random).uniform(0.8, 1.2)


class Leases:
    """Claims and outcomes of one queue's entries (an asyncio client with decoded replies): `claimed` and `outcome`
    are the queue's Lua for what a claim returns and how an outcome is recorded."""

    def __init__(self, redis: Any, claimed: str, outcome: str) -> None:
        self._claim = connections.Script(redis, _CLAIM.replace("CLAIMED", claimed))
        self._finish = connections.Script(redis, _FINISH.replace("OUTCOME", outcome))

    async def claim(self, due: str, prefix: str, count: int, now: float, lease_seconds: float) -> tuple[str, Any]:
        """Claim up to count entries of the due set due by now until now + lease_seconds: (the lease, what the
        queue's Lua put in `out`)."""
        lease = repr(now + lease_seconds)
        return lease, await self._claim(keys=[due], args=[repr(now), count, lease, prefix])

    async def finish(self, due: str, entry: str, entry_id: str, lease: str, more_keys: tuple[str, ...] = (),
                     args: tuple[Any, ...] = ()) -> bool:
        """Record an attempt's outcome if it still holds its lease; whether it did."""
        return bool(await self._finish(keys=[due, entry, *more_keys], args=[entry_id, lease, *args]))
