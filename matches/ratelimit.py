"""Token buckets in Redis, shared by every API process: one Lua script takes from several buckets atomically."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from matches import keys

# KEYS: the buckets; ARGV: per bucket (rate per second, burst, cost). Takes cost from every bucket, or from none
# when one of them holds too little; answers {1, 0} or {0, milliseconds until the take would succeed}.
# Redis's clock (TIME) is the one clock of every API process.
_TAKE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local levels = {}
local wait = 0
for i = 1, #KEYS do
  local rate = tonumber(ARGV[3 * i - 2])
  local burst = tonumber(ARGV[3 * i - 1])
  local cost = tonumber(ARGV[3 * i])
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
for i = 1, #KEYS do
  local rate = tonumber(ARGV[3 * i - 2])
  local burst = tonumber(ARGV[3 * i - 1])
  local left = levels[i] - tonumber(ARGV[3 * i])
  redis.call('HSET', KEYS[i], 'tokens', tostring(left), 'at', now_ms)
  redis.call('PEXPIRE', KEYS[i], math.ceil((burst - left) * 1000 / rate) + 1000)
end
return {1, 0}
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


class RateLimiter:
    """Takes from buckets atomically; a bucket is a Redis hash that expires once it would be full again."""

    def __init__(self, redis: Redis) -> None:
        self._take = redis.register_script(_TAKE)

    async def take(self, charges: list[Charge]) -> Verdict:
        """Take every charge's cost from its bucket (all or none); limits that are off are skipped."""
        live = [c for c in charges if c.rate.enabled]
        if not live:
            return ALLOWED
        args: list[Any] = []
        for c in live:
            args += [c.rate.per_second, c.rate.burst, min(c.cost, c.rate.burst)]
        allowed, wait_ms = await self._take(keys=[c.key for c in live], args=args)
        return ALLOWED if allowed else Verdict(False, int(wait_ms) / 1000)


def token_bucket(token_hash: str, kind: str) -> str:
    """The bucket of one token (by its hash: tokens are never stored) for one kind of request."""
    return keys.rate_bucket(kind, f"token:{token_hash}")


def client_bucket(client: str, kind: str) -> str:
    """The bucket of one client address for one kind of request."""
    return keys.rate_bucket(kind, f"client:{client}")
