"""Prometheus metrics of the API processes, plus figures the workers and the lobby keep in Redis.

One API process alone keeps its counters in memory. Several API processes on one machine (uvicorn --workers N,
scripts/serve.py --api-processes N, or processes side by side behind a load balancer) share them through
prometheus-client's multiprocess mode: whoever starts them sets PROMETHEUS_MULTIPROC_DIR to an empty folder they
all share (emptied before they start); each process writes its counters there, and /metrics, answered by any of
them, adds up every process's (those of a process that died included, so counters never go back) and the
subscriber gauges of the processes alive. The figures read from Redis (jobs, the lobby, seeks, webhooks) are the
same whichever process answers.
"""

from __future__ import annotations

import contextlib
import gc
import glob
import os
import re
import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, values
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from pydantic import field_validator
from redis.exceptions import RedisError

from firebreak.matches import connections, keys
from firebreak.matches.envsettings import EnvSettings, env
from firebreak.matches.lifecycle import MatchStatus
from firebreak.notifications.webhooks import stats as webhook_stats
from firebreak.push import keys as push_keys
from firebreak.push import stats as push_stats

FOLDER = "PROMETHEUS_MULTIPROC_DIR"
TOKEN_LENGTH = 24  # a shorter FIREBREAK_METRICS_TOKEN stops the start
LIVE_FILE = re.compile(r"gauge_live[a-z]+_(\d+)\.db$")

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
GC_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1)


class _JobCollector:
    """Reads the workers' job outcome counts and the queue length from Redis at scrape time."""

    def __init__(self, redis_url: str, queue: str) -> None:
        # a scrape during a Redis outage answers at once, without the job figures
        self.redis = connections.sync_client(redis_url, retries=1, decode_responses=True, socket_timeout=2)
        self.queue = queue

    def collect(self):  # type: ignore[no-untyped-def]
        jobs = CounterMetricFamily("firebreak_jobs", "Worker jobs run, by outcome", labels=["outcome"])
        queued = GaugeMetricFamily("firebreak_jobs_queued", "Jobs waiting in the RQ queue (its depth)")
        running = GaugeMetricFamily("firebreak_jobs_running", "Jobs a worker is running now (RQ's started registry)")
        enqueued = CounterMetricFamily("firebreak_reconciler_jobs",
                                       "Jobs the reconcilers enqueued for matches whose due time had come (timers, "
                                       "and matches whose job was lost, died or failed)")
        overdue = GaugeMetricFamily("firebreak_matches_overdue",
                                    "Matches whose due time passed and no reconciler has claimed (stays 0 while "
                                    "a worker runs)")
        waiting = GaugeMetricFamily("firebreak_seeks_waiting", "Seeks waiting to be matched, by pool (a title, seat "
                                    "count and options)", labels=["pool"])
        seeks = CounterMetricFamily("firebreak_seeks_ended", "Seeks that ended, by outcome (matched, cancelled, "
                                    "expired)", labels=["outcome"])
        try:
            for pool in self.redis.zrange(keys.seek_pools(self.queue), 0, -1):
                waiting.add_metric([str(pool)], float(self.redis.zcard(keys.seek_pool(self.queue, str(pool)))))
            for outcome, count in sorted(self.redis.hgetall(keys.SEEKS_COUNTER).items()):
                seeks.add_metric([str(outcome)], float(count))
            for outcome, count in sorted(self.redis.hgetall(keys.JOBS_COUNTER).items()):
                jobs.add_metric([str(outcome)], float(count))
            queued.add_metric([], float(self.redis.llen(f"rq:queue:{self.queue}")))
            running.add_metric([], float(self.redis.zcard(f"rq:wip:{self.queue}")))
            enqueued.add_metric([], float(self.redis.hget(keys.RECONCILER_COUNTER, "enqueued") or 0))
            overdue.add_metric([], float(self.redis.zcount(keys.due(self.queue), "-inf", time.time() - 1)))
        except (OSError, RedisError):
            pass  # Redis unreachable: the process's own metrics still render
        yield jobs
        yield queued
        yield running
        yield enqueued
        yield overdue
        yield waiting
        yield seeks


class _WebhookCollector:
    """Reads the workers' webhook figures from Redis at scrape time: attempts and deliveries by outcome, attempt
    latency, and the deliveries waiting."""

    def __init__(self, redis: Any, queue: str) -> None:
        self.redis = redis
        self.queue = queue

    def collect(self):  # type: ignore[no-untyped-def]
        attempts = CounterMetricFamily("firebreak_webhook_attempts", "Webhook delivery attempts, by outcome "
                                       "(success, http_error, timeout, network)", labels=["outcome"])
        deliveries = CounterMetricFamily("firebreak_webhook_deliveries", "Webhook attempts by what became of "
                                         "their delivery (succeeded, retried, failed: given up)", labels=["outcome"])
        latency = HistogramMetricFamily("firebreak_webhook_attempt_seconds", "Webhook attempt latency")
        forwarding = GaugeMetricFamily("firebreak_webhook_players_to_forward",
                                       "Players whose new feed events the webhooks have not handed on yet")
        try:
            figures = webhook_stats.read(self.redis)
            for outcome, count in figures.attempts.items():
                attempts.add_metric([outcome], count)
            for outcome, count in figures.deliveries.items():
                deliveries.add_metric([outcome], count)
            latency.add_metric([], figures.buckets, figures.total)
            forwarding.add_metric([], float(self.redis.zcard(keys.feed_pending(self.queue))))
        except (OSError, RedisError):
            return  # Redis unreachable: the process's own metrics still render
        yield attempts
        yield deliveries
        yield latency
        yield forwarding


