"""Redis clients that ride out a Redis restart: pooled connections are health-checked, failed commands are
retried with backoff on a fresh connection, and an outage is logged once (when it starts and when it ends).

An API process retries for at most about 2 s (API_RETRIES), then lets the error through (the API answers 503
SERVICE_UNAVAILABLE). A worker process calls patient() at start: its clients retry until Redis answers again,
so a job in progress pauses through an outage instead of failing, until stop_retrying() (the worker is asked to
stop) makes every retry loop give up at once.

Two roles (see matches/keys.py): the matches Redis (REDIS_URL: a plain server or any node of a Redis Cluster)
and the queue Redis (QUEUE_REDIS_URL, always plain: RQ and the global bookkeeping). redises() builds both;
on one plain Redis both roles share one client. The cluster clients (redis-py's RedisCluster) get the same
policy: redis-py's own cluster loop retries a failed command at once on a re-read topology, with no backoff
and no outage log, so each command of ours is wrapped in this module's Retry (backoff, the outage lines,
patience in workers) around that loop; a connection's own retries stay off, as redis-py sets them.
"""

from __future__ import annotations

import asyncio
import codecs
import functools
import hashlib
import logging
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar, cast

from redis import Redis, RedisCluster
from redis.asyncio import Redis as AsyncRedis
from redis.asyncio import RedisCluster as AsyncRedisCluster
from redis.asyncio.connection import Connection as AsyncConnection
from redis.asyncio.connection import ConnectionPool as AsyncConnectionPool
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import ExponentialWithJitterBackoff, NoBackoff
from redis.event import AsyncAfterConnectionReleasedEvent
from redis.exceptions import ClusterDownError, NoScriptError, RedisError, SlotNotCoveredError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

T = TypeVar("T")

# The Redis protocol every client of ours speaks, chosen rather than left to redis-py's default (RESP3 since 8.0, RESP2
# before): see docs/benchmarks.md, "RESP2 or RESP3" (issue 47).
PROTOCOL = 2
HEALTH_CHECK_SECONDS = 2    # a pooled connection idle this long is PINGed (and replaced if dead) before use
CONNECT_TIMEOUT = 2.0       # seconds to open a connection
BACKOFF_BASE = 0.05         # first retry after up to 0.1 s, doubling...
BACKOFF_CAP = 0.5           # ...up to 0.5 s between attempts
API_RETRIES = 6             # at most about 2 s of retries: a quick Redis restart is bridged, not a long outage
RETRY_AFTER = 2             # seconds: what the API tells clients to wait while Redis is unreachable
CLUSTER_RETRIES = 3         # redis-py's immediate retries on a re-read cluster topology, per attempt of ours
# What "Redis is unreachable" looks like (LOADING too; on a cluster also a failover under way: CLUSTERDOWN,
# TRYAGAIN, a slot no reachable node serves)
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, ClusterDownError, TryAgainError, SlotNotCoveredError)
_SUPPORTED: tuple[type[RedisError], ...] = (RedisConnectionError, RedisTimeoutError, ClusterDownError, TryAgainError)

log = logging.getLogger("firebreak.redis")


