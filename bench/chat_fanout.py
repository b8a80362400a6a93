"""Chat fan-out: one chat message to many spectators subscribed, on the service as users start it (`firebreak api`,
a worker, a private redis-server: bench.harness.local_service).

The bench opens --subscribers `chat` subscriptions (GraphQL over WebSocket, each its own connection, as phones
would) on one match's spectators' channel, then a signed-in spectator sends --messages messages, one at a time:
for each it measures the time from the send's answer to the last subscriber receiving it, and the API process's
CPU per message (from /proc, idle CPU between messages taken off). Rounds alternate a single subscriber (the base)
and the full crowd, so the ratio says what the crowd costs; a round fails if any subscriber misses a message.

Run: python -m bench.chat_fanout [--subscribers 1000] [--messages 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from bench import harness

PROTOCOL = Subprotocol("graphql-transport-ws")
FOLLOW = """subscription($id: ID!) { chat(matchId: $id, channel: SPECTATORS) { seq } }"""
OPEN_BATCH = 100
DELIVERY_SECONDS = 60.0


async def sign_in(http: httpx.AsyncClient, name: str) -> str:
    answer = await http.post("/v1/auth/guest", json={"name": name, "deviceId": secrets.token_urlsafe(24)})
    answer.raise_for_status()
    return str(answer.json()["accessToken"])


async def new_match(http: httpx.AsyncClient) -> str:
    """A waiting 3-seat match: its spectators' channel is open to anyone signed in."""
    answer = await http.post("/v1/matches", json={"title": "greatfire", "seats": 3})
    answer.raise_for_status()
    return str(answer.json()["matchId"])


class Follower:
    """One chat subscription and the seqs it received (with when)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.got: dict[int, float] = {}
        self.errors: list[str] = []
        self.task: asyncio.Task[None] | None = None

    async def listen(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] == "next" and not message["payload"].get("errors"):
                self.got[int(message["payload"]["data"]["chat"]["seq"])] = time.monotonic()
            elif message["type"] in ("error", "next", "complete"):
                self.errors.append(json.dumps(message)[:200])


async def follower(ws_url: str, match_id: str) -> Follower:
    ws = await connect(ws_url, subprotocols=[PROTOCOL], open_timeout=30, max_queue=None)
    await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
    ack = json.loads(await asyncio.wait_for(ws.recv(), 30))
    assert ack["type"] == "connection_ack", ack
    await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": FOLLOW,
                                                                         "variables": {"id": match_id}}}))
    one = Follower(ws)
    one.task = asyncio.create_task(one.listen())
    return one


async def crowd(ws_url: str, match_id: str, size: int) -> list[Follower]:
    out: list[Follower] = []
    while len(out) < size:
        out += await asyncio.gather(*(follower(ws_url, match_id) for _ in range(min(OPEN_BATCH, size - len(out)))))
    await asyncio.sleep(1.0)  # every subscription has read its backlog and waits
    return out


async def close(followers: list[Follower]) -> None:
    for one in followers:
        if one.task is not None:
            one.task.cancel()
    await asyncio.gather(*(one.ws.close() for one in followers), return_exceptions=True)


async def round_of(http: httpx.AsyncClient, service: harness.LocalService, size: int, messages: int,
                   sender: str) -> tuple[list[float], list[float]]:
    """Open `size` followers of a fresh match, send the messages one at a time; each message's time from its send
    to its last receiver (ms), and the API's mean CPU per message over the round (ms; the send's own included)."""
    match_id = await new_match(http)
    ws_url = service.base.replace("http://", "ws://") + "/graphql"
    followers = await crowd(ws_url, match_id, size)
    api = service.pids()["api"]
    latencies = []
    try:
        before = harness.cpu_seconds(api) or 0.0
        for _ in range(messages):
            sent = time.monotonic()  # a subscriber may hear of it before the send's own answer arrives
            answer = await http.post(f"/v1/matches/{match_id}/chat", json={"channel": "SPECTATORS", "text": "hi"},
                                     headers={"authorization": f"Bearer {sender}"})
            answer.raise_for_status()
            seq = int(answer.json()["chatMessage"]["seq"])
            end = sent + DELIVERY_SECONDS
            while any(seq not in one.got for one in followers) and time.monotonic() < end:
                await asyncio.sleep(0.002)
            missed = sum(seq not in one.got for one in followers)
            errors = [e for one in followers for e in one.errors]
            if missed or errors:
                raise harness.BenchError(f"{missed} subscribers missed message {seq}; errors: {errors[:3]}")
            latencies.append((max(one.got[seq] for one in followers) - sent) * 1e3)
        cpu = ((harness.cpu_seconds(api) or 0.0) - before) * 1e3 / messages  # /proc counts 10 ms ticks: a mean
    finally:
        await close(followers)
    return latencies, [cpu]


async def run(args: argparse.Namespace, service: harness.LocalService) -> None:
    async with httpx.AsyncClient(base_url=service.base, timeout=60.0) as http:
        sender = await sign_in(http, "watcher")
        rows: dict[int, tuple[list[float], list[float]]] = {1: ([], []), args.subscribers: ([], [])}
        for n in range(args.rounds):
            for size in ((1, args.subscribers) if n % 2 == 0 else (args.subscribers, 1)):
                latency, cpu = await round_of(http, service, size, args.messages, sender)
                rows[size][0].extend(latency)
                rows[size][1].extend(cpu)
                print(f"round {n + 1}, {size:5d} subscribers: last receiver after {statistics.median(latency):7.1f} "
                      f"ms (median), API CPU {cpu[0]:6.2f} ms per message", flush=True)
        print()
        for size, (latency, cpu) in rows.items():
            q = statistics.quantiles(latency, n=20) if len(latency) >= 2 else latency * 19
            print(f"{size:5d} subscribers: time to the last receiver p50 {statistics.median(latency):.1f} ms, p95 "
                  f"{q[-1]:.1f} ms; API CPU per message {statistics.fmean(cpu):.2f} ms (rounds {min(cpu):.2f}-"
                  f"{max(cpu):.2f}), {statistics.fmean(cpu) * 1e3 / size:.0f} µs per subscriber")
        base_cpu = statistics.fmean(rows[1][1]) or 1e-9
        print(f"API CPU per message, {args.subscribers} subscribers against 1: "
              f"{statistics.fmean(rows[args.subscribers][1]) / base_cpu:.0f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    settings: dict[str, Any] = {"FIREBREAK_CHAT_PER_MINUTE": "100000", "FIREBREAK_CHAT_BURST": "100000",
                                "FIREBREAK_RATE_CLIENT_PER_SECOND": "100000", "FIREBREAK_RATE_CLIENT_BURST": "100000"}
    with harness.local_service(1, settings=settings) as service, harness.event_loop() as loop:
        loop.run(run(args, service))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
