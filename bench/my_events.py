"""Idle followers of their own events (GET /v1/me/events, SSE) held by one API process: what they cost Redis.

The bench starts a private redis-server and one API process, signs in --players guests and, for each level of
--levels, opens that many SSE streams (one per player), lets them sit idle for --idle seconds, and reads from
Redis: the connections in use (all clients, minus the bench's own), the clients blocked in a read, and the
commands Redis processed per second while the followers sat idle (INFO's total_commands_processed, minus the
bench's own INFO calls). Then it emits one event to every follower and counts those that received theirs.
A line per level.

Run: python -m bench.my_events [--levels 10,100,500,1000] [--idle 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from bench.harness import api_command
from firebreak.matches import feed
from firebreak.matches.config import Settings
from firebreak.matches.embedded import EmbeddedRedis, free_port
from firebreak.matches.feed import FeedType
from firebreak.matches.store import MatchStore

ROOT = Path(__file__).resolve().parent.parent
GUEST = """mutation($input: SignInAsGuestInput!) { signInAsGuest(input: $input) { ... on Session { accessToken
  player { id } } } }"""
QUEUE = "firebreak-bench-events"


@contextlib.contextmanager
def service(folder: Path) -> Iterator[tuple[str, str]]:
    """A private Redis and one API process; yields (API base URL, Redis URL)."""
    server = EmbeddedRedis(folder / "redis", appendonly=False, prefer_bundled=False)
    url = server.start()
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "FIREBREAK_QUEUE": QUEUE, "PYTHONPATH": str(ROOT),
           "FIREBREAK_RATE_REGISTRATION_BURST": "1000000"}
    with (folder / "api.log").open("wb") as log:
        proc = subprocess.Popen(api_command(port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/healthz", timeout=0.5).status_code == 200:
                        break
                time.sleep(0.1)
            yield base, url
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            server.stop()


async def follow(http: httpx.AsyncClient, token: str, opened: asyncio.Event, got: list[str]) -> None:
    """One idle follower: open the stream, wait for its ready message (the stream is live), then keep the events'
    ids it receives."""
    async with http.stream("GET", "/v1/me/events", headers={"authorization": f"Bearer {token}"}) as response:
        assert response.status_code == 200, response.status_code
        pending: str | None = None
        async for line in response.aiter_lines():
            if line.startswith("id:"):
                pending = line[3:].strip()
            elif line == "event: ready":
                pending = None  # not an event: from here on every new one comes
                opened.set()
            elif not line and pending is not None:
                got.append(pending)
                pending = None


async def level(base: str, url: str, players: list[tuple[str, str]], idle: float) -> str:
    """Open one follower per player, measure while idle, emit one event each, count deliveries."""
    probe = Redis.from_url(url, decode_responses=True)
    limits = httpx.Limits(max_connections=len(players) + 10)
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(30, read=None), limits=limits) as http:
        opened = [asyncio.Event() for _ in players]
        got: list[list[str]] = [[] for _ in players]
        tasks = [asyncio.create_task(follow(http, token, opened[n], got[n])) for n, (token, _) in enumerate(players)]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 120)
        await asyncio.sleep(1.0)
        before = int(probe.info("stats")["total_commands_processed"])
        start = time.monotonic()
        await asyncio.sleep(idle)
        after = int(probe.info("stats")["total_commands_processed"])
        per_second = (after - before - 1) / (time.monotonic() - start)  # minus the bench's own INFO
        clients = probe.client_list()
        connections = len(clients) - 1
        blocked = sum(1 for c in clients if "b" in c["flags"])
        conn = AsyncRedis.from_url(url, decode_responses=True)
        store = MatchStore(conn, Settings(redis_url=url, queue=QUEUE), conn)
        sent = time.monotonic()
        for n, (_, player) in enumerate(players):
            await feed.emit(store, player, FeedType.INVITED, {"matchId": f"bench{n}", "title": "london", "by": None},
                            secrets.token_hex(8))
        deadline = time.monotonic() + 60
        while sum(1 for g in got if g) < len(players) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        delivered = sum(1 for g in got if g)
        spread = time.monotonic() - sent
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await conn.aclose()
    probe.close()
    return (f"{len(players):>9} {connections:>17} {blocked:>15} {per_second:>22.1f} {delivered:>10} "
            f"{spread:>12.2f}")


async def main_async(levels: list[int], idle: float) -> None:
    """Every level, one line each."""
    with tempfile.TemporaryDirectory() as tmp, service(Path(tmp)) as (base, url):
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            players: list[tuple[str, str]] = []
            for n in range(max(levels)):
                answer = await http.post("/graphql", json={"query": GUEST, "variables": {"input": {
                    "name": f"bench {n}", "deviceId": secrets.token_urlsafe(24)}}})
                session = json.loads(answer.text)["data"]["signInAsGuest"]
                players.append((session["accessToken"], session["player"]["id"]))
        print("followers  redis connections  blocked clients  redis commands/s idle  delivered  delivery (s)")
        for count in levels:
            print(await level(base, url, players[:count], idle), flush=True)


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="10,100,500,1000")
    parser.add_argument("--idle", type=float, default=10.0)
    args = parser.parse_args()
    asyncio.run(main_async([int(x) for x in args.levels.split(",")], args.idle))


if __name__ == "__main__":
    main()
