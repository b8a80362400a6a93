"""The pushes' figures, kept by the workers in the queue Redis (keys.PUSH_COUNTER) and read by /metrics: attempts
by outcome and pushes by final outcome."""

from __future__ import annotations

from typing import Any

from firebreak.push import keys

ATTEMPT_OUTCOMES = ("success", "gone", "rate_limited", "server_error", "http_error", "timeout", "network", "refused",
                    "invalid")
PUSH_OUTCOMES = ("sent", "retried", "removed", "failed", "expired")


async def record(redis: Any, attempt: str | None, final: str) -> None:
    """Count one attempt's outcome (None: no attempt was made) and what became of its push."""
    pipe = redis.pipeline(transaction=False)
    if attempt is not None:
        pipe.hincrby(keys.PUSH_COUNTER, f"attempt:{attempt}", 1)
    pipe.hincrby(keys.PUSH_COUNTER, f"push:{final}", 1)
    await pipe.execute()


def read(redis: Any) -> tuple[dict[str, float], dict[str, float]]:
    """The counts (attempts by outcome, pushes by final outcome) with a blocking client (decoded replies)."""
    counts = redis.hgetall(keys.PUSH_COUNTER)
    return ({o: float(counts.get(f"attempt:{o}", 0)) for o in ATTEMPT_OUTCOMES},
            {o: float(counts.get(f"push:{o}", 0)) for o in PUSH_OUTCOMES})
