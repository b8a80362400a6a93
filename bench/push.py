"""Web Push bench: pushes sent per second by one worker's push sender (push/sender.py, the code a worker's push
thread runs) to a push service on loopback that answers 201 at once, each push encrypted (aes128gcm) and signed
(VAPID) for its subscription.

    .venv/bin/python -m bench.push [--players 200] [--events 5] [--concurrency 32]

It starts a private Redis, registers one browser subscription (a fresh P-256 key pair and auth secret) per
player, writes the events to the players' feeds, makes their pushes with the forwarder, then times one sender
draining them all.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from redis.asyncio import Redis

from firebreak.matches import keys as match_keys
from firebreak.matches.embedded import EmbeddedRedis, free_port
from firebreak.matches.feed import FeedType, payload
from firebreak.push import vapid
from firebreak.push.forwarder import PushForwarder
from firebreak.push.sender import Sender
from firebreak.push.settings import PushSettings
from firebreak.push.subscriptions import Subscriptions


class Service:
    """A loopback push service answering 201 to every push, counting them."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()
        self.port = free_port()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as a push service's HTTP/1.1 front does

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                with owner.lock:
                    owner.count += 1
                self.send_response(201)
                self.send_header("content-length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def endpoint(self, name: str) -> str:
        """A subscription's endpoint."""
        return f"http://127.0.0.1:{self.port}/push/{name}"


def browser_keys() -> tuple[str, str]:
    """A browser's p256dh and auth, base64url."""
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return (base64.urlsafe_b64encode(point).decode().rstrip("="),
            base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("="))


async def run(url: str, players: int, events: int, concurrency: int, folder: str) -> dict[str, float]:
    """Make players x events pushes and time one sender sending them."""
    settings = PushSettings(allowed_hosts=("127.0.0.1",), concurrency=concurrency, tick_seconds=0.01)
    service = Service()
    redis = Redis.from_url(url, decode_responses=True)
    subs = Subscriptions(redis, settings.allowed, settings.per_player)
    forward = PushForwarder(redis, redis, "bench", subs)
    for n in range(players):
        player = f"bench-{n}"
        await subs.add(player, service.endpoint(player), *browser_keys())
        for e in range(events):
            await redis.xadd(match_keys.feed(player), {"e": payload(FeedType.YOUR_TURN, {"matchId": f"m{n}-{e}"})})
        await forward(player)
    sender = Sender(redis, redis, settings, vapid.load(settings, folder), "bench")
    total = players * events
    began = time.perf_counter()
    while service.count < total:
        await sender.tick()
        await asyncio.sleep(0.001)
    seconds = time.perf_counter() - began
    await asyncio.gather(*sender.tasks)
    await sender.client.aclose()
    await redis.aclose()
    service.server.shutdown()
    return {"pushes": float(total), "seconds": seconds, "per_second": total / seconds}


def main() -> None:
    """Run the bench and print what one sender sent per second."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--events", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(folder, appendonly=False, prefer_bundled=False)
        url = server.start()
        try:
            figures = asyncio.run(run(url, args.players, args.events, args.concurrency, folder))
        finally:
            server.stop()
    print(f"{figures['pushes']:.0f} pushes in {figures['seconds']:.2f} s: {figures['per_second']:.0f} pushes/s "
          f"from one sender (concurrency {args.concurrency})")


if __name__ == "__main__":
    main()
