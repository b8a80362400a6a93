"""Presence's cost per act (issue 49): the CPU of an authenticated request with the last-seen mark (social/presence.py)
as served, against the same request with the mark turned off, and with it written on every request.

Builds the real app (api.app.create_app) over a private redis-server, signs in --players guests, and sends their
authenticated requests (GET /v1/me/blocks: a credential check and one small Redis read, so the mark's share is as
large as it gets) round-robin through httpx's in-process ASGI transport, in --rounds interleaved rounds of each mode:
`served` (a write at most once per FIREBREAK_PRESENCE_TOUCH_SECONDS per player and process, 60 s), `off` (the mark
replaced by nothing), `every` (the mark written on every request). Prints the process's CPU per request of each
mode per round, the medians, and the Redis writes the mark made per 1000 requests. Then, the mark alone in a tight
loop (less exposed to a busy machine's noise than whole requests): the CPU of one call that finds the player marked
within the minute (what nearly every act pays), against an empty coroutine call, and of one that writes.

Run: python -m bench.presence [--requests 2000] [--rounds 5] [--players 50]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from bench.harness import in_process_app
from firebreak.matches.embedded import scratch_redis
from firebreak.social import presence

MODES = ("served", "off", "every")


async def _nothing(_redis: Any, _player: str) -> None:
    """The mark turned off."""


def _mode(mode: str, served: Callable[[Any, str], Awaitable[None]], writes: list[int]) -> None:
    """Put the mode's mark in place (presence.touch is looked up at each call by the app)."""
    presence._marked.clear()
    presence._every[:] = [0.0 if mode == "every" else 60.0]
    if mode == "off":
        presence.touch = _nothing  # type: ignore[assignment]
        return

    async def counted(redis: Any, player: str) -> None:
        before = presence._marked.get(player)
        await served(redis, player)
        if presence._marked.get(player) != before:
            writes[0] += 1

    presence.touch = counted


async def run(args: argparse.Namespace, redis_url: str) -> dict[str, list[float]]:
    app, _built = in_process_app(redis_url, FIREBREAK_RATE_REGISTRATION_BURST="100000")
    served = presence.touch
    figures: dict[str, list[float]] = {mode: [] for mode in MODES}
    async with app.router.lifespan_context(app), \
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as client:
        tokens = []
        for n in range(args.players):
            answer = await client.post("/v1/auth/guest", json={"name": f"p{n}",
                                                               "deviceId": secrets.token_urlsafe(24)})
            tokens.append(answer.json()["accessToken"])
        headers = [{"authorization": f"Bearer {token}"} for token in tokens]

        async def requests(count: int) -> None:
            for i in range(count):
                answer = await client.get("/v1/me/blocks", headers=headers[i % len(headers)])
                assert answer.status_code == 200, answer.text

        for mode in MODES:  # warm up
            _mode(mode, served, [0])
            await requests(200)
        for round_ in range(args.rounds):
            for mode in MODES:
                writes = [0]
                _mode(mode, served, writes)
                started = time.process_time()
                await requests(args.requests)
                figures[mode].append((time.process_time() - started) / args.requests * 1e6)
                print(f"round {round_ + 1} {mode:<7} {figures[mode][-1]:7.1f} µs CPU per request; "
                      f"{writes[0] * 1000 / args.requests:6.1f} mark writes per 1000 requests")
    presence.touch = served
    return figures


async def alone(redis_url: str, calls: int) -> dict[str, float]:
    """µs of CPU per call: an empty coroutine, the mark found fresh (no write), the mark written (one SET)."""
    from firebreak.matches import connections

    redis = connections.async_client(redis_url, decode_responses=True)
    players = [secrets.token_hex(8) for _ in range(50)]
    out: dict[str, float] = {}
    for name, every in (("empty", None), ("fresh", 60.0), ("written", 0.0)):
        presence._marked.clear()
        presence._every[:] = [60.0 if every is None else every]
        touch = _nothing if every is None else presence.touch
        for player in players:  # warm: each player marked once
            await touch(redis, player)
        started = time.process_time()
        for i in range(calls):
            await touch(redis, players[i % len(players)])
        out[name] = (time.process_time() - started) / calls * 1e6
    await redis.aclose()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--calls", type=int, default=200_000, help="calls of the mark alone")
    args = parser.parse_args()
    with scratch_redis() as url:
        figures = asyncio.run(run(args, url))
        marks = asyncio.run(alone(url, args.calls))
    medians = {mode: statistics.median(values) for mode, values in figures.items()}
    print("median µs CPU per request: " + ", ".join(f"{mode} {value:.1f}" for mode, value in medians.items()))
    print(f"presence as served costs {medians['served'] - medians['off']:+.1f} µs per request "
          f"({(medians['served'] / medians['off'] - 1) * 100:+.1f} %); written on every request it would cost "
          f"{medians['every'] - medians['off']:+.1f} µs ({(medians['every'] / medians['off'] - 1) * 100:+.1f} %)")
    print(f"the mark alone, µs CPU per call: {marks['fresh']:.2f} found fresh (an empty coroutine call: "
          f"{marks['empty']:.2f}), {marks['written']:.1f} written (one SET, at most once a minute per player)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
