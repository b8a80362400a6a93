"""Token buckets in Redis, shared by every API process: one Lua script takes from several buckets atomically.

A process may take a few tokens more than a request costs (a lease, at most LEASE_SHARE of the bucket's burst and
LEASE_MAX tokens) and spend them on the next requests charged to that bucket without asking Redis again, for
LEASE_SECONDS. Leased tokens come out of the shared bucket, so every process together never takes more than the
limit allows; a lease that runs out of time unspent is lost, which only makes the limit stricter. A bucket too
small to share (a burst under 1 / LEASE_SHARE) is never leased: each request asks Redis, as before. Requests that
find no lease ask Redis together and each leases ahead, so a burst moves the bucket into the process's leases; a
request Redis then refuses spends those leases when they cover it, so a burst within the limit is never refused.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from firebreak.matches import keys

# KEYS: the buckets; ARGV: per bucket (rate per second, burst, cost, lease: the most tokens to take beyond the
# cost). Takes cost from every bucket, or from none when one of them holds too little; answers {1, 0, leased
# tokens per bucket...} or {0, milliseconds until the take would succeed}. Redis's clock (TIME) is the one clock
# of every API process.
_TAKE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local levels = {}
local wait = 0
for i = 1, #KEYS do
  local rate = tonumber(ARGV[4 * i - 3])
  local burst = tonumber(ARGV[4 * i - 2])
  local cost = tonumber(ARGV[4 * i - 1])
  local bucket = redis.call('HMGET', KEYS[i], 'tokens', 'at')
  local tokens = tonumber(bucket[1]) or burst
  local at = tonumber(bucket[2]) or now_ms
  tokens = math.min(burst, tokens + math.max(0, now_ms - at) * rate / 1000)
  levels[i] = tokens
  if tokens < cost then
    wait = math.max(wait, (cost - tokens) * 1000 / rate)
  end
end
if wait > 0 then
  return {0, math.ceil(wait)}
end
local answer = {1, 0}
for i = 1, #KEYS do
  local rate = tonumber(ARGV[4 * i - 3])
  local burst = tonumber(ARGV[4 * i - 2])
  local left = levels[i] - tonumber(ARGV[4 * i - 1])
  local leased = math.max(0, math.min(tonumber(ARGV[4 * i]), math.floor(left)))
  left = left - leased
  answer[i + 2] = leased
  redis.call('HSET', KEYS[i], 'tokens', tostring(left), 'at', now_ms)
  redis.call('PEXPIRE', KEYS[i], math.ceil((burst - left) * 1000 / rate) + 1000)
end
return answer
"""


@dataclass(frozen=True)
class Rate:
    """A bucket's refill rate (tokens per second; 0 turns the limit off) and its size (the burst allowed)."""

    per_second: float
    burst: int

    @property
    def enabled(self) -> bool:
        """Whether this limit applies at all."""
        return self.per_second > 0 and self.burst > 0


@dataclass(frozen=True)
class Charge:
    """What one request takes from one bucket."""

    key: str
    rate: Rate
    cost: int = 1


@dataclass(frozen=True)
class Verdict:
    """Allowed, or refused with the seconds after which the same request would be allowed."""

    allowed: bool
    retry_after: float = 0.0


ALLOWED = Verdict(True)
LEASE_SHARE = 1 / 16   # a lease is at most this share of the bucket's burst...
LEASE_MAX = 8          # ...and at most this many tokens
LEASE_SECONDS = 30.0   # an unspent lease is dropped after this long
MAX_LEASES = 10_000    # leases one process keeps (expired ones are dropped first)
SETTLE_SECONDS = 0.05  # how long a refused request waits for this process's other answers on its buckets


def _cost(charge: Charge) -> int:
    return min(charge.cost, charge.rate.burst)


def lease_size(rate: Rate) -> int:
    """The most tokens a process takes beyond a request's cost from a bucket of this rate."""
    return min(LEASE_MAX, math.floor(rate.burst * LEASE_SHARE))


class RateLimiter:
    """Takes from buckets atomically; a bucket is a Redis hash that expires once it would be full again. Tokens
    this process leased (see the module's docstring) are spent first."""

    def __init__(self, redis: Redis) -> None:
        self._take = redis.register_script(_TAKE)
        self.leases: dict[str, tuple[int, float]] = {}  # bucket key -> (tokens, time.monotonic() it lapses)
        self.asking: dict[str, int] = {}  # bucket key -> this process's requests waiting for Redis's answer on it

    async def take(self, charges: list[Charge]) -> Verdict:
        """Take every charge's cost from its bucket (all or none); limits that are off are skipped."""
        live = [c for c in charges if c.rate.enabled]
        if not live:
            return ALLOWED
        if self._spend_leased(live):
            return ALLOWED
        args: list[Any] = []
        for c in live:  # Redis decides for all (all or none), leasing a few more tokens of each bucket
            args += [c.rate.per_second, c.rate.burst, _cost(c), lease_size(c.rate)]
        names = [c.key for c in live]
        for name in names:
            self.asking[name] = self.asking.get(name, 0) + 1
        try:
            answer = await self._take(keys=names, args=args)
            if int(answer[0]):
                now = time.monotonic()
                if len(self.leases) >= MAX_LEASES:
                    self.leases = {k: lease for k, lease in self.leases.items() if lease[1] > now}
                for c, leased in zip(live, answer[2:], strict=True):
                    self.leases[c.key] = (self._leased(c.key, now) + int(leased), now + LEASE_SECONDS)
                return ALLOWED
        finally:
            for name in names:
                left = self.asking[name] - 1
                if left:
                    self.asking[name] = left
                else:
                    del self.asking[name]
        # Requests that asked Redis at the same time may lease this process enough: those tokens are already the
        # buckets' own, taken for this process (a burst would otherwise drain the buckets into its leases and be
        # refused). Their answers may come back after this one (over other pooled connections), so wait for
        # them, briefly, before refusing.
        settle, pause = time.monotonic() + SETTLE_SECONDS, 0.001
        while True:
            if self._spend_leased(live):
                return ALLOWED
            if not any(name in self.asking for name in names) or time.monotonic() > settle:
                return Verdict(False, int(answer[1]) / 1000)
            await asyncio.sleep(pause)  # a few wakeups at most: a flood of refused requests costs little
            pause *= 2

    def _spend_leased(self, live: list[Charge]) -> bool:
        """Spend every charge's cost from this process's leases if they cover them all; else spend nothing."""
        now = time.monotonic()
        for c in live:
            if self._leased(c.key, now) < _cost(c):  # none, lapsed, or too few tokens
                return False
        leases = self.leases
        for c in live:  # no await from the check to here: no other request spends these meanwhile
            cost = _cost(c)
            if cost:  # a charge of nothing needs no lease (Redis would allow it too)
                tokens, lapses = leases[c.key]
                leases[c.key] = (tokens - cost, lapses)
        return True

    def _leased(self, key: str, now: float) -> int:
        """The tokens this process holds for a bucket (0 once the lease lapsed)."""
        lease = self.leases.get(key)
        if lease is None or lease[1] <= now:
            return 0
        return lease[0]


def token_bucket(token_hash: str, kind: str) -> str:
    """The bucket of one token (by its hash: tokens are never stored) for one kind of request."""
    return keys.rate_bucket(kind, f"token:{token_hash}")


def client_bucket(client: str, kind: str) -> str:
    """The bucket of one client address for one kind of request."""
    return keys.rate_bucket(kind, f"client:{client}")
