"""The deployments bench/api_load.py starts or targets: one Redis (both roles), or a 3-master Redis Cluster for
match state beside a plain queue Redis; and the Redis figures it reads from either."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis, RedisCluster

from firebreak.matches import connections, keys
from firebreak.matches.embedded import EmbeddedCluster, EmbeddedRedis

CLUSTER_MASTERS = 3


class ClusterRedises:
    """A Redis Cluster (matches) and a plain Redis (queue) in a folder, started and stopped together."""

    def __init__(self, folder: Any) -> None:
        self.cluster = EmbeddedCluster(folder / "cluster", CLUSTER_MASTERS)
        self.queue = EmbeddedRedis(folder / "queue-redis", appendonly=False, prefer_bundled=False)

    def start(self) -> dict[str, str]:
        """Start both; return REDIS_URL and QUEUE_REDIS_URL."""
        return {"REDIS_URL": self.cluster.start(), "QUEUE_REDIS_URL": self.queue.start()}

    def pids(self) -> dict[str, int]:
        """Process ids by role: each cluster node, and the queue Redis."""
        out = {f"redis node{n}": node.process.pid for n, node in enumerate(self.cluster.nodes)
               if node.process is not None}
        if self.queue.process is not None:
            out["queue redis"] = self.queue.process.pid
        return out

    def stop(self) -> None:
        """Stop both."""
        self.cluster.stop()
        self.queue.stop()


@dataclass
class RedisFigures:
    """Redis memory while the matches are live."""

    per_match: float                   # bytes, MEMORY USAGE summed over a match's keys, averaged
    per_key: dict[str, float]          # bytes by key kind, averaged over the sampled matches
    sampled: int
    mean_version: float
    used_memory: int                   # the matches Redis's (a cluster: summed over its masters)
    active: int                        # matches the lobby lists as active
    over: int                          # finished matches still kept (finished_ttl)


async def _used_memory(redis: Any, cluster: bool) -> int:
    if not cluster:
        return int((await redis.info("memory"))["used_memory"])
    total = 0
    for node in redis.get_primaries():
        info = await redis.execute_command("INFO", "memory", target_nodes=node)
        total += int(info["used_memory"])
    return total


async def redis_figures(redis_url: str, queue_url: str | None, match_ids: list[str]) -> RedisFigures:
    """MEMORY USAGE of every key of a few live matches, and used memory over the active match count."""
    cluster = connections.is_cluster(redis_url)
    redis: Any = (RedisCluster.from_url(redis_url, decode_responses=True) if cluster
                  else Redis.from_url(redis_url, decode_responses=True))
    queue: Any = Redis.from_url(queue_url or redis_url, decode_responses=True)
    try:
        totals: list[int] = []
        per_key: Counter[str] = Counter()
        versions: list[int] = []
        for match_id in match_ids:
            if await redis.hget(keys.meta(match_id), "status") != "active":
                continue
            total = 0
            for key in keys.all_of(match_id):
                size = await redis.memory_usage(key, samples=0) or 0
                per_key[key.rsplit(":", 1)[-1]] += size
                total += size
            totals.append(total)
            versions.append(int(await redis.hget(keys.state(match_id), "v") or 0))
        used = await _used_memory(redis, cluster)
        active = await queue.zcard(keys.lobby("active"))
        over = await queue.zcard(keys.lobby("over"))
    finally:
        await redis.aclose()
        await queue.aclose()
    n = max(1, len(totals))
    return RedisFigures(per_match=sum(totals) / n, per_key={k: v / n for k, v in per_key.items()},
                        sampled=len(totals), mean_version=sum(versions) / n, used_memory=used,
                        active=int(active), over=int(over))


def layout_of(redis_url: str | None) -> str:
    """"cluster" or "single" for a Redis URL (asked), "unknown" without one."""
    if redis_url is None:
        return "unknown"
    return "cluster" if connections.is_cluster(redis_url) else "single"
