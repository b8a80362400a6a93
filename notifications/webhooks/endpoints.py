"""The endpoints deliveries go to: the settings' one (FIREBREAK_WEBHOOK_URL, id "default", every event type) and
those the operator adds through the admin API, kept in one hash on the queue Redis with their event types and
secrets (a signing secret must be read back to sign: it is the HMAC key; it is shown once, at creation or
rotation, and never listed)."""

from __future__ import annotations

import json
import secrets as random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from firebreak.matches import connections, keys
from firebreak.notifications.webhooks.destinations import Allowed, Refused, check_host
from firebreak.notifications.webhooks.settings import WebhookSettings
from firebreak.notifications.webhooks.signing import new_secret

DEFAULT_ID = "default"   # the settings' endpoint
MAX_ENDPOINTS = 100
MAX_URL = 2000
MAX_DESCRIPTION = 200


# KEYS: the endpoints hash; ARGV: id, record. Replace an existing endpoint's record only.
_REPLACE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class EndpointError(ValueError):
    """A refused endpoint change: what is wrong (never a secret)."""

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing  # no endpoint has that id


@dataclass(frozen=True)
class Endpoint:
    """Where deliveries go, which event types it takes (empty: every type) and its secrets (newest first)."""

    id: str
    url: str
    types: tuple[str, ...] = ()
    description: str = ""
    created: float = 0.0
    secrets: tuple[str, ...] = field(default=(), repr=False)

    @property
    def from_settings(self) -> bool:
        """Whether it is the settings' endpoint (the admin API cannot change it)."""
        return self.id == DEFAULT_ID

    def wants(self, event_type: str) -> bool:
        """Whether it takes events of this type."""
        return not self.types or event_type in self.types

    def to_record(self) -> str:
        """Its stored JSON."""
        return json.dumps({"id": self.id, "url": self.url, "types": list(self.types),
                           "description": self.description, "created": self.created,
                           "secrets": list(self.secrets)})

    @classmethod
    def of_record(cls, text: str) -> Endpoint:
        """An endpoint from its stored JSON."""
        raw: dict[str, Any] = json.loads(text)
        return cls(raw["id"], raw["url"], tuple(raw.get("types", ())), raw.get("description", ""),
                   float(raw.get("created", 0.0)), tuple(raw.get("secrets", ())))


def check_url(url: str) -> str:
    """The URL if deliveries can go there (http or https, a host, no credentials in it); else EndpointError."""
    url = url.strip()
    if len(url) > MAX_URL:
        raise EndpointError(f"the URL is longer than {MAX_URL} characters")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise EndpointError("the URL is not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise EndpointError("the URL must be http:// or https:// with a host")
    if parts.username or parts.password:
        raise EndpointError("the URL must not carry credentials (deliveries are signed instead)")
    return url


def check_destination(url: str, allowed: Allowed) -> str:
    """The URL if its host is not by itself an address deliveries may not reach (destinations.check_host); else
    EndpointError."""
    try:
        check_host(urlsplit(url).hostname or "", allowed)
    except Refused as refused:
        raise EndpointError(str(refused)) from None
    return url


def check_types(types: Iterable[str], known: Iterable[str]) -> tuple[str, ...]:
    """The event types, each one of `known`, without repeats (empty: every type); else EndpointError."""
    allowed = set(known)
    chosen = tuple(dict.fromkeys(types))
    unknown = [t for t in chosen if t not in allowed]
    if unknown:
        raise EndpointError(f"unknown event types: {', '.join(sorted(unknown))[:200]} (known: "
                            f"{', '.join(sorted(allowed))})")
    return chosen


class Endpoints:
    """The endpoint registry over the queue Redis (an asyncio client with decoded replies)."""

    def __init__(self, redis: Any, settings: WebhookSettings, known_types: Iterable[str], queue: str) -> None:
        self.redis = redis
        self.key = keys.webhook_endpoints(queue)  # the deployment's queue: each has endpoints of its own
        self.settings = settings
        self.known_types = tuple(known_types)

    def default(self) -> Endpoint | None:
        """The settings' endpoint, if FIREBREAK_WEBHOOK_URL is set."""
        if not self.settings.url:
            return None
        return Endpoint(DEFAULT_ID, self.settings.url, (), "FIREBREAK_WEBHOOK_URL", 0.0, self.settings.secrets)

    async def all(self) -> list[Endpoint]:
        """Every endpoint: the settings' one first, then the added ones oldest first."""
        stored = [Endpoint.of_record(text) for text in (await self.redis.hgetall(self.key)).values()]
        default = self.default()
        return ([default] if default else []) + sorted(stored, key=lambda e: (e.created, e.id))

    async def get(self, endpoint_id: str) -> Endpoint | None:
        """One endpoint by id, or None."""
        if endpoint_id == DEFAULT_ID:
            return self.default()
        text = await self.redis.hget(self.key, endpoint_id)
        return None if text is None else Endpoint.of_record(text)

    async def create(self, url: str, types: Iterable[str] = (), description: str = "",
                     secret: str | None = None) -> Endpoint:
        """Add an endpoint (its secret: a fresh one unless given); EndpointError for bad input (nothing stored)."""
        description = description.strip()
        if len(description) > MAX_DESCRIPTION or not description.isprintable():
            raise EndpointError(f"the description must be at most {MAX_DESCRIPTION} printable characters")
        endpoint = Endpoint("ep" + random.token_hex(8), check_destination(check_url(url), self.settings.allowed),
                            check_types(types, self.known_types),
                            description, time.time(), (secret or new_secret(),))
        if await self.redis.hlen(self.key) >= MAX_ENDPOINTS:
            raise EndpointError(f"at most {MAX_ENDPOINTS} endpoints may be registered")
        await self.redis.hset(self.key, endpoint.id, endpoint.to_record())
        return endpoint

    async def rotate(self, endpoint_id: str, keep_previous: bool = True) -> tuple[Endpoint, str]:
        """Give an added endpoint a fresh secret (the newest), keeping the previous one beside it unless told not
        to (deliveries are signed with both until the next rotation); return it and the new secret."""
        endpoint = await self._added(endpoint_id)
        secret = new_secret()
        kept = endpoint.secrets[:1] if keep_previous else ()
        rotated = Endpoint(endpoint.id, endpoint.url, endpoint.types, endpoint.description, endpoint.created,
                           (secret, *kept))
        # only while it is still there: a rotation racing a removal never brings the endpoint back
        if not await connections.Script(self.redis, _REPLACE)(keys=[self.key],
                                                              args=[endpoint.id, rotated.to_record()]):
            raise EndpointError("no webhook endpoint has this id", missing=True)
        return rotated, secret

    async def delete(self, endpoint_id: str) -> Endpoint:
        """Remove an added endpoint (its deliveries not yet done are marked failed: see Deliveries.abandon)."""
        endpoint = await self._added(endpoint_id)
        if not await self.redis.hdel(self.key, endpoint_id):
            raise EndpointError("no webhook endpoint has this id", missing=True)
        return endpoint

    async def _added(self, endpoint_id: str) -> Endpoint:
        if endpoint_id == DEFAULT_ID:
            raise EndpointError("the settings' endpoint (FIREBREAK_WEBHOOK_URL) is changed in the settings")
        endpoint = await self.get(endpoint_id)
        if endpoint is None:
            raise EndpointError("no webhook endpoint has this id", missing=True)
        return endpoint
