"""A player's push registrations: the browsers' PushSubscriptions (endpoint, p256dh, auth), kept in one hash in the
player's slot. The endpoint is an attacker-supplied URL: it is checked like a webhook's (destinations.py) when it is
registered and again before every push."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives.asymmetric import ec

from firebreak.matches import feed
from firebreak.notifications.webhooks.destinations import Allowed, Refused, check_host
from firebreak.push import keys

MAX_ENDPOINT = 2000
MAX_TOKEN = 4096
FCM_PREFIX = "fcm:"
_TOKEN = re.compile(r"[A-Za-z0-9_:.-]{20,4096}\Z")


class PushError(ValueError):
    """A refused registration or preference change: what is wrong (nothing was stored)."""


@dataclass(frozen=True)
class Subscription:
    """One browser's registration: where its pushes go and the keys they are encrypted to."""

    id: str
    endpoint: str
    p256dh: str
    auth: str
    created: float
    kind: str = "webpush"  # or "fcm": a native app's device token, in endpoint as fcm:<token>

    @property
    def token(self) -> str:
        """An FCM registration's device token."""
        return self.endpoint.removeprefix(FCM_PREFIX)

    def to_json(self) -> dict[str, Any]:
        """Its public form (what the player who registered it sees): id, kind, endpoint (a device token's first
        characters only) and when."""
        shown = self.endpoint if self.kind == "webpush" else FCM_PREFIX + self.token[:8] + "..."
        return {"id": self.id, "kind": self.kind, "endpoint": shown, "created": self.created}

    def info(self) -> dict[str, Any]:
        """The subscription_info pywebpush encrypts to."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def subscription_id(endpoint: str) -> str:
    """The stable id of a registration: a digest of its endpoint (registering it again replaces it)."""
    return "ps_" + base64.b32encode(hashlib.sha256(endpoint.encode()).digest()[:15]).decode().lower()


def _decode(value: str, name: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value.strip() + "=" * (-len(value.strip()) % 4))
    except (binascii.Error, ValueError):
        raise PushError(f"keys.{name} is not base64url") from None


def check(endpoint: str, p256dh: str, auth: str, allowed: Allowed) -> None:
    """Raise PushError unless this is a browser's PushSubscription a push may go to: an http(s) endpoint whose host
    is not a forbidden address, a P-256 public key (65 bytes, on the curve) and a 16-byte auth secret."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise PushError(f"endpoint must be a URL of at most {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        httpx.URL(endpoint)  # what the sender will parse
        host = parts.hostname
    except (ValueError, httpx.InvalidURL):
        raise PushError("endpoint is not a URL") from None
    if parts.scheme not in ("https", "http") or not host or parts.username or parts.password:
        raise PushError("endpoint must be an https:// URL with a host")
    try:
        check_host(host, allowed)
    except Refused as refused:
        raise PushError(f"endpoint: {refused}") from None
    point = _decode(p256dh, "p256dh")
    if len(point) != 65 or point[0] != 4:
        raise PushError("keys.p256dh must be an uncompressed P-256 point (65 bytes, base64url)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise PushError("keys.p256dh is not a point of P-256") from None
    if len(_decode(auth, "auth")) != 16:
        raise PushError("keys.auth must be 16 bytes (base64url)")


def check_token(token: str) -> None:
    """Raise PushError unless this looks like an FCM registration token."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        raise PushError("token must be an FCM registration token (20 to 4096 characters: letters, digits, '_', ':', "
                        "'.', '-')")


# KEYS: the player's registrations; ARGV: id, record, most kept. Adds (or replaces) one, dropping the oldest beyond.
_ADD = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local all = redis.call('HGETALL', KEYS[1])
local count = #all / 2
if count <= tonumber(ARGV[3]) then return 0 end
local rows = {}
for i = 1, #all, 2 do rows[#rows + 1] = {all[i], cjson.decode(all[i + 1]).created} end
table.sort(rows, function(a, b) return a[2] < b[2] end)
local dropped = 0
for i = 1, count - tonumber(ARGV[3]) do
  if rows[i][1] ~= ARGV[1] then redis.call('HDEL', KEYS[1], rows[i][1]); dropped = dropped + 1 end
end
return dropped
"""


class Subscriptions:
    """The players' registrations over the matches Redis."""

    def __init__(self, redis: Any, allowed: Allowed, per_player: int) -> None:
        self.redis = redis
        self.allowed = allowed
        self.per_player = per_player

    async def add(self, player: str, endpoint: str, p256dh: str, auth: str) -> Subscription:
        """Register a browser's subscription for a player (PushError: refused, nothing stored)."""
        check(endpoint, p256dh, auth, self.allowed)
        sub = Subscription(subscription_id(endpoint), endpoint, p256dh.strip(), auth.strip(), time.time())
        record = json.dumps({"endpoint": sub.endpoint, "p256dh": sub.p256dh, "auth": sub.auth,
                             "created": sub.created}, separators=(",", ":"))
        await self.redis.eval(_ADD, 1, keys.subscriptions(player), sub.id, record, self.per_player)
        # what happened before the first registration is not pushed: the cursor starts at the newest event
        await self.redis.set(keys.pushed(player), await feed.latest(self.redis, player), nx=True, ex=feed.FEED_TTL)
        return sub

    async def add_fcm(self, player: str, token: str) -> Subscription:
        """Register a native app's FCM device token for a player (PushError: refused, nothing stored)."""
        check_token(token)
        endpoint = FCM_PREFIX + token
        sub = Subscription(subscription_id(endpoint), endpoint, "", "", time.time(), "fcm")
        record = json.dumps({"endpoint": endpoint, "p256dh": "", "auth": "", "created": sub.created, "kind": "fcm"},
                            separators=(",", ":"))
        await self.redis.eval(_ADD, 1, keys.subscriptions(player), sub.id, record, self.per_player)
        await self.redis.set(keys.pushed(player), await feed.latest(self.redis, player), nx=True, ex=feed.FEED_TTL)
        return sub

    async def all(self, player: str) -> list[Subscription]:
        """The player's registrations, oldest first."""
        rows = await self.redis.hgetall(keys.subscriptions(player))
        subs = [_of(sub_id, raw) for sub_id, raw in rows.items()]
        return sorted(subs, key=lambda s: s.created)

    async def get(self, player: str, sub_id: str) -> Subscription | None:
        """One of the player's registrations, or None."""
        raw = await self.redis.hget(keys.subscriptions(player), sub_id)
        return _of(sub_id, raw) if raw else None

    async def remove(self, player: str, sub_id: str) -> bool:
        """Remove one registration (by id, or by its endpoint URL); whether it existed."""
        if sub_id.startswith(("https://", "http://", FCM_PREFIX)):
            sub_id = subscription_id(sub_id)
        return bool(await self.redis.hdel(keys.subscriptions(player), sub_id))


def _of(sub_id: str, raw: str) -> Subscription:
    data = json.loads(raw)
    return Subscription(sub_id, data["endpoint"], data["p256dh"], data["auth"], float(data["created"]),
                        data.get("kind", "webpush"))


async def delete_all_for_player(redis: Any, player_id: str) -> None:
    """Forget everything push keeps about a player (account deletion): registrations, preferences, cursor."""
    await redis.delete(keys.subscriptions(player_id))
    await redis.delete(keys.preferences(player_id))
    await redis.delete(keys.pushed(player_id))
