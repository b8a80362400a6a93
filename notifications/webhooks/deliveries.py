"""Deliveries: one per (event, endpoint), stored on the queue Redis, sent at least once.

A delivery's id is derived from its endpoint, player and event (the same on every retry: it is the webhook-id),
so forwarding an event twice makes nothing new. Each endpoint has a due set (delivery id -> when the next
attempt is due), leased as notifications/leases.py tells (the pushes' queue too): an attempt records its outcome
only while it still holds its lease, and a sender killed mid-send leaves the entry to come due when the lease ends,
and the delivery is sent again. Once delivered or given up (after the last attempt) a delivery is kept for
WebhookSettings.kept_seconds, the failed ones also in an index of their own, for the operator to look at and
redeliver.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firebreak.matches import connections, keys
from firebreak.notifications import leases
from firebreak.notifications.leases import Leases
from firebreak.notifications.webhooks.settings import WebhookSettings

BATCH = 500          # entries one script call goes through at most (abandon, prune)
SCAN_LIMIT = 5000    # index entries one listing call reads at most while filtering
DUE_GRACE = 2 * 24 * 3600  # a not yet finished delivery lives this long past the kept time


class Status(StrEnum):
    """Where a delivery is."""

    PENDING = "pending"      # waiting for its next attempt
    SENDING = "sending"      # an attempt holds it (until its lease ends)
    SUCCEEDED = "succeeded"  # the endpoint answered 2xx
    FAILED = "failed"        # every attempt failed (or its endpoint was removed): kept, may be redelivered


def delivery_id(endpoint_id: str, player_id: str, event_id: str) -> str:
    """The stable id of an event's delivery to an endpoint (the webhook-id of every attempt)."""
    digest = hashlib.sha256(f"{endpoint_id}\n{player_id}\n{event_id}".encode()).digest()[:18]
    return f"msg_{endpoint_id}_{base64.b32encode(digest).decode().lower().rstrip('=')}"


def endpoint_of(delivery: str) -> str | None:
    """The endpoint id a delivery id names (None: not a delivery id)."""
    parts = delivery.split("_")
    return parts[1] if len(parts) == 3 and parts[0] == "msg" and parts[1] else None


def retry_delay(settings: WebhookSettings, failures: int, rng: random.Random | None = None) -> float:
    """The wait after the failures-th failed attempt: retry_seconds doubling per failure up to retry_cap_seconds,
    times a jitter of 0.8 to 1.2 (so that an endpoint back from an outage is not hit by every delivery at once)."""
    return leases.backoff(settings.retry_seconds, settings.retry_cap_seconds, failures, rng)


@dataclass(frozen=True)
class NewDelivery:
    """What the forwarder hands over: an event's delivery to one endpoint."""

    endpoint: str
    player: str
    event: str
    type: str
    payload: str

    @property
    def id(self) -> str:
        """The delivery's stable id."""
        return delivery_id(self.endpoint, self.player, self.event)


@dataclass(frozen=True)
class Claimed:
    """A delivery an attempt holds until `lease`."""

    id: str
    endpoint: str
    attempt: int
    payload: str
    lease: str


@dataclass(frozen=True)
class Delivery:
    """A delivery as stored."""

    id: str
    endpoint: str
    player: str
    event: str
    type: str
    payload: str
    status: Status
    attempts: int
    created: float
    next_attempt: float | None
    last_attempt: float | None
    last_status: int | None
    last_error: str
    latency: float | None
    finished: float | None

    @classmethod
    def of(cls, raw: dict[str, str]) -> Delivery:
        """A delivery from its hash."""
        def num(name: str) -> float | None:
            value = raw.get(name, "")
            return float(value) if value else None

        status = raw.get("status", Status.PENDING)
        code = raw.get("lastStatus", "")
        return cls(raw["id"], raw["endpoint"], raw["player"], raw["event"], raw["type"], raw["payload"],
                   Status(status), int(raw.get("attempts", 0)), float(raw["created"]),
                   num("next") if status in (Status.PENDING, Status.SENDING) else None, num("lastAt"),
                   int(code) if code else None, raw.get("lastError", ""), num("latency"), num("finished"))

    def to_json(self) -> dict[str, Any]:
        """Its public form (the admin API's): ids, status, attempts, times and the payload sent."""
        return {"id": self.id, "endpointId": self.endpoint, "playerId": self.player, "eventId": self.event,
                "type": self.type, "status": self.status.value, "attempts": self.attempts,
                "created": self.created, "nextAttempt": self.next_attempt, "lastAttempt": self.last_attempt,
                "lastStatus": self.last_status, "lastError": self.last_error or None,
                "latencySeconds": self.latency, "finished": self.finished, "payload": json.loads(self.payload)}


