"""CPU of one Redis round trip through the asyncio clients the service could use, on a private redis-server.

Each variant runs the same EVALSHA (a small script reading one hash field, as the commit's version check does)
--calls times, awaited one after the other, and the process's CPU per call is printed, in --rounds interleaved
rounds (a noisy machine moves every variant of a round alike: compare within a round):

- service: matches.connections.async_client with redis-py's connection and pool, as the API built it before issue
  28 (retries, health checks, a 30 s socket timeout);
- lean-conn: the same with matches.connections.LeanConnection (the write under a timeout scope, not a task per
  command);
- lean: the same with matches.connections.LeanPool as well (no OpenTelemetry counts at checkout and return): what
  the service now uses;
- no-timeout: the service's client without a socket timeout (what the write's timeout costs);
- bare: redis-py's default client (no retry policy, no health checks, no timeout);
- pure-parser: the bare client with redis-py's Python parser instead of hiredis;
- coredis and valkey-glide (its core in Rust), when installed (pip install coredis valkey-glide: not the
  project's dependencies), each with its own defaults.

Run: python -m bench.redis_client [--calls 5000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import importlib.util
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from redis._parsers.resp2 import _AsyncRESP2Parser
from redis.asyncio import Redis
from redis.asyncio.connection import Connection, ConnectionPool

from firebreak.api.services import SOCKET_TIMEOUT
from firebreak.matches import connections
from firebreak.matches.embedded import scratch_redis

SCRIPT = "return redis.call('HGET', KEYS[1], 'v')"
KEY = "bench:{x}:state"
Call = Callable[[], Awaitable[Any]]


@contextlib.asynccontextmanager
async def redis_py(make: Callable[[], Any]) -> AsyncIterator[Call]:
    """A redis-py asyncio client's EVALSHA through matches.connections.Script (as the service runs its scripts)."""
    client = make()
    try:
        await client.hset(KEY, "v", 1)
        script = connections.Script(client, SCRIPT)
        yield lambda: script([KEY])
    finally:
        await client.aclose()


@contextlib.asynccontextmanager
async def coredis_client(url: str) -> AsyncIterator[Call]:
    """coredis's client (anyio underneath), EVALSHA of the loaded script."""
    coredis: Any = importlib.import_module("coredis")  # optional: pip install coredis

    host, port = _address(url)
    client = coredis.Redis(host=host, port=port)
    async with client:
        await client.hset(KEY, {"v": "1"})
        sha = await client.script_load(SCRIPT)
        yield lambda: client.evalsha(sha, keys=[KEY])


@contextlib.asynccontextmanager
async def glide_client(url: str) -> AsyncIterator[Call]:
    """valkey-glide's client (its core in Rust), EVALSHA as a custom command."""
    glide: Any = importlib.import_module("glide")  # optional: pip install valkey-glide

    host, port = _address(url)
    client = await glide.GlideClient.create(glide.GlideClientConfiguration([glide.NodeAddress(host, port)]))
    try:
        await client.hset(KEY, {"v": "1"})
        sha = str(await client.custom_command(["SCRIPT", "LOAD", SCRIPT]), "ascii")
        yield lambda: client.custom_command(["EVALSHA", sha, "1", KEY])
    finally:
        await client.close()


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 6379


def variants(url: str) -> dict[str, Callable[[], contextlib.AbstractAsyncContextManager[Call]]]:
    """Each variant's client, as a context that yields the call to time; coredis and valkey-glide when installed."""
    out: dict[str, Callable[[], contextlib.AbstractAsyncContextManager[Call]]] = {
        "service": lambda: redis_py(lambda: connections.async_client(url, socket_timeout=SOCKET_TIMEOUT,
                                                                     connection_class=Connection,
                                                                     pool=ConnectionPool)),
        "lean-conn": lambda: redis_py(lambda: connections.async_client(url, socket_timeout=SOCKET_TIMEOUT,
                                                                       pool=ConnectionPool)),
        "lean": lambda: redis_py(lambda: connections.async_client(url, socket_timeout=SOCKET_TIMEOUT)),
        "no-timeout": lambda: redis_py(lambda: connections.async_client(url, connection_class=Connection,
                                                                        pool=ConnectionPool)),
        "bare": lambda: redis_py(lambda: Redis.from_url(url)),
        "pure-parser": lambda: redis_py(lambda: Redis.from_url(url, parser_class=_AsyncRESP2Parser)),
    }
    if importlib.util.find_spec("coredis"):
        out["coredis"] = lambda: coredis_client(url)
    if importlib.util.find_spec("glide"):
        out["valkey-glide"] = lambda: glide_client(url)
    return out


async def one(variant: Callable[[], contextlib.AbstractAsyncContextManager[Call]], calls: int) -> float:
    """µs of CPU per EVALSHA round trip."""
    async with variant() as call:
        for _ in range(200):
            await call()
        started = time.process_time()
        for _ in range(calls):
            await call()
        return (time.process_time() - started) / calls * 1e6


def main() -> int:
    """Run the interleaved rounds and print each variant's figures and ratio to the service's client."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with scratch_redis() as url:
        made = variants(url)
        figures: dict[str, list[float]] = {name: [] for name in made}
        for round_ in range(args.rounds):
            for name, make in made.items():
                figures[name].append(asyncio.run(one(make, args.calls)))
                print(f"round {round_ + 1} {name:<12} {figures[name][-1]:6.1f} µs CPU per round trip")
    print(f"mean (min-max) over {args.rounds} rounds of {args.calls} calls; ratio to service's, per round:")
    for name, values in figures.items():
        ratios = [v / s for v, s in zip(values, figures["service"], strict=True)]
        print(f"  {name:<12} {statistics.mean(values):6.1f} µs ({min(values):.1f}-{max(values):.1f})  "
              f"{statistics.mean(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
