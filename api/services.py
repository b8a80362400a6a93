"""The connections one API process holds, built at startup and shared by every request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from api.ratelimit import Limits
from api.snapshots import Snapshots
from matches import connections
from matches.config import Settings
from matches.lobby import Lobby
from matches.pipeline import Pipeline
from matches.ratelimit import RateLimiter
from matches.scheduler import Scheduler
from matches.store import MatchStore

SOCKET_TIMEOUT = 30.0  # seconds; the subscription blocks at most BLOCK_MS (10 s) per read


@dataclass
class Services:
    """Redis, the store, the lobby and pipeline over it, and the rate limits."""

    settings: Settings
    redis: Redis
    store: MatchStore
    scheduler: Scheduler
    lobby: Lobby
    pipeline: Pipeline
    limits: Limits
    snapshots: Snapshots
    metrics: Any = field(default=None)  # api.metrics.Metrics, set by the app factory

    @classmethod
    def connect(cls, settings: Settings) -> Services:
        """Build the services for a Redis URL (connections open lazily)."""
        # socket_timeout must outlast the subscription's blocking stream reads (redis-py 8 defaults to 5 s,
        # which cut every idle subscription short). Health checks and retries: matches/connections.py.
        redis = connections.async_client(settings.redis_url, decode_responses=True, max_connections=2000,
                                         socket_timeout=SOCKET_TIMEOUT)
        store = MatchStore(redis, settings)
        scheduler = Scheduler(redis, settings)
        return cls(settings, redis, store, scheduler, Lobby(store, scheduler), Pipeline(store, scheduler),
                   Limits(settings, RateLimiter(redis)), Snapshots(store))

    async def close(self) -> None:
        """Release the connections."""
        await self.redis.aclose()
