"""Concurrent subscribers one API process holds: matchEvents subscriptions over WebSocket, added in steps.

The bench starts a private redis-server (or, with --layout cluster, a 3-master Redis Cluster and a queue Redis),
one API process and one worker, creates --matches all-human matches, then adds spectator subscriptions spread
over them up to each level of --levels. At each level, once the subscriptions are open, it reads the Redis
connections in use, then plays one move in every match and waits until every subscriber has received it.
It stops at the first level where a subscriber got an error or missed the move, and prints a line per level:
subscribers, Redis connections (all clients of the matches Redis, minus the bench's own), subscribers that
received the move, errors, the API's resident memory.

--root runs another checkout's code (e.g. `git archive main | tar -x -C /tmp/firebreak-main` for the figures
before the per-match reader): same commands, its own api/ and workers/.

Run: python -m bench.subscribers [--matches 10] [--levels 500,1000,2000,3000,4000] [--layout single|cluster]
         [--root PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from redis import Redis, RedisCluster
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from bench.harness import ACT, CREATE, JOIN, READ, api_command
from bench.layouts import ClusterRedises
from firebreak.matches.embedded import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = Subprotocol("graphql-transport-ws")
SUBSCRIBE = """subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterVersion: $after) { version } }"""
SEATS = 3
OPEN_BATCH = 100        # subscriptions opened at once
DELIVERY_SECONDS = 60.0


@dataclass
class Subscriber:
    """One open subscription and the versions (or errors) it has received."""

    match: int
    ws: ClientConnection
    versions: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    async def listen(self) -> None:
        """Collect messages until the connection closes."""
        with contextlib.suppress(Exception):
            async for text in self.ws:
                message = json.loads(text)
                if message["type"] == "ping":
                    await self.ws.send(json.dumps({"type": "pong"}))
                elif message["type"] == "next":
                    payload = message["payload"]
                    if payload.get("errors"):
                        self.errors.append(str(payload["errors"][0].get("message")))
                    else:
                        self.versions.append(payload["data"]["matchEvents"]["version"])
                elif message["type"] in ("error", "complete"):
                    self.errors.append(message["type"])


@contextlib.contextmanager
def service(root: Path, layout: str, logs: Path | None = None) -> Iterator[tuple[str, int, str]]:
    """Redis (or a cluster and a queue Redis), one API process and one worker (their logs and data in a temp
    folder, or in `logs` to keep); yields (base URL, API pid, matches Redis URL)."""
    with tempfile.TemporaryDirectory(prefix="firebreak-subscribers-") as tmp:
        folder = Path(tmp) if logs is None else logs
        folder.mkdir(parents=True, exist_ok=True)
        single = EmbeddedRedis(folder / "redis", appendonly=False, prefer_bundled=False)
        cluster = ClusterRedises(folder) if layout == "cluster" else None
        env = {**os.environ, "FIREBREAK_QUEUE": "firebreak-subscribers", "PYTHONPATH": str(root),
               "FIREBREAK_RATE_CLIENT_PER_SECOND": "0"}
        env.update(cluster.start() if cluster else {"REDIS_URL": single.start()})
        port = free_port()
        files = [(folder / "api.log").open("wb"), (folder / "worker.log").open("wb")]
        procs = [subprocess.Popen(api_command(port), cwd=root, env=env, stdout=files[0], stderr=subprocess.STDOUT),
                 subprocess.Popen([sys.executable, "-m", "firebreak.workers.main"], cwd=root, env=env, stdout=files[1],
                                  stderr=subprocess.STDOUT)]
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the API did not start; see {folder / 'api.log'}")
                time.sleep(0.1)
            yield base, procs[0].pid, env["REDIS_URL"]
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            for log in files:
                log.close()
            if cluster:
                cluster.stop()
            single.stop()


async def gql(http: httpx.AsyncClient, query: str, variables: dict[str, Any], token: str | None = None) -> Any:
    """POST a GraphQL request that must succeed; its data."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    body = (await http.post("/graphql", json={"query": query, "variables": variables}, headers=headers)).json()
    if body.get("errors"):
        raise RuntimeError(str(body["errors"]))
    return body["data"]


async def new_match(http: httpx.AsyncClient, seed: int) -> tuple[str, dict[int, str]]:
    """An all-human match with every seat taken by the bench."""
    created = (await gql(http, CREATE, {"input": {"title": "greatfire", "seats": SEATS, "seed": seed}}))
    match_id = created["createMatch"]["matchId"]
    tokens = {}
    for seat in range(SEATS):
        joined = (await gql(http, JOIN, {"input": {"matchId": match_id, "name": f"s{seat}", "seat": seat}}))
        tokens[seat] = joined["joinMatch"]["token"]
    return match_id, tokens