class _PushCollector:
    """Reads the workers' push figures from Redis at scrape time: attempts and pushes by outcome, pushes waiting."""

    def __init__(self, redis: Any, queue: str) -> None:
        self.redis = redis
        self.queue = queue

    def collect(self):  # type: ignore[no-untyped-def]
        attempts = CounterMetricFamily("firebreak_push_attempts", "Push attempts (Web Push), by outcome (success, "
                                       "gone: 404/410, rate_limited: 429, server_error: 5xx, ...)", labels=["outcome"])
        pushes = CounterMetricFamily("firebreak_push_sends", "Pushes by what became of them (sent, retried, removed: "
                                     "registration gone, failed, expired: TTL passed)", labels=["outcome"])
        waiting = GaugeMetricFamily("firebreak_push_waiting", "Pushes made and not yet sent or given up")
        try:
            by_attempt, by_push = push_stats.read(self.redis)
            for outcome, count in by_attempt.items():
                attempts.add_metric([outcome], count)
            for outcome, count in by_push.items():
                pushes.add_metric([outcome], count)
            waiting.add_metric([], float(self.redis.zcard(push_keys.due(self.queue))))
        except (OSError, RedisError):
            return  # Redis unreachable: the process's own metrics still render
        yield attempts
        yield pushes
        yield waiting


class _LobbyCollector:
    """Counts the live matches by status from the lobby sets at scrape time (a finished match's entry stops
    counting once the match has expired; an expired waiting match's entry counts until the lobby is next listed)."""

    def __init__(self, redis: Any, finished_ttl: int) -> None:
        self.redis = redis
        self.finished_ttl = finished_ttl

    def collect(self):  # type: ignore[no-untyped-def]
        matches = GaugeMetricFamily("firebreak_matches", "Matches in Redis, by status (waiting, active, over: "
                                    "kept FIREBREAK_FINISHED_TTL after they end), private ones included",
                                    labels=["status"])
        try:
            with self.redis.pipeline(transaction=False) as pipe:
                pipe.zcard(keys.lobby(MatchStatus.WAITING))
                pipe.zcard(keys.lobby(MatchStatus.ACTIVE))
                pipe.zcount(keys.lobby(MatchStatus.OVER), time.time() - self.finished_ttl, "+inf")
                counts = pipe.execute()
        except (OSError, RedisError):
            return
        for status, count in zip(MatchStatus, counts, strict=True):
            matches.add_metric([status.value], float(count))
        yield matches


