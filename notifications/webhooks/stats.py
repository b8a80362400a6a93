"""The webhooks' figures, kept by the workers in the queue Redis (keys.WEBHOOK_COUNTER, keys.WEBHOOK_LATENCY) and
read by every API process's /metrics: attempts by outcome, deliveries by final outcome, attempt latency."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firebreak.matches import keys

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
ATTEMPT_OUTCOMES = ("success", "http_error", "timeout", "network", "refused")
DELIVERY_OUTCOMES = ("succeeded", "retried", "failed")


async def record(redis: Any, outcome: str, seconds: float, delivery: str) -> None:
    """Count one attempt (its outcome and latency) and what became of its delivery (succeeded, retried, failed)."""
    pipe = redis.pipeline(transaction=False)
    pipe.hincrby(keys.WEBHOOK_COUNTER, f"attempt:{outcome}", 1)
    pipe.hincrby(keys.WEBHOOK_COUNTER, f"delivery:{delivery}", 1)
    for bound in LATENCY_BUCKETS:
        if seconds <= bound:
            pipe.hincrby(keys.WEBHOOK_LATENCY, f"le:{bound}", 1)
    pipe.hincrby(keys.WEBHOOK_LATENCY, "count", 1)
    pipe.hincrbyfloat(keys.WEBHOOK_LATENCY, "sum", seconds)
    await pipe.execute()


@dataclass(frozen=True)
class Figures:
    """What /metrics shows: counts by outcome and the latency histogram (cumulative buckets, count, sum)."""

    attempts: dict[str, float]
    deliveries: dict[str, float]
    buckets: list[tuple[str, float]]
    count: float
    total: float


def read(redis: Any) -> Figures:
    """Read the figures with a blocking client (decoded replies)."""
    counts = redis.hgetall(keys.WEBHOOK_COUNTER)
    latency = redis.hgetall(keys.WEBHOOK_LATENCY)
    attempts = {o: float(counts.get(f"attempt:{o}", 0)) for o in ATTEMPT_OUTCOMES}
    deliveries = {o: float(counts.get(f"delivery:{o}", 0)) for o in DELIVERY_OUTCOMES}
    count = float(latency.get("count", 0))
    buckets = [(str(b), float(latency.get(f"le:{b}", 0))) for b in LATENCY_BUCKETS] + [("+Inf", count)]
    return Figures(attempts, deliveries, buckets, count, float(latency.get("sum", 0.0)))
