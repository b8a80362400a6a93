"""Prometheus metrics of one API process, plus job counts the workers keep in Redis."""

from __future__ import annotations

import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from redis.exceptions import RedisError

from matches import connections, keys
from notifications.webhooks import stats as webhook_stats

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _JobCollector:
    """Reads the workers' job outcome counts and the queue length from Redis at scrape time."""

    def __init__(self, redis_url: str, queue: str) -> None:
        # a scrape during a Redis outage answers at once, without the job figures
        self.redis = connections.sync_client(redis_url, retries=1, decode_responses=True, socket_timeout=2)
        self.queue = queue

    def collect(self):  # type: ignore[no-untyped-def]
        jobs = CounterMetricFamily("firebreak_jobs", "Worker jobs run, by outcome", labels=["outcome"])
        queued = GaugeMetricFamily("firebreak_jobs_queued", "Jobs waiting in the RQ queue")
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
            enqueued.add_metric([], float(self.redis.hget(keys.RECONCILER_COUNTER, "enqueued") or 0))
            overdue.add_metric([], float(self.redis.zcount(keys.due(self.queue), "-inf", time.time() - 1)))
        except (OSError, RedisError):
            pass  # Redis unreachable: the process's own metrics still render
        yield jobs
        yield queued
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


class Metrics:
    """The counters and histograms the API updates."""

    def __init__(self, redis_url: str, queue: str) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("firebreak_http_requests", "HTTP requests", ["method", "path", "status"],
                                registry=self.registry)
        self.latency = Histogram("firebreak_http_request_seconds", "HTTP request latency", ["path"],
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.actions = Counter("firebreak_actions", "act submissions, by outcome", ["outcome"],
                               registry=self.registry)
        self.rate_limits = Counter("firebreak_rate_limited", "Requests refused by a rate limit, by limit "
                                   "(mutations, auth-failures, blocked: a credential from a client past its "
                                   "failed authentications)", ["limit"], registry=self.registry)
        jobs = _JobCollector(redis_url, queue)
        self.registry.register(jobs)
        self.registry.register(_WebhookCollector(jobs.redis, queue))

    def act(self, outcome: str) -> None:
        """Count one act outcome (accepted, illegal, stale...)."""
        self.actions.labels(outcome).inc()

    def rate_limited(self, limit: str) -> None:
        """Count one request refused by a rate limit."""
        self.rate_limits.labels(limit).inc()

    def request(self, method: str, path: str, status: int, seconds: float) -> None:
        """Count and time one HTTP request."""
        self.requests.labels(method, path, str(status)).inc()
        self.latency.labels(path).observe(seconds)

    def render(self) -> bytes:
        """The Prometheus text exposition."""
        return generate_latest(self.registry)