async def move(http: httpx.AsyncClient, match_id: str, tokens: dict[int, str], rng: random.Random) -> int:
    """Play one move of the person to act (waiting out the service's own steps); the new version."""
    while True:
        m = (await gql(http, READ, {"id": match_id}, tokens[0]))["match"]
        if m["toAct"]:
            seat = m["toAct"][0]
            m = (await gql(http, READ, {"id": match_id}, tokens[seat]))["match"]
            act = {"input": {"matchId": match_id, "action": rng.choice(m["legalActions"]),
                             "expectedVersion": m["version"]}}
            result = (await gql(http, ACT, act, tokens[seat]))["act"]
            if result["__typename"] == "ActionAccepted":
                return int(result["version"])
        await asyncio.sleep(0.05)


async def open_subscriber(ws_url: str, match_id: str, match: int, after: int) -> Subscriber:
    """A spectator's subscription to a match from a version."""
    ws = await connect(ws_url, subprotocols=[PROTOCOL], open_timeout=30, max_queue=16)
    await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
    await ws.recv()
    await ws.send(json.dumps({"id": "1", "type": "subscribe",
                              "payload": {"query": SUBSCRIBE, "variables": {"id": match_id, "after": after}}}))
    sub = Subscriber(match, ws)
    sub.task = asyncio.create_task(sub.listen())
    return sub


def redis_clients(redis_url: str) -> int:
    """Clients connected to the matches Redis (summed over a cluster's masters), the asker included."""
    probe = Redis.from_url(redis_url)
    try:
        if int(probe.info("cluster").get("cluster_enabled", 0)):
            cluster: Any = RedisCluster.from_url(redis_url)
            try:
                total = 0
                for node in cluster.get_primaries():
                    total += int(cluster.info("clients", target_nodes=node)["connected_clients"])
                return total
            finally:
                cluster.close()
        return int(probe.info("clients")["connected_clients"])
    finally:
        probe.close()


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def measure(base: str, api_pid: int, redis_url: str, matches: int, levels: list[int]) -> list[str]:
    """Add subscribers level by level; a line per level."""
    rng = random.Random(1)
    ws_url = base.replace("http://", "ws://") + "/graphql"
    lines = [f"{'subscribers':>11}  {'redis conns':>11}  {'got the move':>12}  {'errors':>6}  {'API RSS MB':>10}"]
    subs: list[Subscriber] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        games = [await new_match(http, 100 + n) for n in range(matches)]
        versions = [0] * matches
        baseline = redis_clients(redis_url)
        try:
            for level in levels:
                while len(subs) < level:
                    batch = min(OPEN_BATCH, level - len(subs))
                    start = len(subs)
                    opened = await asyncio.gather(
                        *(open_subscriber(ws_url, games[(start + n) % matches][0], (start + n) % matches,
                                          versions[(start + n) % matches]) for n in range(batch)),
                        return_exceptions=True)
                    failed = [o for o in opened if isinstance(o, BaseException)]
                    subs.extend(o for o in opened if isinstance(o, Subscriber))
                    if failed:
                        lines.append(f"{level:>11}  could not open {len(failed)} subscriptions: {failed[0]!r}")
                        return lines
                await asyncio.sleep(3.0)  # every subscription reaches its wait
                conns = redis_clients(redis_url) - baseline
                for n, (match_id, tokens) in enumerate(games):
                    versions[n] = await move(http, match_id, tokens, rng)
                deadline = time.monotonic() + DELIVERY_SECONDS
                while time.monotonic() < deadline and not all(
                        versions[s.match] in s.versions or s.errors for s in subs):
                    await asyncio.sleep(0.2)
                got = sum(1 for s in subs if versions[s.match] in s.versions)
                errors = sum(1 for s in subs if s.errors)
                lines.append(f"{level:>11}  {conns:>11}  {got:>12}  {errors:>6}  {rss_mb(api_pid):>10.0f}")
                print(lines[-1], file=sys.stderr)
                if got < len(subs) or errors:
                    example = next((s.errors[0] for s in subs if s.errors), "")
                    lines.append(f"stopped: {len(subs) - got} subscribers missed the move; first error: {example}")
                    return lines
        finally:
            for s in subs:
                with contextlib.suppress(Exception):
                    await s.ws.close()
            for s in subs:
                if s.task:
                    s.task.cancel()
    return lines


def main() -> int:
    """Parse the options, start the service, add subscribers level by level, print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=10, help="matches the subscribers watch")
    parser.add_argument("--levels", default="500,1000,2000,3000,4000", help="subscriber counts, ascending")
    parser.add_argument("--layout", choices=("single", "cluster"), default="single")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose API and worker to run")
    parser.add_argument("--logs", type=Path, help="keep the processes' logs in this folder")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    with service(args.root.resolve(), args.layout, args.logs) as (base, pid, redis_url):
        lines = asyncio.run(measure(base, pid, redis_url, args.matches, levels))
    print(f"code: {args.root.resolve()}  layout: {args.layout}  matches watched: {args.matches}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
