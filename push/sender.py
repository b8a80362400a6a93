"""The push sender: a thread in every worker process with an event loop of its own that sends the due pushes (never
on an RQ job, never in a request).

An attempt looks up the push's registration (gone: the push is dropped), encrypts the payload to the browser's keys
(RFC 8291 aes128gcm, by pywebpush), signs a VAPID JWT for the endpoint's origin (RFC 8292) and POSTs it with TTL,
Urgency and Topic (RFC 8030), to the address it checked (destinations.py, with FIREBREAK_PUSH_ALLOWED_HOSTS). 2xx
sends it; 404 and 410 mean the subscription is gone: the registration is removed; 429 and 5xx, a timeout or a
network error are retried after a backoff (or the Retry-After, if longer) until the last attempt; another status
gives up at once. A push whose TTL passed before it could be sent is dropped (expired). A native app's
registration is sent to through FCM HTTP v1 instead (fcm.py), with the same outcomes."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import httpx
from pywebpush import WebPusher

from firebreak.matches import connections
from firebreak.notifications import outbound
from firebreak.notifications.webhooks import destinations
from firebreak.push import fcm, stats
from firebreak.push.fcm import Fcm
from firebreak.push.queue import Claimed, Queue, retry_delay
from firebreak.push.settings import PushSettings
from firebreak.push.subscriptions import Subscription, Subscriptions
from firebreak.push.vapid import Keys

log = logging.getLogger("firebreak.push")

RETRY_AFTER_CAP = 3600.0  # the longest Retry-After honoured
USER_AGENT = "Firebreak-Push/1"


def encrypt(sub: Subscription, payload: str) -> bytes:
    """The payload encrypted to a registration's keys (aes128gcm)."""
    return bytes(WebPusher(sub.info()).encode(payload.encode(), "aes128gcm")["body"])


