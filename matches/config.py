"""Service settings, read once from the environment."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from firebreak.matches.embedded import FSYNC_POLICIES

CLUSTER_MODES = ("auto", "yes", "no")
DEFAULT_PORTS = {"http": 80, "https": 443}  # what a browser leaves out of an Origin header


@dataclass(frozen=True)
class Settings:
    """What a deployment may tune; every field has a working default."""

    redis_url: str = "redis://127.0.0.1:6379/0"  # the matches Redis: a plain server or any node of a cluster
    queue_redis_url: str = ""              # the queue Redis (RQ, due-set, lobby, counters); "": redis_url's
    redis_cluster: str = "auto"            # whether redis_url is a cluster: "auto" (ask it at start), "yes", "no"
    queue: str = "firebreak"
    finished_ttl: int = 7 * 24 * 3600      # seconds a finished match is kept
    waiting_ttl: int = 24 * 3600           # seconds an unfilled match is kept
    idempotency_ttl: int = 24 * 3600       # seconds an idempotency key remembers its outcome
    idempotency_kept: int = 64             # idempotency records a match keeps (the oldest goes first)
    steps_per_job: int = 200               # automated steps one worker job may run before handing on
    seconds_per_job: float = 20.0          # ...and seconds (search bots think for seconds; RQ kills a job at 300)
    max_body_bytes: int = 64 * 1024
    appendfsync: str = "always"            # the embedded Redis's fsync policy: "always" or "everysec"
    tick_seconds: float = 1.0              # how often each worker's reconciler looks at the due-set
    stall_seconds: float = 10.0            # a service step with no commit for this long is (re)enqueued
    abandoned_ttl: int = 7 * 24 * 3600     # an active match with no human action for this long ends abandoned
    automated_run_max: int = 20_000        # ...and one whose service steps run this many in a row (a bot in a loop)
    # Rate limits (token buckets in Redis; a rate of 0 turns that limit off): mutations per bearer token and per
    # client address, and failed authentications (a token presented but not valid) per client address.
    rate_token_per_second: float = 100.0
    rate_token_burst: int = 200
    rate_client_per_second: float = 200.0
    rate_client_burst: int = 400
    rate_auth_failures_per_second: float = 1.0
    rate_auth_failures_burst: int = 30
    rate_client_header: str = ""           # header naming the client behind a trusted proxy; "" = the peer address
    titles: str = ""                       # extra titles to register, "module:attribute,..." (matches/plugins.py)
    events_recheck_seconds: float = 60.0   # how often a player's open event stream verifies its credential again
    cors_origins: tuple[str, ...] = ()     # browser origins allowed to call the API (CORS); ("*",): any; (): off

    @property
    def queue_url(self) -> str:
        """The URL of the queue Redis: QUEUE_REDIS_URL, else REDIS_URL (one plain Redis plays both roles)."""
        return self.queue_redis_url or self.redis_url

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read FIREBREAK_* variables (and REDIS_URL) over the defaults, from os.environ or the given mapping."""
        env = os.environ if environ is None else environ

        def num(name: str, default: int) -> int:
            return int(env.get(name, default))

        def seconds(name: str, default: float) -> float:
            raw = env.get(name, default)
            try:
                value = float(raw)
            except ValueError:
                value = math.nan
            if not 0 <= value < math.inf:
                raise ValueError(f"{name} must be a number of seconds >= 0, not {raw!r}")
            return value

        def real(name: str, default: float) -> float:
            return float(env.get(name, default))

        base = cls()
        tick = seconds("FIREBREAK_TICK_SECONDS", base.tick_seconds)
        stall = seconds("FIREBREAK_STALL_SECONDS", base.stall_seconds)
        abandoned = num("FIREBREAK_ABANDONED_TTL", base.abandoned_ttl)
        kept = num("FIREBREAK_IDEMPOTENCY_KEPT", base.idempotency_kept)
        run_max = num("FIREBREAK_AUTOMATED_RUN_MAX", base.automated_run_max)
        for name, value in (("FIREBREAK_TICK_SECONDS", tick), ("FIREBREAK_STALL_SECONDS", stall),
                            ("FIREBREAK_ABANDONED_TTL", abandoned), ("FIREBREAK_IDEMPOTENCY_KEPT", kept),
                            ("FIREBREAK_AUTOMATED_RUN_MAX", run_max)):
            if value <= 0:  # a zero tick would spin; a zero stall would let reconcilers claim one entry twice
                raise ValueError(f"{name} must be above 0")
        return cls(
            redis_url=env.get("REDIS_URL", base.redis_url),
            queue_redis_url=env.get("QUEUE_REDIS_URL", base.queue_redis_url).strip(),
            redis_cluster=_choice("FIREBREAK_REDIS_CLUSTER", base.redis_cluster, CLUSTER_MODES, env),
            queue=env.get("FIREBREAK_QUEUE", base.queue),
            finished_ttl=num("FIREBREAK_FINISHED_TTL", base.finished_ttl),
            waiting_ttl=num("FIREBREAK_WAITING_TTL", base.waiting_ttl),
            idempotency_ttl=num("FIREBREAK_IDEMPOTENCY_TTL", base.idempotency_ttl),
            idempotency_kept=kept,
            steps_per_job=num("FIREBREAK_STEPS_PER_JOB", base.steps_per_job),
            seconds_per_job=float(env.get("FIREBREAK_SECONDS_PER_JOB", base.seconds_per_job)),
            max_body_bytes=num("FIREBREAK_MAX_BODY_BYTES", base.max_body_bytes),
            appendfsync=_choice("FIREBREAK_APPENDFSYNC", base.appendfsync, FSYNC_POLICIES, env),
            tick_seconds=tick,
            stall_seconds=stall,
            abandoned_ttl=abandoned,
            automated_run_max=run_max,
            rate_token_per_second=real("FIREBREAK_RATE_TOKEN_PER_SECOND", base.rate_token_per_second),
            rate_token_burst=num("FIREBREAK_RATE_TOKEN_BURST", base.rate_token_burst),
            rate_client_per_second=real("FIREBREAK_RATE_CLIENT_PER_SECOND", base.rate_client_per_second),
            rate_client_burst=num("FIREBREAK_RATE_CLIENT_BURST", base.rate_client_burst),
            rate_auth_failures_per_second=real("FIREBREAK_RATE_AUTH_FAILURES_PER_SECOND",
                                               base.rate_auth_failures_per_second),
            rate_auth_failures_burst=num("FIREBREAK_RATE_AUTH_FAILURES_BURST", base.rate_auth_failures_burst),
            rate_client_header=env.get("FIREBREAK_RATE_CLIENT_HEADER", base.rate_client_header).strip().lower(),
            titles=env.get("FIREBREAK_TITLES", base.titles),
            events_recheck_seconds=seconds("FIREBREAK_EVENTS_RECHECK_SECONDS", base.events_recheck_seconds),
            cors_origins=cors_origins(env.get("FIREBREAK_CORS_ORIGINS", "")),
        )