@dataclass(frozen=True)
class Page:
    """One page of a listing, newest first."""

    items: list[Delivery]
    end_cursor: str | None
    has_next: bool


class CursorError(ValueError):
    """The after argument is not a cursor of this listing."""


# ARGV: now, time to live, delivery key prefix, due prefix, endpoint index prefix, then six per delivery (id,
# endpoint, player, event, type, payload); KEYS: the index of every delivery. Makes those that do not exist.
_CREATE = """
local now, ttl = ARGV[1], tonumber(ARGV[2])
local made = 0
for i = 6, #ARGV, 6 do
  local id, ep = ARGV[i], ARGV[i + 1]
  local key = ARGV[3] .. id
  if redis.call('EXISTS', key) == 0 then
    redis.call('HSET', key, 'id', id, 'endpoint', ep, 'player', ARGV[i + 2], 'event', ARGV[i + 3],
               'type', ARGV[i + 4], 'payload', ARGV[i + 5], 'status', 'pending', 'attempts', 0, 'created', now,
               'next', now)
    redis.call('EXPIRE', key, ttl)
    redis.call('ZADD', ARGV[4] .. ep, now, id)
    redis.call('ZADD', KEYS[1], now, id)
    redis.call('ZADD', ARGV[5] .. ep, now, id)
    made = made + 1
  end
end
return made
"""

# What a claim returns of each delivery, marked sending (see notifications/leases.py).
_CLAIMED = """
    redis.call('HSET', key, 'status', 'sending', 'lastAt', ARGV[1], 'next', ARGV[3])
    out[#out + 1] = id
    out[#out + 1] = attempt
    out[#out + 1] = redis.call('HGET', key, 'payload')"""

# KEYS: (the endpoint's due set, the delivery), the failed index; ARGV: (id, lease), outcome (retry, succeeded,
# failed), next attempt, now, HTTP status, error, latency, kept seconds.
_OUTCOME = """
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
redis.call('HSET', KEYS[2], 'lastStatus', ARGV[6], 'lastError', ARGV[7], 'latency', ARGV[8])
if ARGV[3] == 'retry' then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
  redis.call('HSET', KEYS[2], 'status', 'pending', 'next', ARGV[4])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HSET', KEYS[2], 'status', ARGV[3], 'finished', ARGV[5])
  redis.call('HDEL', KEYS[2], 'next')
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[9]))
  if ARGV[3] == 'failed' then redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1]) end
end
return 1
"""

# KEYS: the delivery, its endpoint's due set, the failed index; ARGV: id, now, time to live.
_REDELIVER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'status', 'pending', 'attempts', 0, 'next', ARGV[2])
redis.call('HDEL', KEYS[1], 'finished')
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
"""

# KEYS: a removed endpoint's due set, the failed index; ARGV: now, batch, delivery prefix, kept seconds, error.
_ABANDON = """
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
for _, id in ipairs(ids) do
  local key = ARGV[3] .. id
  redis.call('ZREM', KEYS[1], id)
  if redis.call('EXISTS', key) == 1 then
    redis.call('HSET', key, 'status', 'failed', 'finished', ARGV[1], 'lastError', ARGV[5])
    redis.call('HDEL', key, 'next')
    redis.call('EXPIRE', key, tonumber(ARGV[4]))
    redis.call('ZADD', KEYS[2], ARGV[1], id)
  end