class Sender:
    """Sends the due pushes with bounded concurrency (one per worker process)."""

    def __init__(self, queue: Any, matches: Any, settings: PushSettings, vapid: Keys, queue_name: str,
                 fcm: Fcm | None = None) -> None:
        self.redis = queue
        self.settings = settings
        self.vapid = vapid
        self.queue = Queue(queue, queue_name)
        self.subscriptions = Subscriptions(matches, settings.allowed, settings.per_player)
        self.allowed = settings.allowed
        self.tasks: set[asyncio.Task[None]] = set()
        self.client = httpx.AsyncClient(follow_redirects=False, timeout=settings.timeout_seconds)  # FCM's endpoint
        self.clients = outbound.OriginClients(settings.timeout_seconds, settings.concurrency)  # push services
        self.fcm = fcm  # None: FCM registrations' pushes fail (no service account set)

    async def tick(self, now: float | None = None) -> int:
        """Start an attempt for every due push there is room for; return how many started."""
        now = time.time() if now is None else now
        free = self.settings.concurrency - len(self.tasks)
        if free <= 0:
            return 0
        claimed = await self.queue.claim(free, now, self.settings.lease_seconds)
        for push in claimed:
            task = asyncio.create_task(self.attempt(push))
            self.tasks.add(task)
            task.add_done_callback(self._done)
        return len(claimed)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("push attempt failed to record: %r", task.exception())

    async def attempt(self, push: Claimed) -> None:
        """Send one attempt of a push and record its outcome (while the attempt holds its lease)."""
        now = time.time()
        sub = await self.subscriptions.get(push.player, push.subscription)
        if sub is None:
            await self.queue.finish(push, done=True)
            await stats.record(self.redis, None, "removed")
            return
        left = int(push.created + push.ttl - now)
        if left <= 0:
            await self.queue.finish(push, done=True)
            await stats.record(self.redis, None, "expired")
            return
        send = self.post_fcm if sub.kind == "fcm" else self.post
        status, retry_after, outcome = await send(sub, push, left)
        if outcome == "success":
            final, done = "sent", True
        elif outcome == "gone":
            await self.subscriptions.remove(push.player, sub.id)
            final, done = "removed", True
        elif outcome in ("refused", "http_error", "invalid") or push.attempt >= self.settings.attempts:
            final, done = "failed", True
        else:
            final, done = "retried", False
        wait = max(retry_delay(self.settings, push.attempt), min(retry_after, RETRY_AFTER_CAP))
        await self.queue.finish(push, done, time.time() + wait)
        await stats.record(self.redis, outcome, final)
        if final == "failed":
            log.warning("push %s to registration %s failed after %d attempts (%s%s)", push.id, sub.id,
                        push.attempt, outcome, f" {status}" if status else "")

    async def post(self, sub: Subscription, push: Claimed, ttl: int) -> tuple[int | None, float, str]:
        """POST one push: (HTTP status or None, Retry-After seconds, outcome)."""
        try:
            body = encrypt(sub, push.payload)
            headers = {"authorization": self.vapid.authorization(sub.endpoint), "ttl": str(ttl),
                       "urgency": push.urgency, "topic": push.topic, "content-encoding": "aes128gcm",
                       "content-type": "application/octet-stream", "user-agent": USER_AGENT}
            httpx.URL(sub.endpoint).raw_host.decode("ascii")
        except Exception as exc:  # keys or an endpoint pywebpush or py_vapid will not take: never retried
            log.warning("push %s cannot be encrypted or signed: %s", push.id, type(exc).__name__)
            return None, 0.0, "invalid"
        try:
            async with asyncio.timeout(self.settings.timeout_seconds):
                url, named, extensions = await outbound.pinned(sub.endpoint, self.allowed)
                response = await self.clients.get(sub.endpoint).post(url, content=body, headers={**headers, **named},
                                                                     extensions=extensions)
        except TimeoutError:
            return None, 0.0, "timeout"
        except destinations.Refused:
            return None, 0.0, "refused"
        except (OSError, httpx.HTTPError):
            return None, 0.0, "network"
        status = response.status_code
        retry_after = outbound.retry_after(response.headers.get("retry-after"))
        if 200 <= status < 300:
            return status, 0.0, "success"
        if status in (404, 410):
            return status, 0.0, "gone"
        if status == 429:
            return status, retry_after, "rate_limited"
        return status, retry_after, "server_error" if status >= 500 else "http_error"

    async def post_fcm(self, sub: Subscription, push: Claimed, ttl: int) -> tuple[int | None, float, str]:
        """Send one push to a native app through FCM HTTP v1: (HTTP status or None, Retry-After seconds, outcome).
        A 401 renews the access token once and sends again."""
        if self.fcm is None:
            return None, 0.0, "invalid"
        body = fcm.message(sub.token, push.payload, push.topic, ttl, push.urgency)
        try:
            async with asyncio.timeout(self.settings.timeout_seconds):
                for renew in (False, True):
                    token = await self.fcm.token(renew)
                    response = await self.client.post(self.fcm.url, json=body,
                                                      headers={"authorization": f"Bearer {token}"})
                    if response.status_code != 401:
                        break
        except TimeoutError:
            return None, 0.0, "timeout"
        except (OSError, httpx.HTTPError):
            return None, 0.0, "network"
        except Exception as exc:  # google-auth's refresh failed (the token endpoint refused or is away)
            log.warning("FCM access token not obtained: %s", type(exc).__name__)
            return None, 0.0, "network"
        status = response.status_code
        retry_after = outbound.retry_after(response.headers.get("retry-after"))
        if 200 <= status < 300:
            return status, 0.0, "success"
        if fcm.gone(status, response.content):
            return status, 0.0, "gone"
        if status == 429:
            return status, retry_after, "rate_limited"
        return status, retry_after, "server_error" if status >= 500 else "http_error"

    async def run(self, stop: threading.Event) -> None:
        """Tick every tick_seconds until stop is set; a failing tick (Redis away) is logged and retried."""
        try:
            await outbound.tick_until(stop, self.tick, self.settings.tick_seconds, self.tasks, log, "push sender")
        finally:
            await self.client.aclose()
            await self.clients.aclose()


def start(queue_url: str, matches_url: str, cluster: bool, queue: str, settings: PushSettings,
          vapid: Keys) -> tuple[threading.Thread, threading.Event]:
    """Run a push sender in a daemon thread of this process; set the returned event to stop it."""
    stop = threading.Event()

    def main() -> None:
        async def serve() -> None:
            redis = connections.async_client(queue_url, decode_responses=True)
            shared = not cluster and matches_url == queue_url
            matches = redis if shared else (
                connections.async_cluster_client(matches_url, decode_responses=True) if cluster
                else connections.async_client(matches_url, decode_responses=True))
            try:
                sender = Fcm(fcm.service_account_info(settings.fcm_service_account), settings.fcm_endpoint) \
                    if settings.fcm_service_account else None
                await Sender(redis, matches, settings, vapid, queue, sender).run(stop)
            finally:
                await redis.aclose()
                if matches is not redis:
                    await matches.aclose()

        asyncio.run(serve())

    thread = threading.Thread(target=main, name="push", daemon=True)
    thread.start()
    return thread, stop