class Metrics:
    """The counters, histograms and gauges the API updates, and the /metrics exposition."""

    def __init__(self, redis_url: str, queue: str, finished_ttl: int = 7 * 24 * 3600) -> None:
        # prometheus-client chose its mode when it was imported: multiprocess when PROMETHEUS_MULTIPROC_DIR was set
        self.folder = shared_folder() if getattr(values.ValueClass, "_multiprocess", False) else None
        self.registry = CollectorRegistry()
        own = None if self.folder else self.registry  # multiprocess: the values live in the folder's files
        self.requests = Counter("firebreak_http_requests", "HTTP requests", ["method", "path", "status"],
                                registry=own)
        self.latency = Histogram("firebreak_http_request_seconds", "HTTP request latency", ["path"],
                                 buckets=LATENCY_BUCKETS, registry=own)
        self.actions = Counter("firebreak_actions", "act submissions, by outcome", ["outcome"], registry=own)
        self.rate_limits = Counter("firebreak_rate_limited", "Requests refused by a rate limit, by limit "
                                   "(mutations, auth-failures, blocked: a credential from a client past its "
                                   "failed authentications)", ["limit"], registry=own)
        self.subscribers = Gauge("firebreak_subscribers", "Open subscriptions, by stream (match: a match's events "
                                 "over GraphQL; player: a player's events over GraphQL or REST's SSE)", ["stream"],
                                 multiprocess_mode="livesum", registry=own)
        for stream in ("match", "player"):
            self.subscribers.labels(stream).set(0)
        self.gc_pauses = Histogram("firebreak_gc_pause_seconds", "Pauses of the cyclic garbage collector, by "
                                   "generation (0, 1 or 2): the process answers nothing meanwhile",
                                   ["generation"], buckets=GC_BUCKETS, registry=own)
        self._gc_children = [self.gc_pauses.labels(str(generation)) for generation in range(3)]
        self._counted: dict[tuple[str, str, int], Any] = {}  # (method, path, status) -> its request counter child
        self._timed: dict[str, Any] = {}  # path -> its latency histogram child
        self._acted: dict[str, Any] = {}  # act outcome -> its counter child
        if self.folder:
            MultiProcessCollector(self.registry, self.folder)  # type: ignore[no-untyped-call]
        jobs = _JobCollector(redis_url, queue)
        self.registry.register(jobs)
        self.registry.register(_WebhookCollector(jobs.redis, queue))
        self.registry.register(_PushCollector(jobs.redis, queue))
        self.registry.register(_LobbyCollector(jobs.redis, finished_ttl))

    def act(self, outcome: str) -> None:
        """Count one act outcome (accepted, illegal, stale...; each outcome's child looked up once)."""
        counted = self._acted.get(outcome)
        if counted is None:
            counted = self._acted[outcome] = self.actions.labels(outcome)
        counted.inc()

    def rate_limited(self, limit: str) -> None:
        """Count one request refused by a rate limit."""
        self.rate_limits.labels(limit).inc()

    def request(self, method: str, path: str, status: int, seconds: float) -> None:
        """Count and time one HTTP request (each label set's child looked up once: paths are the routes')."""
        counted = self._counted.get((method, path, status))
        if counted is None:
            counted = self._counted[(method, path, status)] = self.requests.labels(method, path, str(status))
        counted.inc()
        timed = self._timed.get(path)
        if timed is None:
            timed = self._timed[path] = self.latency.labels(path)
        timed.observe(seconds)

    def gc_timed(self) -> contextlib.AbstractContextManager[None]:
        """Time every collection of the garbage collector in this process for as long as the block runs."""
        return collections_timed(lambda generation, seconds: self._gc_children[generation].observe(seconds))

    @contextlib.contextmanager
    def subscribed(self, stream: str) -> Iterator[None]:
        """Count one open subscription to a stream ("match" or "player") for as long as the block runs."""
        gauge = self.subscribers.labels(stream)
        gauge.inc()
        try:
            yield
        finally:
            gauge.dec()

    def render(self) -> bytes:
        """The Prometheus text exposition (every process's, in multiprocess mode)."""
        if self.folder:
            forget_dead(self.folder)
        return generate_latest(self.registry)


@contextlib.contextmanager
def collections_timed(record: Callable[[int, float], None],
                      clock: Callable[[], float] = time.perf_counter) -> Iterator[None]:
    """Call record(generation, seconds by the clock) after every collection of the garbage collector in this
    process for as long as the block runs."""
    started = 0.0

    def note(phase: str, info: dict[str, int]) -> None:
        nonlocal started
        if phase == "start":
            started = clock()
        else:
            record(info["generation"], clock() - started)

    gc.callbacks.append(note)
    try:
        yield
    finally:
        gc.callbacks.remove(note)


def subscribed(metrics: Metrics | None, stream: str) -> contextlib.AbstractContextManager[None]:
    """Metrics.subscribed, or nothing when the services run without metrics (benches, tools)."""
    return metrics.subscribed(stream) if metrics is not None else contextlib.nullcontext()


class MetricsSettings(EnvSettings):
    """Where the API processes of one machine share their metrics (prometheus-client's multiprocess mode), and who
    may read them."""

    section: ClassVar[str] = "Metrics"

    multiproc_dir: str = env(FOLDER, "",
                             "A folder the API processes of one machine share for their metrics (prometheus-client's "
                             "multiprocess mode): /metrics, answered by any of them, adds up all of them. It must "
                             "exist and be emptied before they start; `firebreak serve` makes one (or empties "
                             "this one). Empty: each process keeps its own metrics in memory.")
    token: str = env("FIREBREAK_METRICS_TOKEN", "",
                     f"The bearer token a scrape of /metrics must send, at least {TOKEN_LENGTH} characters (only its "
                     "hash is kept); empty: /metrics answers only the machine itself (a request from a loopback "
                     "address that no proxy forwarded).", secret=True)

    @field_validator("token", mode="after")
    @classmethod
    def _long_enough(cls, value: str) -> str:
        value = value.strip()
        if value and len(value) < TOKEN_LENGTH:
            raise ValueError(f"FIREBREAK_METRICS_TOKEN must be at least {TOKEN_LENGTH} characters")
        return value


def shared_folder() -> str:
    """The multiprocess folder (PROMETHEUS_MULTIPROC_DIR), checked: an existing folder this process may write."""
    folder = MetricsSettings.from_env().multiproc_dir
    if not folder or not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{FOLDER} must name an existing folder the API may write (shared by the API processes "
                         f"of this machine, emptied before they start), not {folder!r}")
    return folder


def forget_dead(folder: str) -> None:
    """Drop the live gauges (open subscriptions) of processes that are gone, e.g. killed, so they stop counting;
    their counters stay (they are added up forever, as a counter must never go back)."""
    for path in glob.glob(os.path.join(folder, "gauge_live*_*.db")):
        found = LIVE_FILE.search(path)
        if found is None:
            continue
        pid = int(found.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]
        except PermissionError:
            pass  # alive, another user's
