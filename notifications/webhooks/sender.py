"""The sender: a thread in every worker process with an event loop of its own, which forwards the players' new
feed events into deliveries and sends the due deliveries, never on an RQ job (a match job never waits behind a
slow endpoint) and never in a request.

Each tick claims, per endpoint, at most as many due deliveries as that endpoint has free slots (per_endpoint
attempts in flight per process, concurrency in all): a hanging endpoint fills its own slots and no other's. An
attempt has timeout_seconds in all; 2xx delivers, anything else (an error status, a timeout, a refused
connection) is retried after an exponential backoff with jitter (or the endpoint's Retry-After, if longer) until
the last attempt, when the delivery is marked failed and kept. Before it sends, an attempt resolves the endpoint's
host and refuses an address that is not public unless allowed (destinations.py): such a delivery is marked failed
at once (outcome "refused"), never retried; otherwise the attempt connects to the address it checked. A process
killed mid-send holds the delivery only until its lease ends; then another sender claims it again.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from firebreak.matches import connections
from firebreak.notifications import outbound
from firebreak.notifications.webhooks import destinations, signing, stats
from firebreak.notifications.webhooks.deliveries import Claimed, Deliveries, retry_delay
from firebreak.notifications.webhooks.endpoints import Endpoint, Endpoints
from firebreak.notifications.webhooks.settings import WebhookSettings

log = logging.getLogger("firebreak.webhooks")

PRUNE_SECONDS = 600.0   # how often a sender drops the indexes' expired entries
RETRY_AFTER_CAP = 3600.0  # the longest Retry-After honoured

Forward = Callable[[float], Awaitable[int]]


class Sender:
    """Sends the due deliveries of every endpoint with bounded concurrency (one per worker process)."""

    def __init__(self, redis: Any, settings: WebhookSettings, endpoints: Endpoints, queue: str,
                 forward: Forward | None = None) -> None:
        self.redis = redis
        self.settings = settings
        self.endpoints = endpoints
        self.deliveries = Deliveries(redis, settings, queue)
        self.forward = forward
        self.in_flight: dict[str, int] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.allowed = settings.allowed
        self.clients = outbound.OriginClients(settings.timeout_seconds, settings.concurrency)  # one per origin
        self._pruned = 0.0

    async def tick(self, now: float | None = None) -> int:
        """Forward new feed events, then start an attempt for every due delivery with a free slot; return how
        many attempts started."""
        now = time.time() if now is None else now
        if self.forward is not None:
            await self.forward(now)
        endpoints = await self.endpoints.all()
        started = 0
        for endpoint in endpoints:
            free = min(self.settings.per_endpoint - self.in_flight.get(endpoint.id, 0),
                       self.settings.concurrency - len(self.tasks))
            if free <= 0:
                continue
            for claimed in await self.deliveries.claim(endpoint.id, free, now):
                self._start(claimed, endpoint)
                started += 1
        if now - self._pruned > PRUNE_SECONDS:
            self._pruned = now
            await self.deliveries.prune([e.id for e in endpoints], now)
        return started

    def _start(self, claimed: Claimed, endpoint: Endpoint) -> None:
        self.in_flight[endpoint.id] = self.in_flight.get(endpoint.id, 0) + 1
        task = asyncio.create_task(self.attempt(claimed, endpoint))
        self.tasks.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self.tasks.discard(finished)
            self.in_flight[endpoint.id] -= 1
            if not finished.cancelled() and finished.exception() is not None:
                log.error("webhook attempt %s failed to record: %r", claimed.id, finished.exception())

        task.add_done_callback(done)

    async def attempt(self, claimed: Claimed, endpoint: Endpoint) -> None:
        """Send one attempt of a delivery and record its outcome (while the attempt still holds its lease)."""
        sent = time.time()
        began = time.monotonic()
        status: int | None = None
        error = ""
        retry_after = 0.0
        try:
            async with asyncio.timeout(self.settings.timeout_seconds):
                headers = signing.headers(claimed.id, sent, claimed.payload, endpoint.secrets)
                url, named, extensions = await outbound.pinned(endpoint.url, self.allowed)
                async with self.clients.get(endpoint.url).stream("POST", url, content=claimed.payload.encode(),
                                                                 headers={**headers, **named},
                                                                 extensions=extensions) as response:
                    status = response.status_code
                    retry_after = outbound.retry_after(response.headers.get("retry-after"))
            outcome = "success" if 200 <= status < 300 else "http_error"
            if outcome != "success":
                error = f"HTTP {status}"
        except TimeoutError:
            outcome, error = "timeout", f"no answer within {self.settings.timeout_seconds:g} s"
        except destinations.Refused as refused:
            outcome, error = "refused", str(refused)
        except OSError as exc:  # the host does not resolve
            outcome, error = "network", type(exc).__name__
        except httpx.HTTPError as exc:
            outcome, error = "network", type(exc).__name__
        seconds = time.monotonic() - began
        now = time.time()
        if outcome == "success":
            final = "succeeded"
            await self.deliveries.finish(claimed, final, now, status=status, latency=seconds)
        elif claimed.attempt >= self.settings.attempts or outcome == "refused":
            final = "failed"
            await self.deliveries.finish(claimed, final, now, status=status, error=error, latency=seconds)
        else:
            final = "retried"
            wait = max(retry_delay(self.settings, claimed.attempt), min(retry_after, RETRY_AFTER_CAP))
            await self.deliveries.finish(claimed, "retry", now, next_at=now + wait, status=status, error=error,
                                         latency=seconds)
        await stats.record(self.redis, outcome, seconds, final)
        if final == "failed":
            log.warning("webhook delivery %s to endpoint %s failed after %d attempts (%s)", claimed.id,
                        endpoint.id, claimed.attempt, error)

    async def run(self, stop: threading.Event) -> None:
        """Tick every tick_seconds until stop is set; a failing tick (Redis away) is logged and retried."""
        try:
            await outbound.tick_until(stop, self.tick, self.settings.tick_seconds, self.tasks, log,
                                      "webhook sender")
        finally:
            await self.clients.aclose()


def start(queue_url: str, queue: str, settings: WebhookSettings, known_types: tuple[str, ...],
          forwarder: Callable[[Any], Forward] | None = None) -> tuple[threading.Thread, threading.Event]:
    """Run a sender of a queue's webhooks in a daemon thread of this process, over the queue Redis (forwarder:
    builds the forwarding step from the sender's queue client); set the returned event to stop it."""
    stop = threading.Event()

    def main() -> None:
        async def serve() -> None:
            redis = connections.async_client(queue_url, decode_responses=True)
            endpoints = Endpoints(redis, settings, known_types, queue)
            sender = Sender(redis, settings, endpoints, queue, forwarder(redis) if forwarder else None)
            try:
                await sender.run(stop)
            finally:
                await redis.aclose()

        asyncio.run(serve())

    thread = threading.Thread(target=main, name="webhooks", daemon=True)
    thread.start()
    return thread, stop
