"""The pushes being sent, on the queue Redis: one hash per push and one due set, sent at least once.

A push's id is derived from its registration and its feed event, so making it twice (a forwarder re-run after a
crash) makes nothing new. Its due entry is leased and its outcome recorded as notifications/leases.py tells (the
webhook deliveries' queue too): a sender killed mid-send leaves the push to come due when the lease ends, and it is
sent again (the one duplicate the protocol allows: the push service may get it twice, and its Topic makes the second
replace the first if the device has not fetched it yet)."""

from __future__ import annotations

import base64
import hashlib
import random
from dataclasses import dataclass
from typing import Any

from firebreak.notifications import leases
from firebreak.notifications.leases import Leases
from firebreak.push import keys
from firebreak.push.message import Message
from firebreak.push.settings import PushSettings

GRACE = 3600  # seconds a push's hash outlives its TTL (a retry's lease, a slow sender)


def push_id(sub_id: str, event_id: str) -> str:
    """The stable id of an event's push to a registration."""
    return "pu_" + base64.b32encode(hashlib.sha256(f"{sub_id}\n{event_id}".encode()).digest()[:15]).decode().lower()


def retry_delay(settings: PushSettings, failures: int, rng: random.Random | None = None) -> float:
    """The wait after the failures-th failed attempt: doubling from retry_seconds up to retry_cap_seconds, times a
    jitter of 0.8 to 1.2."""
    return leases.backoff(settings.retry_seconds, settings.retry_cap_seconds, failures, rng)


@dataclass(frozen=True)
class NewPush:
    """What the forwarder hands over: an event's push to one registration of a player."""

    player: str
    subscription: str
    event: str
    message: Message

    @property
    def id(self) -> str:
        """The push's stable id."""
        return push_id(self.subscription, self.event)


@dataclass(frozen=True)
class Claimed:
    """A push an attempt holds until `lease`."""

    id: str
    attempt: int
    player: str
    subscription: str
    payload: str
    topic: str
    ttl: int
    urgency: str
    created: float
    lease: str


# KEYS: the due set; ARGV: now, push key prefix, then eight per push (id, player, subscription, event, payload,
# topic, ttl, urgency). Makes those that do not exist.
_CREATE = """
local made = 0
for i = 3, #ARGV, 8 do
  local key = ARGV[2] .. ARGV[i]
  if redis.call('EXISTS', key) == 0 then
    redis.call('HSET', key, 'player', ARGV[i + 1], 'sub', ARGV[i + 2], 'event', ARGV[i + 3], 'payload', ARGV[i + 4],
               'topic', ARGV[i + 5], 'ttl', ARGV[i + 6], 'urgency', ARGV[i + 7], 'attempts', 0, 'created', ARGV[1])
    redis.call('EXPIRE', key, tonumber(ARGV[i + 6]) + GRACE)
    redis.call('ZADD', KEYS[1], ARGV[1], ARGV[i])
    made = made + 1
  end
end
return made
""".replace("GRACE", str(GRACE))

# What a claim returns of each push (see notifications/leases.py).
_CLAIMED = """
    local f = redis.call('HMGET', key, 'player', 'sub', 'payload', 'topic', 'ttl', 'urgency', 'created')
    out[#out + 1] = {id, attempt, f[1], f[2], f[3], f[4], f[5], f[6], f[7]}"""

# KEYS: (the due set, the push); ARGV: (id, lease), outcome (done, retry), next attempt.
_OUTCOME = """
if ARGV[3] == 'done' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2])
else
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
end
return 1
"""


class Queue:
    """The pushes of one queue name, over the queue Redis."""

    def __init__(self, redis: Any, queue: str) -> None:
        self.redis = redis
        self.queue = queue
        self.prefix = keys.push(queue, "")
        self.leases = Leases(redis, _CLAIMED, _OUTCOME)

    async def create(self, pushes: list[NewPush], now: float) -> int:
        """Store the pushes that do not exist yet, due now; return how many were made."""
        if not pushes:
            return 0
        args: list[Any] = [repr(now), self.prefix]
        for p in pushes:
            args += [p.id, p.player, p.subscription, p.event, p.message.payload, p.message.topic, p.message.ttl,
                     p.message.urgency]
        return int(await self.redis.eval(_CREATE, 1, keys.due(self.queue), *args))

    async def claim(self, count: int, now: float, lease_seconds: float) -> list[Claimed]:
        """Claim up to count due pushes until now + lease_seconds."""
        lease, rows = await self.leases.claim(keys.due(self.queue), self.prefix, count, now, lease_seconds)
        return [Claimed(str(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]), int(r[6]), str(r[7]),
                        float(r[8]), lease) for r in rows]

    async def finish(self, claimed: Claimed, done: bool, next_at: float = 0.0) -> bool:
        """Record an attempt's outcome (done: sent or dropped; else retried at next_at) while it holds the lease;
        whether it still did."""
        return await self.leases.finish(keys.due(self.queue), keys.push(self.queue, claimed.id), claimed.id,
                                        claimed.lease, args=("done" if done else "retry", repr(next_at)))

    async def waiting(self) -> int:
        """How many pushes are not done."""
        return int(await self.redis.zcard(keys.due(self.queue)))
