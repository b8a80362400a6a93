"""Rate-limit leases: a process takes a few tokens ahead from a shared bucket and spends them without asking Redis,
yet all processes together never get more than the bucket allows, and a refusal takes nothing."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from typing import TypeVar

from redis.asyncio import Redis

from firebreak.matches import keys
from firebreak.matches.ratelimit import LEASE_MAX, Charge, Rate, RateLimiter, lease_size

T = TypeVar("T")
SLOW = 0.001  # tokens per second: no refill worth counting during a test


def _run(redis_url: str, body: Callable[[Redis], Awaitable[T]]) -> T:
    async def go() -> T:
        redis = Redis.from_url(redis_url, decode_responses=True, max_connections=200)
        try:
            return await body(redis)
        finally:
            await redis.aclose()

    return asyncio.run(go())


def _bucket(kind: str) -> str:
    return keys.rate_bucket(kind, f"test:{secrets.token_hex(6)}")


def test_a_lease_serves_the_next_requests_without_redis(redis_url: str) -> None:
    async def body(redis: Redis) -> None:
        limiter = RateLimiter(redis)
        charge = Charge(_bucket("lease"), Rate(SLOW, 160))
        assert lease_size(charge.rate) == LEASE_MAX
        assert (await limiter.take([charge])).allowed
        level = float(await redis.hget(charge.key, "tokens") or 0)
        assert round(level) == 160 - 1 - LEASE_MAX, "the first request did not lease"
        for _ in range(LEASE_MAX):
            assert (await limiter.take([charge])).allowed
        assert float(await redis.hget(charge.key, "tokens") or 0) == level, "a leased request asked Redis"
        assert (await limiter.take([charge])).allowed  # the lease is spent: Redis again, and a new lease
        assert round(float(await redis.hget(charge.key, "tokens") or 0)) == level - 1 - LEASE_MAX

    _run(redis_url, body)


def test_processes_together_never_exceed_the_burst(redis_url: str) -> None:
    async def body(redis: Redis) -> None:
        processes = [RateLimiter(redis) for _ in range(3)]
        charge = Charge(_bucket("shared"), Rate(SLOW, 100))
        allowed = 0
        for n in range(400):
            if (await processes[n % 3].take([charge])).allowed:
                allowed += 1
        assert allowed <= 100, f"{allowed} requests allowed by a bucket of 100"
        assert allowed >= 100 - 3 * LEASE_MAX, "leases lost more than each process's one unspent lease"

    _run(redis_url, body)


def test_a_small_bucket_is_never_leased(redis_url: str) -> None:
    async def body(redis: Redis) -> None:
        limiter, other = RateLimiter(redis), RateLimiter(redis)
        charge = Charge(_bucket("small"), Rate(SLOW, 5))
        assert lease_size(charge.rate) == 0
        answers = [(await (limiter if n % 2 else other).take([charge])).allowed for n in range(7)]
        assert answers == [True] * 5 + [False] * 2, "a small bucket's exact limit changed"

    _run(redis_url, body)


def test_a_refusal_takes_nothing_from_any_bucket_or_lease(redis_url: str) -> None:
    async def body(redis: Redis) -> None:
        limiter = RateLimiter(redis)
        client = Charge(_bucket("client"), Rate(SLOW, 160))
        token = Charge(_bucket("token"), Rate(SLOW, 2))
        assert (await limiter.take([client, token])).allowed
        assert (await limiter.take([client, token])).allowed
        lease = limiter.leases[client.key]
        level = await redis.hget(client.key, "tokens")
        refused = await limiter.take([client, token])
        assert not refused.allowed and refused.retry_after > 0
        assert limiter.leases[client.key] == lease and await redis.hget(client.key, "tokens") == level
        assert (await limiter.take([client])).allowed, "the client's own lease still serves it"

    _run(redis_url, body)


def test_a_burst_of_concurrent_requests_within_the_limit_is_all_allowed(redis_url: str) -> None:
    # Requests that find no lease all ask Redis at once, and each leases beyond its cost; the tokens the process
    # then holds are the bucket's own, so a request Redis refuses meanwhile spends them instead of being refused.
    async def body(redis: Redis) -> None:
        limiter = RateLimiter(redis)
        charge = Charge(_bucket("herd"), Rate(SLOW, 160))
        answers = await asyncio.gather(*(limiter.take([charge]) for _ in range(150)))
        assert all(a.allowed for a in answers), f"{sum(not a.allowed for a in answers)} of 150 refused by 160"
        level = float(await redis.hget(charge.key, "tokens") or 0)
        assert 150 + round(level) + limiter.leases[charge.key][0] == 160, "tokens were made or lost"
        answers = await asyncio.gather(*(limiter.take([charge]) for _ in range(20)))
        assert sum(a.allowed for a in answers) == 10, "the bucket gave more than it holds"

    _run(redis_url, body)


def test_a_charge_of_nothing_is_allowed_and_takes_nothing(redis_url: str) -> None:
    async def body(redis: Redis) -> None:
        limiter = RateLimiter(redis)
        empty = Charge(_bucket("empty"), Rate(SLOW, 2), cost=0)
        assert (await limiter.take([empty])).allowed
        assert await redis.exists(empty.key) == 0, "a charge of nothing touched its bucket"
        assert empty.key not in limiter.leases
        full = Charge(_bucket("full"), Rate(SLOW, 2), cost=2)
        assert (await limiter.take([full])).allowed
        assert not (await limiter.take([full, empty])).allowed, "the empty charge let a spent bucket through"

    _run(redis_url, body)
