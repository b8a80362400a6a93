"""CPU of one Redis round trip through the asyncio clients the service could use, on a private redis-server.

Each variant runs the same EVALSHA (a small script reading one hash field, as the commit's version check does)
--calls times, awaited one after the other, and the process's CPU per call is printed, in --rounds interleaved
rounds (a noisy machine moves every variant of a round alike: compare within a round):

- service: matches.connections.async_client as the API builds it (retries, health checks, a 30 s socket timeout);
- lean: the same with matches.connections.LeanConnection (the write under a timeout scope, not a task per
  command): what the service now uses;
- no-timeout: the service's client without a socket timeout (what the write's timeout costs);
- bare: redis-py's default client (no retry policy, no health checks, no timeout);
- pure-parser: the bare client with redis-py's Python parser instead of hiredis.

Run: python -m bench.redis_client [--calls 5000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable
from typing import Any

from redis._parsers.resp2 import _AsyncRESP2Parser
from redis.asyncio import Redis
from redis.asyncio.connection import Connection

from firebreak.api.services import SOCKET_TIMEOUT
from firebreak.matches import connections
from firebreak.matches.embedded import scratch_redis

SCRIPT = "return redis.call('HGET', KEYS[1], 'v')"


def variants(url: str) -> dict[str, Callable[[], Any]]:
    """Each variant's client factory."""
    return {
        "service": lambda: connections.async_client(url, socket_timeout=SOCKET_TIMEOUT,
                                                    connection_class=Connection),
        "lean": lambda: connections.async_client(url, socket_timeout=SOCKET_TIMEOUT),
        "no-timeout": lambda: connections.async_client(url, connection_class=Connection),
        "bare": lambda: Redis.from_url(url),
        "pure-parser": lambda: Redis.from_url(url, parser_class=_AsyncRESP2Parser),
    }


async def one(make: Callable[[], Any], calls: int) -> float:
    """µs of CPU per EVALSHA round trip."""
    client = make()
    try:
        await client.hset("bench:{x}:state", "v", 1)
        script = connections.Script(client, SCRIPT)
        for _ in range(200):
            await script(["bench:{x}:state"])
        started = time.process_time()
        for _ in range(calls):
            await script(["bench:{x}:state"])
        return (time.process_time() - started) / calls * 1e6
    finally:
        await client.aclose()


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
