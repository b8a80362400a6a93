"""Webhook fan-out bench: deliveries per second to a local receiver while players act, and act latency with and
without a stuck endpoint (one that never answers) registered, in alternating phases of the same run.

    .venv/bin/python -m bench.webhooks [--matches 8] [--phase-seconds 8] [--phases 4]

It starts a private Redis, the API and a worker (bench/harness.py), a receiver on loopback (the settings'
endpoint, answering 200 at once) and, every other phase, adds through the admin API an endpoint that holds every
request until its timeout. Players (guests) play 2-seat matches as fast as the API answers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

from bench.harness import ACT, CREATE, READ, graphql, local_service
from firebreak.matches.embedded import free_port
from firebreak.notifications.webhooks.signing import new_secret

GUEST = """mutation($input: SignInAsGuestInput!) { signInAsGuest(input: $input) { __typename
  ... on Session { accessToken player { id } } } }"""
JOIN = """mutation($input: JoinMatchInput!) { joinMatch(input: $input) { __typename ... on SeatJoined { seat } } }"""


class Receiver:
    """A loopback HTTP server: /good answers 200 at once (recording arrival time and the event's time), /stuck
    holds the request until the server stops."""

    def __init__(self) -> None:
        self.arrivals: list[tuple[float, float]] = []  # (received, event time)
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.port = free_port()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                if self.path == "/stuck":
                    owner.stopping.wait(600)
                    return
                stamp = json.loads(body)["timestamp"]
                at = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
                with owner.lock:
                    owner.arrivals.append((time.time(), at))
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        """One of its paths' URL."""
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        """Release held requests and stop."""
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()


async def _player(client: httpx.AsyncClient, name: str) -> tuple[str, str]:
    data = await graphql(client, GUEST, {"input": {"name": name, "deviceId": secrets.token_urlsafe(24)}})
    return data["signInAsGuest"]["accessToken"], data["signInAsGuest"]["player"]["id"]


async def _match(client: httpx.AsyncClient, tokens: list[str], seed: int) -> str:
    made = await graphql(client, CREATE, {"input": {"title": "greatfire", "seats": 2, "seed": seed}})
    match_id: str = made["createMatch"]["matchId"]
    for seat, token in enumerate(tokens):
        await graphql(client, JOIN, {"input": {"matchId": match_id, "seat": seat}}, token)
    return match_id


async def _play(client: httpx.AsyncClient, tokens: list[str], seed: int, stop: asyncio.Event,
                latencies: list[tuple[float, float]]) -> None:
    """Play matches between two players until stop; record (start time, seconds) of every accepted act."""
    rng = random.Random(seed)
    match_id = await _match(client, tokens, seed)
    while not stop.is_set():
        acted = False
        for token in tokens:
            m = (await graphql(client, READ, {"id": match_id}, token))["match"]
            if m["status"] == "OVER":
                seed += 1000
                match_id = await _match(client, tokens, seed)
                acted = True
                break
            if not m["legalActions"]:
                continue
            began = time.time()
            answer = await graphql(client, ACT, {"input": {"matchId": match_id, "action": rng.choice(
                m["legalActions"]), "expectedVersion": m["version"]}}, token)
            if answer["act"]["__typename"] == "ActionAccepted":
                latencies.append((began, time.time() - began))
            acted = True
        if not acted:
            await asyncio.sleep(0.01)


def _figures(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"n={len(values)} p50={statistics.median(values) * 1000:.1f} ms p95={p95 * 1000:.1f} ms "
            f"max={ordered[-1] * 1000:.1f} ms")


async def run(args: argparse.Namespace, base: str, admin: str, rx: Receiver) -> None:
    """The phases; prints the figures."""
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=200)) as client:
        players = [await _player(client, f"bench{n}") for n in range(2 * args.matches)]
        stop = asyncio.Event()
        latencies: list[tuple[float, float]] = []
        tasks = [asyncio.create_task(_play(client, [players[2 * n][0], players[2 * n + 1][0]], n, stop, latencies))
                 for n in range(args.matches)]
        phases: list[tuple[str, float, float]] = []
        stuck_id = None
        started = time.time()
        for phase in range(args.phases):
            stuck = phase % 2 == 1
            headers = {"authorization": f"Bearer {admin}"}
            if stuck:
                made = await client.post("/v1/admin/webhooks", json={"url": rx.url("/stuck")}, headers=headers)
                stuck_id = made.json()["endpoint"]["id"]
            begin = time.time()
            await asyncio.sleep(args.phase_seconds)
            phases.append(("with a stuck endpoint" if stuck else "without", begin, time.time()))
            if stuck and stuck_id:
                await client.delete(f"/v1/admin/webhooks/{stuck_id}", headers=headers)
        stop.set()
        await asyncio.gather(*tasks)
        ended = time.time()
        metrics = (await client.get("/metrics")).text
    print(f"acts: {len(latencies)} accepted in {ended - started:.1f} s over {args.matches} matches "
          f"({len(latencies) / (ended - started):.1f}/s)")
    for label in ("without", "with a stuck endpoint"):
        values = [s for b, s in latencies for lab, lo, hi in phases if lab == label and lo <= b < hi]
        print(f"act latency {label:>22}: {_figures(values)}")
    await asyncio.sleep(3)  # the last events' deliveries
    with rx.lock:
        arrivals = list(rx.arrivals)
    if arrivals:
        span = max(a for a, _ in arrivals) - min(a for a, _ in arrivals)
        print(f"deliveries to the receiver: {len(arrivals)} in {span:.1f} s ({len(arrivals) / max(span, 1e-9):.1f}/s)")
        print(f"event to delivery: {_figures([a - at for a, at in arrivals if at])}")
    for line in metrics.splitlines():
        if line.startswith(("firebreak_webhook_attempts_total", "firebreak_webhook_deliveries_total")):
            print(line)


def main() -> int:
    """Run the bench; print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=8, help="2-seat matches played at once")
    parser.add_argument("--phase-seconds", type=float, default=8.0)
    parser.add_argument("--phases", type=int, default=4, help="alternating: without, with a stuck endpoint, ...")
    args = parser.parse_args()
    rx = Receiver()
    admin = "bench-admin-" + secrets.token_urlsafe(24)
    os.environ.update({"FIREBREAK_WEBHOOK_URL": rx.url("/good"), "FIREBREAK_WEBHOOK_SECRET": new_secret(),
                       "FIREBREAK_WEBHOOK_ALLOWED_HOSTS": "127.0.0.1",  # the local receiver
                       "FIREBREAK_ADMIN_TOKEN": admin, "FIREBREAK_RATE_REGISTRATION_BURST": "100000"})
    try:
        with local_service(1) as service:
            asyncio.run(run(args, service.base, admin, rx))
    finally:
        rx.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