def cors_origins(raw: str) -> tuple[str, ...]:
    """FIREBREAK_CORS_ORIGINS read: comma-separated origins (scheme://host[:port]), or "*" alone for any origin;
    empty: CORS off. Each is written as a browser sends it in its Origin header (lower case, no default port), so
    that it compares exactly. Raises ValueError naming a bad entry."""
    origins = tuple(part.strip() for part in raw.split(",") if part.strip())
    if origins == ("*",):
        return origins
    return tuple(dict.fromkeys(_origin(origin) for origin in origins))


def _origin(origin: str) -> str:
    parts = urlsplit(origin)
    try:
        port = parts.port
    except ValueError:
        port = -1
    scheme = parts.scheme.lower()
    extra = parts.path not in ("", "/") or parts.query or parts.fragment or origin.endswith(("?", "#"))
    if (scheme not in DEFAULT_PORTS or not parts.hostname or port == -1 or parts.username is not None
            or parts.password is not None or extra):
        raise ValueError(f"FIREBREAK_CORS_ORIGINS must be \"*\" or comma-separated origins such as "
                         f"https://app.example.com or http://localhost:3000 (scheme, host and port only), "
                         f"not {origin!r}")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{scheme}://{host}" + ("" if port in (None, DEFAULT_PORTS[scheme]) else f":{port}")


def _choice(name: str, default: str, allowed: tuple[str, ...], env: Mapping[str, str]) -> str:
    value = env.get(name, default)
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value
