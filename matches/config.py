"""The service's settings, read once from the environment (a pydantic-settings model: matches/envsettings.py)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import ValidationInfo, field_validator
from pydantic_settings import NoDecode

from firebreak.matches.envsettings import EnvSettings, env

REDIS_SCHEMES = ("redis", "rediss", "unix")
DEFAULT_PORTS = {"http": 80, "https": 443}  # what a browser leaves out of an Origin header


class Settings(EnvSettings):
    """What a deployment may tune about the service (its Redis, queue, matches, jobs, limits); every field has a
    working default."""

    section: ClassVar[str] = "Service: Redis, queue, matches, jobs, limits"

    redis_url: str = env("REDIS_URL", "redis://127.0.0.1:6379/0",
                         "The matches Redis: a plain server or any node of a cluster (redis://, rediss:// or "
                         "unix:// URL). `firebreak serve` starts an embedded Redis when it is not set.")
    queue_redis_url: str = env("QUEUE_REDIS_URL", "",
                               "The queue Redis (RQ, due-set, lobby, counters); empty: REDIS_URL's. Required when "
                               "REDIS_URL is a cluster (RQ runs on a plain Redis only).")
    redis_cluster: Literal["auto", "yes", "no"] = env(
        "FIREBREAK_REDIS_CLUSTER", "auto", "Whether REDIS_URL is a Redis Cluster: auto (ask it at start), yes, no.")
    queue: str = env("FIREBREAK_QUEUE", "firebreak", "The RQ queue's name (and the prefix of the queue Redis's keys).",
                     min_length=1)
    finished_ttl: int = env("FIREBREAK_FINISHED_TTL", 7 * 24 * 3600,
                            "Seconds a finished match is kept in Redis (then it is read from the archive).", gt=0)
    waiting_ttl: int = env("FIREBREAK_WAITING_TTL", 24 * 3600, "Seconds an unfilled match is kept.", gt=0)
    idempotency_ttl: int = env("FIREBREAK_IDEMPOTENCY_TTL", 24 * 3600,
                               "Seconds an idempotency key remembers its outcome.", gt=0)
    idempotency_kept: int = env("FIREBREAK_IDEMPOTENCY_KEPT", 64,
                                "Idempotency records a match keeps (the oldest goes first).", gt=0)
    steps_per_job: int = env("FIREBREAK_STEPS_PER_JOB", 200,
                             "Automated steps (bots, the game's own turns) one worker job may run before handing on.",
                             gt=0)
    seconds_per_job: float = env("FIREBREAK_SECONDS_PER_JOB", 20.0,
                                 "Seconds one worker job may run steps before handing on (search bots think for "
                                 "seconds; RQ kills a job at 300); 0: one step per job.", ge=0, lt=300)
    gc_young: int = env("FIREBREAK_GC_YOUNG", 7000,
                        "The API's garbage collector collects its young generation after this many net container "
                        "allocations (Python's own is 700; the older generations keep Python's ratios). Against 700, "
                        "7000 ran about 5% fewer instructions an act and paused a tenth as often, its p99 pause 10-25 "
                        "ms instead of 1-2.5, the p99 act latency at 300 acts/s unchanged (docs/benchmarks.md); "
                        "pauses are timed in firebreak_gc_pause_seconds.",
                        ge=100, le=10_000_000)
    kept_matches: int = env("FIREBREAK_KEPT_MATCHES", 256,
                            "Matches an API process keeps as its own last act left them (the newest version of each), "
                            "so that the next act on one of them needs no read and no rebuild; 0 keeps none. A kept "
                            "match serves only an act that reaches the same process before this many other matches "
                            "have been acted on there (docs/guides/scaling.md).", ge=0, le=1_000_000)
    max_body_bytes: int = env("FIREBREAK_MAX_BODY_BYTES", 64 * 1024,
                              "The largest request body the API reads (bigger ones get 413).", gt=0)
    appendfsync: Literal["everysec", "always"] = env(
        "FIREBREAK_APPENDFSYNC", "always",
        "The embedded Redis's fsync policy: always (before each reply) or everysec (each second).")
    tick_seconds: float = env("FIREBREAK_TICK_SECONDS", 1.0,
                              "How often each worker's reconciler looks at the due-set (timers, lost jobs).", gt=0)
    stall_seconds: float = env("FIREBREAK_STALL_SECONDS", 10.0,
                               "A service step with no commit for this long is enqueued again.", gt=0)
    invite_url: str = env("FIREBREAK_INVITE_URL", "#/join/{code}",
                          "The invite link of a private match, answered with its invite code: a template where "
                          "{code} stands for the code, absolute (https://app.example/join/{code}) or relative to "
                          "the service's base URL as the caller reached it (the default: the web client's "
                          "#/join/CODE page).")
    rematch_offer_seconds: float = env("FIREBREAK_REMATCH_OFFER_SECONDS", 300.0,
                                       "Seconds a rematch offer stands unanswered before it expires.", gt=0)
    abandoned_ttl: int = env("FIREBREAK_ABANDONED_TTL", 7 * 24 * 3600,
                             "Seconds after which an active match with no human action ends abandoned.", gt=0)
    automated_run_max: int = env("FIREBREAK_AUTOMATED_RUN_MAX", 20_000,
                                 "Service steps in a row after which a match ends abandoned (a bot in a loop).", gt=0)
    rate_token_per_second: float = env("FIREBREAK_RATE_TOKEN_PER_SECOND", 100.0,
                                       "Mutations per second per bearer token (a token bucket in Redis); 0 turns "
                                       "the limit off.", ge=0)
    rate_token_burst: int = env("FIREBREAK_RATE_TOKEN_BURST", 200, "The burst of mutations a bearer token may make.",
                                ge=0)
    rate_client_per_second: float = env("FIREBREAK_RATE_CLIENT_PER_SECOND", 200.0,
                                        "Mutations per second per client address; 0 turns the limit off.", ge=0)
    rate_client_burst: int = env("FIREBREAK_RATE_CLIENT_BURST", 400,
                                 "The burst of mutations a client address may make.", ge=0)
    rate_auth_failures_per_second: float = env(
        "FIREBREAK_RATE_AUTH_FAILURES_PER_SECOND", 1.0,
        "Failed authentications (a credential presented but not valid) per second per client address; past the "
        "limit its requests are refused; 0 turns the limit off.", ge=0)
    rate_auth_failures_burst: int = env("FIREBREAK_RATE_AUTH_FAILURES_BURST", 30,
                                        "The burst of failed authentications a client address may make.", ge=0)
    rate_client_header: str = env("FIREBREAK_RATE_CLIENT_HEADER", "",
                                  "The header that names the client behind a trusted proxy (e.g. x-forwarded-for); "
                                  "empty: the peer address.")
    titles: str = env("FIREBREAK_TITLES", "",
                      "Extra titles to register, as module:attribute, comma-separated (a title plug-in).")
    events_recheck_seconds: float = env("FIREBREAK_EVENTS_RECHECK_SECONDS", 60.0,
                                        "How often an open event stream (myEvents, GET /v1/me/events, matchEvents) "
                                        "verifies its credential again.", gt=0)
    cors_origins: Annotated[tuple[str, ...], NoDecode] = env(
        "FIREBREAK_CORS_ORIGINS", (),
        "Browser origins allowed to call the API (CORS), comma-separated (scheme://host[:port]), or * for any; "
        "empty: CORS off.")

    @field_validator("redis_url", "queue_redis_url", mode="after")
    @classmethod
    def _redis_url(cls, value: str, info: ValidationInfo) -> str:
        value = value.strip()
        if value and urlsplit(value).scheme not in REDIS_SCHEMES:
            name = "REDIS_URL" if info.field_name == "redis_url" else "QUEUE_REDIS_URL"
            raise ValueError(f"{name} must be a redis://, rediss:// or unix:// URL")
        return value

    @field_validator("invite_url", mode="after")
    @classmethod
    def _invite_url(cls, value: str) -> str:
        if "{code}" not in value:
            raise ValueError("FIREBREAK_INVITE_URL must hold {code}, where the invite code goes")
        return value.strip()

    @field_validator("rate_client_header", mode="after")
    @classmethod
    def _header(cls, value: str) -> str:
        return value.strip().lower()

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _cors(cls, value: object) -> object:
        return cors_origins(value) if isinstance(value, str) else value

    @property
    def queue_url(self) -> str:
        """The URL of the queue Redis: QUEUE_REDIS_URL, else REDIS_URL (one plain Redis plays both roles)."""
        return self.queue_redis_url or self.redis_url


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