end
return #ids
"""

# KEYS: an index; ARGV: before, batch, delivery prefix. Drop the index's old entries whose delivery is gone.
_PRUNE = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local dropped = 0
for _, id in ipairs(ids) do
  if redis.call('EXISTS', ARGV[3] .. id) == 0 then
    redis.call('ZREM', KEYS[1], id)
    dropped = dropped + 1
  end
end
return dropped
"""


class Deliveries:
    """The deliveries over the queue Redis (an asyncio client with decoded replies)."""

    def __init__(self, redis: Any, settings: WebhookSettings, queue: str) -> None:
        self.redis = redis
        self.settings = settings
        self.queue = queue  # the deployment's queue: each has webhooks of its own
        self._create = connections.Script(redis, _CREATE)
        self.leases = Leases(redis, _CLAIMED, _OUTCOME)
        self._redeliver = connections.Script(redis, _REDELIVER)
        self._abandon = connections.Script(redis, _ABANDON)
        self._prune = connections.Script(redis, _PRUNE)

    @property
    def _ttl(self) -> int:
        return self.settings.kept_seconds + DUE_GRACE

    async def create(self, deliveries: list[NewDelivery], now: float) -> int:
        """Store the deliveries not stored yet, each due now; return how many were new."""
        if not deliveries:
            return 0
        args: list[Any] = [repr(now), self._ttl, keys.webhook_delivery(self.queue, ""),
                           keys.webhook_due(self.queue, ""), keys.webhook_endpoint_deliveries(self.queue, "")]
        for d in deliveries:
            args += [d.id, d.endpoint, d.player, d.event, d.type, d.payload]
        return int(await self._create(keys=[keys.webhook_deliveries(self.queue)], args=args))

    async def claim(self, endpoint_id: str, count: int, now: float) -> list[Claimed]:
        """Claim up to `count` of an endpoint's due deliveries for one attempt each, until now + lease_seconds."""
        lease, raw = await self.leases.claim(keys.webhook_due(self.queue, endpoint_id),
                                             keys.webhook_delivery(self.queue, ""), count, now,
                                             self.settings.lease_seconds)
        return [Claimed(str(raw[i]), endpoint_id, int(raw[i + 1]), str(raw[i + 2]), lease)
                for i in range(0, len(raw), 3)]

    async def finish(self, claimed: Claimed, outcome: str, now: float, next_at: float = 0.0,
                     status: int | None = None, error: str = "", latency: float = 0.0) -> bool:
        """Record an attempt's outcome ("retry" at next_at, "succeeded" or "failed") if it still holds its lease;
        return whether it did."""
        return await self.leases.finish(
            keys.webhook_due(self.queue, claimed.endpoint), keys.webhook_delivery(self.queue, claimed.id), claimed.id,
            claimed.lease, more_keys=(keys.webhook_failed(self.queue),),
            args=(outcome, repr(next_at), repr(now), "" if status is None else status, error[:300], repr(latency),
                  self.settings.kept_seconds))

    async def get(self, delivery: str) -> Delivery | None:
        """One delivery, or None (never made, or no longer kept)."""
        raw = await self.redis.hgetall(keys.webhook_delivery(self.queue, delivery))
        return Delivery.of(raw) if raw else None

    async def redeliver(self, delivery: str, now: float) -> Delivery | None:
        """Send a delivery again from its first attempt, now (whatever its status); None if it is not kept."""
        endpoint = endpoint_of(delivery)
        if endpoint is None:
            return None
        done = await self._redeliver(
            keys=[keys.webhook_delivery(self.queue, delivery), keys.webhook_due(self.queue, endpoint),
                  keys.webhook_failed(self.queue)],
            args=[delivery, repr(now), self._ttl])
        return await self.get(delivery) if done else None

    async def abandon(self, endpoint_id: str, now: float) -> int:
        """Mark failed every delivery a removed endpoint still owed; return how many."""
        total = 0
        while True:
            count = int(await self._abandon(
                keys=[keys.webhook_due(self.queue, endpoint_id), keys.webhook_failed(self.queue)],
                args=[repr(now), BATCH, keys.webhook_delivery(self.queue, ""), self.settings.kept_seconds,
                      "the endpoint was removed"]))
            total += count
            if count < BATCH:
                return total

    async def pending(self, endpoint_ids: list[str]) -> int:
        """How many deliveries of these endpoints wait for an attempt or are being attempted."""
        pipe = self.redis.pipeline(transaction=False)
        for endpoint in endpoint_ids:
            pipe.zcard(keys.webhook_due(self.queue, endpoint))
        return sum(int(n) for n in await pipe.execute())

    async def prune(self, endpoint_ids: list[str], now: float) -> int:
        """Drop the index entries of deliveries no longer kept; return how many."""
        before = repr(now - self.settings.kept_seconds)
        dropped = 0
        for index in [keys.webhook_deliveries(self.queue), keys.webhook_failed(self.queue),
                      *(keys.webhook_endpoint_deliveries(self.queue, e) for e in endpoint_ids)]:
            dropped += int(await self._prune(keys=[index], args=[before, BATCH, keys.webhook_delivery(self.queue, "")]))
        return dropped

    async def listing(self, first: int, after: str | None = None, endpoint: str | None = None,
                      status: Status | None = None, player: str | None = None,
                      event_type: str | None = None) -> Page:
        """A page of the kept deliveries, newest first, filtered (CursorError for a bad `after`)."""
        if status is Status.FAILED:
            index = keys.webhook_failed(self.queue)
        elif endpoint is not None:
            index = keys.webhook_endpoint_deliveries(self.queue, endpoint)
        else:
            index = keys.webhook_deliveries(self.queue)
        top, top_id = _cursor(after) if after else (None, None)
        found: list[tuple[Delivery, tuple[float, str]]] = []
        scanned = 0
        size = first + 50
        while len(found) <= first and scanned < SCAN_LIMIT:
            fetched = await self.redis.zrevrangebyscore(index, "+inf" if top is None else repr(top), "-inf",
                                                        start=0, num=size, withscores=True)
            # equal scores come in descending id order: skip those at or above the cursor's id
            chunk = [(m, float(s)) for m, s in fetched
                     if top is None or s < top or (top_id is not None and m < top_id)]
            if not chunk:
                if len(fetched) < size:
                    break
                size *= 2  # a run of equal scores longer than a chunk: read further into it
                continue
            pipe = self.redis.pipeline(transaction=False)
            for member, _ in chunk:
                pipe.hgetall(keys.webhook_delivery(self.queue, member))
            for (member, score), raw in zip(chunk, await pipe.execute(), strict=True):
                scanned += 1
                top, top_id = score, member
                if raw and _matches(Delivery.of(raw), endpoint, status, player, event_type):
                    found.append((Delivery.of(raw), (score, member)))
                    if len(found) > first:
                        break
        items = [delivery for delivery, _ in found[:first]]
        if len(found) > first:
            return Page(items, _encode(*found[first - 1][1]), True)
        if scanned >= SCAN_LIMIT and top is not None and top_id is not None:  # more to look through
            return Page(items, _encode(top, top_id), True)
        return Page(items, _encode(*found[-1][1]) if found else None, False)


def _matches(delivery: Delivery, endpoint: str | None, status: Status | None, player: str | None,
             event_type: str | None) -> bool:
    return ((endpoint is None or delivery.endpoint == endpoint) and (status is None or delivery.status is status)
            and (player is None or delivery.player == player)
            and (event_type is None or delivery.type == event_type))


def _encode(score: float, member: str) -> str:
    """The cursor after an index entry (its score and id)."""
    return base64.urlsafe_b64encode(json.dumps([score, member]).encode()).decode()


def _cursor(text: str) -> tuple[float, str]:
    try:
        score, member = json.loads(base64.urlsafe_b64decode(text.encode()))
        return float(score), str(member)
    except (ValueError, TypeError):
        raise CursorError("not a cursor of this listing") from None