class Outage:
    """Logs one line when Redis stops answering this process and one when it answers again (never the URL)."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.ended = float("-inf")  # when the last outage ended (time.monotonic())
        self.lock = threading.Lock()

    def failed(self, error: BaseException, failures: int, started: float | None = None) -> None:
        """Note the failures-th failed attempt of a command begun at `started`; the first repeated failure of an
        outage is logged (a pooled connection that died with an earlier Redis fails once, then its retry succeeds).
        A command begun before the last outage ended and still failing belongs to that outage: it starts no new one
        (another thread's answer ended it while this one still retried on a dead connection, which logged an outage
        per such command)."""
        if failures < 2:
            return
        with self.lock:
            if self.since is None and (started is None or started > self.ended):
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
                self.ended = time.monotonic()


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
            failed: list[float], started: float) -> Callable[[Exception, int], Any]:
    def noted(error: Exception, failures: int) -> Any:
        failed.append(time.monotonic())
        OUTAGE.failed(error, failures, started)
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
        result = super().call_with_retry(do, _noting(fail, with_failure_count, failed, started), is_retryable,
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
            OUTAGE.failed(error, failures, started)
            if with_failure_count:
                await fail(error, failures)
            else:
                await fail(error)
            if _stopping.is_set():
                raise error

        result: T = await super().call_with_retry(do, noted, is_retryable, with_failure_count=True)
        OUTAGE.answered(started, failed, result)
        return result


class LeanConnection(AsyncConnection):
    """redis-py's asyncio connection, whose write runs under a timeout scope (asyncio.timeout) instead of in a task of
    its own (asyncio.wait_for makes one per command: a tenth of a round trip's CPU, bench/redis_client.py), and only
    when the socket did not take the whole command at once (else the write cannot wait: no timer to set and cancel),
    and which packs a command in one join. The same bytes and errors as redis-py's: a write that times out is a
    TimeoutError, a failed one a ConnectionError, and either (or a cancelled one) drops the connection."""

    def pack_command(self, *args: Any) -> list[bytes]:
        """The command in the Redis protocol, byte for byte as redis-py packs it, in one join (redis-py's joins the
        whole command again after each argument: the commit's state made that a copy of kilobytes per argument)."""
        first = args[0]
        if isinstance(first, str):
            args = (*first.encode().split(), *args[1:])
        elif b" " in first:
            args = (*first.split(), *args[1:])
        encode = self.encoder.encode
        parts = [b"*%d\r\n" % len(args)]
        for arg in args:
            kind = type(arg)
            data = arg if kind is bytes else arg.encode() if kind is str and self._utf8 else encode(arg)  # type: ignore[no-untyped-call]
            parts += (b"$%d\r\n" % len(data), data, b"\r\n")
        return [b"".join(parts)]

    @functools.cached_property
    def _utf8(self) -> bool:
        """Whether str.encode() is the encoder's own encoding of a str (the default: utf-8, strict)."""
        return codecs.lookup(self.encoder.encoding).name == "utf-8" and self.encoder.encoding_errors == "strict"

    async def send_packed_command(self, command: bytes | str | Iterable[bytes], check_health: bool = True) -> None:
        """Send a packed command, within the socket timeout."""
        timeout = self.socket_timeout
        if not timeout:
            await super().send_packed_command(command, check_health)
            return
        if not self.is_connected:
            await self.connect_check_health(check_health=False)
        if check_health:
            await self.check_health()  # type: ignore[no-untyped-call]
        if isinstance(command, str):
            command = command.encode()
        if isinstance(command, bytes):
            command = [command]
        writer = self._writer
        try:
            writer.writelines(command)  # type: ignore[union-attr]
            if writer.transport.get_write_buffer_size():  # type: ignore[union-attr]
                async with asyncio.timeout(timeout):  # the socket took less than all: drain may wait
                    await writer.drain()  # type: ignore[union-attr]
            else:
                await writer.drain()  # type: ignore[union-attr]  # all sent: never waits (raises if closing)
        except TimeoutError:
            await self.disconnect(nowait=True)
            raise RedisTimeoutError("Timeout writing to socket") from None
        except OSError as exc:
            await self.disconnect(nowait=True)
            number, message = (None, exc.args[0]) if len(exc.args) == 1 else (exc.args[0], exc.args[1])
            raise RedisConnectionError(f"Error {number or 'unknown'} while writing to socket. {message}.") from exc
        except BaseException:
            await self.disconnect(nowait=True)
            raise


class LeanPool(AsyncConnectionPool):
    """redis-py's asyncio pool without its OpenTelemetry connection counts: each command's checkout and return
    awaited four recorder calls (and named the pool) for metrics this service does not export, about a tenth of a
    round trip's CPU (bench/redis_client.py). The rest is redis-py's: the lock, the pool's bound, the reconnect on
    return when asked, the released-connection event. One check is stricter: redis-py 8 skips its check for unread
    data before a connection's reuse while maintenance notifications are on, as they are by default ("auto"); this
    service uses none, so a connection holding a reply nobody read (or at end of file) is always reconnected before
    it is handed out, never answers the next command with the last one's reply."""

    async def ensure_connection(self, connection: Any) -> None:
        """Connect the connection, and reconnect it if it holds unread data or its peer closed it."""
        if not connection.is_connected:  # connect() would return at once, after a trip through the retry policy
            await connection.connect()
        try:
            if await connection.can_read():
                raise RedisConnectionError("Connection has data")
        except (RedisConnectionError, RedisTimeoutError, OSError):
            await connection.disconnect()
            await connection.connect()
            if await connection.can_read():
                raise RedisConnectionError("Connection not ready") from None

    async def get_connection(self, command_name: Any = None, *keys: Any, **options: Any) -> AsyncConnection:
        """A connected connection from the pool (the arguments are redis-py's deprecated ones, ignored as there)."""
        async with self._lock:
            connection = self.get_available_connection()  # type: ignore[no-untyped-call]
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return cast(AsyncConnection, connection)

    async def release(self, connection: Any) -> None:
        """Return a connection to the pool."""
        async with self._lock:
            self._in_use_connections.remove(connection)
            if connection.should_reconnect():
                await connection.disconnect()
            self._available_connections.append(connection)
        released = AsyncAfterConnectionReleasedEvent(connection)  # type: ignore[no-untyped-call]
        await cast(Any, self._event_dispatcher).dispatch_async(released)


def _options() -> dict[str, Any]:
    return {"protocol": PROTOCOL, "health_check_interval": HEALTH_CHECK_SECONDS,
            "socket_connect_timeout": CONNECT_TIMEOUT, "socket_keepalive": True,
            "retry_on_error": [*UNAVAILABLE, socket.timeout]}


def _backoff() -> ExponentialWithJitterBackoff:
    return ExponentialWithJitterBackoff(cap=BACKOFF_CAP, base=BACKOFF_BASE)


def async_client(url: str, retries: int | None = None, pool: type[AsyncConnectionPool] = LeanPool,
                 **kwargs: Any) -> AsyncRedis:
    """An asyncio client for a redis:// URL with this process's retry policy (or that many retries; pool: its
    connection pool's class; kwargs: more client options)."""
    retry = LoggedAsyncRetry(_backoff(), _policy["retries"] if retries is None else retries)
    options = {"connection_class": LeanConnection, **_options(), **kwargs}
    if url.startswith("unix://"):
        options.pop("connection_class")  # redis-py's unix socket connection keeps its own class
    client = AsyncRedis(connection_pool=pool.from_url(url, retry=retry, **options))
    client.auto_close_connection_pool = True  # as from_url's: closing the client closes its pool
    return client


def sync_client(url: str, retries: int | None = None, **kwargs: Any) -> Redis:
    """A blocking client for a redis:// URL with this process's retry policy (or that many retries; kwargs: more
    client options)."""
    retry = LoggedRetry(_backoff(), _policy["retries"] if retries is None else retries)
    return Redis.from_url(url, retry=retry, **_options(), **kwargs)


class ClusterRefused(RuntimeError):
    """Raised when the settings cannot work with the Redis found (a cluster without QUEUE_REDIS_URL)."""


class _AsyncCluster(AsyncRedisCluster):
    """redis-py's asyncio cluster client, each command under this module's Retry (backoff, outage log)."""

    patience: LoggedAsyncRetry | None = None  # set once built (commands run while it is built go unwrapped)

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        """Run a command through the cluster's own loop, retried while the cluster is unreachable."""
        async def once() -> Any:
            return await AsyncRedisCluster.execute_command(self, *args, **kwargs)

        async def nothing(_: Exception) -> None:
            return None

        if self.patience is None:
            return await once()
        return await self.patience.call_with_retry(once, nothing)


class _SyncCluster(RedisCluster):
    """redis-py's blocking cluster client, each command under this module's Retry (backoff, outage log)."""

    patience: LoggedRetry | None = None  # set once built (commands run while it is built go unwrapped)

    def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        """Run a command through the cluster's own loop, retried while the cluster is unreachable."""
        def once() -> Any:
            return RedisCluster.execute_command(self, *args, **kwargs)  # type: ignore[no-untyped-call]

        if self.patience is None:
            return once()
        return self.patience.call_with_retry(once, lambda _: None)


def _cluster_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    options = {**_options(), **kwargs}
    options.pop("retry_on_error")  # a connection of a cluster node does not retry: the command is retried whole
    return options


def async_cluster_client(url: str, retries: int | None = None, **kwargs: Any) -> AsyncRedisCluster:
    """An asyncio Redis Cluster client from any node's URL with this process's retry policy (see async_client)."""
    client: Any = _AsyncCluster.from_url(url, retry=AsyncRetry(NoBackoff(), CLUSTER_RETRIES),
                                         **_cluster_options(kwargs))
    client.patience = LoggedAsyncRetry(_backoff(), _policy["retries"] if retries is None else retries,
                                       supported_errors=_SUPPORTED)
    return cast(AsyncRedisCluster, client)


def sync_cluster_client(url: str, retries: int | None = None, **kwargs: Any) -> RedisCluster:
    """A blocking Redis Cluster client from any node's URL with this process's retry policy (see sync_client)."""
    client: Any = _SyncCluster.from_url(url, retry=Retry(NoBackoff(), CLUSTER_RETRIES), **_cluster_options(kwargs))
    client.patience = LoggedRetry(_backoff(), _policy["retries"] if retries is None else retries,
                                  supported_errors=_SUPPORTED)
    return cast(RedisCluster, client)


def is_cluster(url: str, mode: str = "auto") -> bool:
    """Whether the Redis at url is a cluster node: mode "yes"/"no" says so; "auto" asks it (INFO cluster), and
    takes a server that does not answer within a few seconds for a plain one (logged)."""
    if mode != "auto":
        return mode == "yes"
    probe = sync_client(url, retries=API_RETRIES, socket_timeout=CONNECT_TIMEOUT)
    try:
        return bool(int(probe.info("cluster").get("cluster_enabled", 0)))
    except UNAVAILABLE as exc:
        log.warning("Redis did not answer at start (%s): taken for a plain Redis (FIREBREAK_REDIS_CLUSTER=yes "
                    "says otherwise)", type(exc).__name__)
        return False
    finally:
        probe.close()


def queue_url_for(redis_url: str, queue_redis_url: str, cluster: bool) -> str:
    """The queue Redis's URL; raise ClusterRefused for a cluster without a queue Redis of its own."""
    if cluster and not queue_redis_url:
        raise ClusterRefused("REDIS_URL names a Redis Cluster node: set QUEUE_REDIS_URL to a plain (non-cluster) "
                             "Redis for the job queue and the service's global bookkeeping")
    return queue_redis_url or redis_url


class Redises:
    """The two roles' asyncio clients of one process: .matches (every match:{id}:* key; a cluster client on a
    cluster) and .queue (RQ's Redis: due-set, lobby, counters, rate limits; the same client on one plain Redis)."""

    def __init__(self, matches: Any, queue: AsyncRedis, cluster: bool, queue_url: str) -> None:
        self.matches: Any = matches  # AsyncRedis | AsyncRedisCluster: the commands we use are common to both
        self.queue = queue
        self.cluster = cluster
        self.queue_url = queue_url

    @classmethod
    def connect(cls, redis_url: str, queue_redis_url: str = "", mode: str = "auto", **kwargs: Any) -> Redises:
        """Detect the matches Redis's kind and build both clients (kwargs: more client options for both);
        raise ClusterRefused for a cluster without a queue Redis."""
        cluster = is_cluster(redis_url, mode)
        queue_url = queue_url_for(redis_url, queue_redis_url, cluster)
        if cluster:
            matches: Any = async_cluster_client(redis_url, **kwargs)
        else:
            matches = async_client(redis_url, **kwargs)
        queue = matches if queue_url == redis_url and not cluster else async_client(queue_url, **kwargs)
        return cls(matches, queue, cluster, queue_url)

    async def open(self) -> None:
        """Learn a cluster's nodes and slots now, before requests share the client: redis-py's asyncio cluster
        client, initialized by many concurrent first commands, closed connections other commands were using. A
        cluster that does not answer yet is left to the first command (logged)."""
        if not self.cluster:
            return
        try:
            await self.matches.initialize()
        except UNAVAILABLE as exc:
            log.warning("the Redis Cluster did not answer at start (%s); the first request retries",
                        type(exc).__name__)

    async def aclose(self) -> None:
        """Close both clients."""
        await self.matches.aclose()
        if self.queue is not self.matches:
            await self.queue.aclose()


def sync_matches_client(redis_url: str, cluster: bool, **kwargs: Any) -> Any:
    """A blocking client of the matches Redis (a cluster client on a cluster), with this process's policy."""
    return sync_cluster_client(redis_url, **kwargs) if cluster else sync_client(redis_url, **kwargs)


class Script:
    """A Lua script run by its SHA1 (EVALSHA), sent whole (EVAL, which also caches it on that node) when the node
    does not know it yet. Unlike redis-py's registered scripts, a miss does not SCRIPT LOAD to every node: with
    the asyncio cluster client, many such loads at once (a fresh process under load, or a restarted node) broke
    connections that other requests were using."""

    def __init__(self, client: Any, text: str) -> None:
        self.client = client
        self.text = text
        self.sha = hashlib.sha1(text.encode()).hexdigest()

    async def __call__(self, keys: list[str], args: list[Any] | None = None) -> Any:
        """Run it over those keys (one hash slot on a cluster) and arguments."""
        try:
            return await self.client.evalsha(self.sha, len(keys), *keys, *(args or []))
        except NoScriptError:
            return await self.client.eval(self.text, len(keys), *keys, *(args or []))
