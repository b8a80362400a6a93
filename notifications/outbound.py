"""What every request the service sends to an address someone registered shares (webhook deliveries, Web Push):
the address checked before each attempt and connected to as checked, one HTTP client per origin, the Retry-After
an answer asks for, and the senders' tick loop."""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import logging
import math
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from firebreak.notifications.webhooks import destinations

_PORTS = {"http": 80, "https": 443}


async def pinned(target: str, allowed: destinations.Allowed) -> tuple[httpx.URL, dict[str, str], dict[str, Any]]:
    """Where to send a request for the URL target: every address its host resolves to checked (Refused; OSError when
    it does not resolve), then (the URL naming the address checked, the headers that name the host, the extensions
    that give TLS the host's name). A host allowed by name is sent to as named."""
    url = httpx.URL(target)
    host = url.raw_host.decode("ascii")
    address = await destinations.vetted(host, url.port or _PORTS[url.scheme], allowed)
    if address is None:
        return url, {}, {}
    return url.copy_with(host=address), {"host": url.netloc.decode("ascii")}, {"sni_hostname": host}


def origin(target: str) -> str:
    """The origin (scheme, host, port) of a URL: what a client of OriginClients is kept by."""
    url = httpx.URL(target)
    return f"{url.scheme}://{url.netloc.decode('ascii')}"


class OriginClients:
    """One HTTP client per origin: a connection made to the address checked for one host is never reused for another
    host at the same address (the pool of a shared client is keyed by the address)."""

    def __init__(self, timeout: float, concurrency: int) -> None:
        self.timeout = timeout
        self.concurrency = concurrency
        self.clients: dict[str, httpx.AsyncClient] = {}

    def get(self, target: str) -> httpx.AsyncClient:
        """The client for the origin of the URL target (made on first use)."""
        key = origin(target)
        client = self.clients.get(key)
        if client is None:
            client = self.clients[key] = httpx.AsyncClient(
                follow_redirects=False, timeout=self.timeout,
                limits=httpx.Limits(max_connections=self.concurrency * 2, max_keepalive_connections=self.concurrency))
        return client

    async def aclose(self) -> None:
        """Close every client."""
        for client in self.clients.values():
            await client.aclose()
        self.clients.clear()


def retry_after(value: str | None, now: float | None = None) -> float:
    """The seconds a Retry-After header asks for, as delay-seconds or an HTTP date (RFC 9110 10.2.3); 0 for none
    or a value that is neither."""
    if not value:
        return 0.0
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return seconds if math.isfinite(seconds) and seconds > 0 else 0.0
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return 0.0
    if when.tzinfo is None:
        return 0.0
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


async def tick_until(stop: threading.Event, tick: Callable[[], Awaitable[object]], seconds: float,
                     tasks: set[asyncio.Task[None]], log: logging.Logger, what: str) -> None:
    """Call tick every `seconds` until stop is set (a failing tick, Redis away, is logged and retried); then cancel
    the attempts still in tasks (they come due again when their lease ends) and wait for them."""
    try:
        while not stop.is_set():
            try:
                await tick()
            except Exception:
                log.exception("%s tick failed; retrying in %.1f s", what, seconds)
            await asyncio.sleep(seconds)
    finally:
        for task in list(tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
