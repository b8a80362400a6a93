"""Redis clients that ride out a Redis restart: pooled connections are health-checked, failed commands are
retried with backoff on a fresh connection, and an outage is logged once (when it starts and when it ends).

An API process retries for at most about 2 s (API_RETRIES), then lets the error through (the API answers 503
SERVICE_UNAVAILABLE). A worker process calls patient() at start: its clients retry until Redis answers again,
so a job in progress pauses through an outage instead of failing, until stop_retrying() (the worker is asked to
stop) makes every retry loop give up at once.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from redis import Redis
from redis.asyncio import Redis as AsyncRedis
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

T = TypeVar("T")

HEALTH_CHECK_SECONDS = 2    # a pooled connection idle this long is PINGed (and replaced if dead) before use
CONNECT_TIMEOUT = 2.0       # seconds to open a connection
BACKOFF_BASE = 0.05         # first retry after up to 0.1 s, doubling...
BACKOFF_CAP = 0.5           # ...up to 0.5 s between attempts
API_RETRIES = 6             # at most about 2 s of retries: a quick Redis restart is bridged, not a long outage
RETRY_AFTER = 2             # seconds: what the API tells clients to wait while Redis is unreachable
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError)  # what "Redis is unreachable" looks like (LOADING too)

log = logging.getLogger("firebreak.redis")


class Outage:
    """Logs one line when Redis stops answering this process and one when it answers again (never the URL)."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.lock = threading.Lock()

    def failed(self, error: BaseException, failures: int) -> None:
        """Note the failures-th failed attempt of a command; the first repeated failure of an outage is logged
        (a pooled connection that died with an earlier Redis fails once, then its retry succeeds)."""
        if failures < 2:
            return
        with self.lock:
            if self.since is None:
                self.since = time.monotonic()
                log.warning("Redis unreachable (%s); retrying with backoff", type(error).__name__)

    def answered(self, started: float, failed: list[float], result: object) -> None:
        """Note a call that succeeded (started then, failed at those times, returned result); the first that shows
        Redis is back ends the outage and is logged. A reply must have come (redis-py's connect() on a socket not
        yet found dead, or an idle pub/sub poll, "succeed" with None), after the outage began (a call already
        under way on another thread may bring an answer Redis gave before it went)."""
        if self.since is None or result is None:
            return
        with self.lock:
            if self.since is not None and max([started, *failed]) > self.since:
                log.warning("Redis reachable again after %.1f s", time.monotonic() - self.since)
                self.since = None


OUTAGE = Outage()
_policy = {"retries": API_RETRIES}
_stopping = threading.Event()


def patient() -> None:
    """Make clients created from now on in this process retry until Redis answers (workers)."""
    _policy["retries"] = -1
    _stopping.clear()


def stop_retrying() -> None:
    """Make every retry loop of this process give up at its next failure (the process is stopping)."""
    _stopping.set()


def stopping() -> bool:
    """Whether stop_retrying() was called."""
    return _stopping.is_set()


def _noting(fail: Callable[..., Any], with_failure_count: bool,
            failed: list[float]) -> Callable[[Exception, int], Any]:
    def noted(error: Exception, failures: int) -> Any:
        failed.append(time.monotonic())
        OUTAGE.failed(error, failures)
        outcome = fail(error, failures) if with_failure_count else fail(error)
        if _stopping.is_set():
            raise error
        return outcome
    return noted


class LoggedRetry(Retry):
    """redis-py's Retry (sync clients), noting outages and giving up once the process is stopping."""

    def call_with_retry(self, do: Callable[[], T], fail: Callable[..., Any],
                        is_retryable: Callable[[Exception], bool] | None = None,
                        with_failure_count: bool = False) -> T:
        """Run do(), retrying the errors this Retry supports with backoff."""
        started, failed = time.monotonic(), list[float]()
        result = super().call_with_retry(do, _noting(fail, with_failure_count, failed), is_retryable,
                                         with_failure_count=True)
        OUTAGE.answered(started, failed, result)
        return result


class LoggedAsyncRetry(AsyncRetry):
    """redis-py's asyncio Retry, noting outages and giving up once the process is stopping."""

    async def call_with_retry(self, do: Callable[[], Awaitable[T]], fail: Callable[..., Any],
                              is_retryable: Callable[[Exception], bool] | None = None,
                              with_failure_count: bool = False) -> T:
        """Await do(), retrying the errors this Retry supports with backoff."""
        started, failed = time.monotonic(), list[float]()

        async def noted(error: Exception, failures: int) -> None:
            failed.append(time.monotonic())
            OUTAGE.failed(error, failures)
            if with_failure_count:
                await fail(error, failures)
            else:
                await fail(error)
            if _stopping.is_set():
                raise error

        result: T = await super().call_with_retry(do, noted, is_retryable, with_failure_count=True)
        OUTAGE.answered(started, failed, result)
        return result


def _options() -> dict[str, Any]:
    return {"health_check_interval": HEALTH_CHECK_SECONDS, "socket_connect_timeout": CONNECT_TIMEOUT,
            "socket_keepalive": True, "retry_on_error": [*UNAVAILABLE, socket.timeout]}


def _backoff() -> ExponentialWithJitterBackoff:
    return ExponentialWithJitterBackoff(cap=BACKOFF_CAP, base=BACKOFF_BASE)


def async_client(url: str, retries: int | None = None, **kwargs: Any) -> AsyncRedis:
    """An asyncio client for a redis:// URL with this process's retry policy (or that many retries; kwargs: more
    client options)."""
    retry = LoggedAsyncRetry(_backoff(), _policy["retries"] if retries is None else retries)
    return AsyncRedis.from_url(url, retry=retry, **_options(), **kwargs)


def sync_client(url: str, retries: int | None = None, **kwargs: Any) -> Redis:
    """A blocking client for a redis:// URL with this process's retry policy (or that many retries; kwargs: more
    client options)."""
    retry = LoggedRetry(_backoff(), _policy["retries"] if retries is None else retries)
    return Redis.from_url(url, retry=retry, **_options(), **kwargs)
