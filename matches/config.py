"""Service settings, read once from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """What a deployment may tune; every field has a working default."""

    redis_url: str = "redis://127.0.0.1:6379/0"
    queue: str = "firebreak"
    finished_ttl: int = 7 * 24 * 3600      # seconds a finished match is kept
    waiting_ttl: int = 24 * 3600           # seconds an unfilled match is kept
    idempotency_ttl: int = 24 * 3600       # seconds an idempotency key remembers its outcome
    steps_per_job: int = 200               # automated steps one worker job may run before handing on
    seconds_per_job: float = 20.0          # ...and seconds (search bots think for seconds; RQ kills a job at 300)
    max_body_bytes: int = 64 * 1024
    # Rate limits (token buckets in Redis; a rate of 0 turns that limit off): mutations per bearer token and per
    # client address, and failed authentications (a token presented but not valid) per client address.
    rate_token_per_second: float = 100.0
    rate_token_burst: int = 200
    rate_client_per_second: float = 200.0
    rate_client_burst: int = 400
    rate_auth_failures_per_second: float = 1.0
    rate_auth_failures_burst: int = 30
    rate_client_header: str = ""           # header naming the client behind a trusted proxy; "" = the peer address

    @classmethod
    def from_env(cls) -> Settings:
        """Read FIREBREAK_* variables (and REDIS_URL) over the defaults."""
        def num(name: str, default: int) -> int:
            return int(os.environ.get(name, default))

        def real(name: str, default: float) -> float:
            return float(os.environ.get(name, default))

        base = cls()
        return cls(
            redis_url=os.environ.get("REDIS_URL", base.redis_url),
            queue=os.environ.get("FIREBREAK_QUEUE", base.queue),
            finished_ttl=num("FIREBREAK_FINISHED_TTL", base.finished_ttl),
            waiting_ttl=num("FIREBREAK_WAITING_TTL", base.waiting_ttl),
            idempotency_ttl=num("FIREBREAK_IDEMPOTENCY_TTL", base.idempotency_ttl),
            steps_per_job=num("FIREBREAK_STEPS_PER_JOB", base.steps_per_job),
            seconds_per_job=float(os.environ.get("FIREBREAK_SECONDS_PER_JOB", base.seconds_per_job)),
            max_body_bytes=num("FIREBREAK_MAX_BODY_BYTES", base.max_body_bytes),
            rate_token_per_second=real("FIREBREAK_RATE_TOKEN_PER_SECOND", base.rate_token_per_second),
            rate_token_burst=num("FIREBREAK_RATE_TOKEN_BURST", base.rate_token_burst),
            rate_client_per_second=real("FIREBREAK_RATE_CLIENT_PER_SECOND", base.rate_client_per_second),
            rate_client_burst=num("FIREBREAK_RATE_CLIENT_BURST", base.rate_client_burst),
            rate_auth_failures_per_second=real("FIREBREAK_RATE_AUTH_FAILURES_PER_SECOND",
                                               base.rate_auth_failures_per_second),
            rate_auth_failures_burst=num("FIREBREAK_RATE_AUTH_FAILURES_BURST", base.rate_auth_failures_burst),
            rate_client_header=os.environ.get("FIREBREAK_RATE_CLIENT_HEADER", base.rate_client_header).strip().lower(),
        )
