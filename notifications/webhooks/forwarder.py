"""The forwarder: hands every new event of the players' feeds (matches/feed.py) to the endpoints that take its type,
as deliveries.

The feed marks a player in keys.feed_pending after each event. A tick claims the marked players (moving each entry
to the end of a lease, so that two senders never forward one player at once) and, per player, reads the events
after keys.feed_forwarded (the last one handed on), makes their deliveries (deterministic ids: a re-run after a
crash makes none twice), then moves that cursor forward (only forward). The mark is dropped only if no event came
since the claim; a process killed mid-forward leaves it to come due when the lease ends.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from firebreak.matches import connections, feed, keys
from firebreak.matches.config import Settings
from firebreak.matches.feed import FeedEvent
from firebreak.matches.mine import DONE
from firebreak.matches.reconciler import CLAIM
from firebreak.notifications.webhooks.deliveries import Deliveries, NewDelivery
from firebreak.notifications.webhooks.endpoints import Endpoint, Endpoints
from firebreak.notifications.webhooks.sender import Forward
from firebreak.notifications.webhooks.settings import WebhookSettings

Also = Callable[[str, float], Awaitable[int]]  # another room's step per claimed player (push/forwarder.py)

BATCH = 100        # players one tick forwards at most
EVENTS = 200       # events read per round trip
LEASE = 60.0       # seconds a forwarder holds a player

# KEYS: the player's forwarded cursor; ARGV: the new cursor, time to live. Moves it forward only.
_ADVANCE = """
local function order(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local current = redis.call('GET', KEYS[1])
if current then
  local cms, cseq = order(current)
  local nms, nseq = order(ARGV[1])
  if cms and (nms < cms or (nms == cms and nseq <= cseq)) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[2]))
return 1
"""


def body(player: str, event: FeedEvent) -> str:
    """An event's webhook payload (Standard Webhooks' shape): type, timestamp (ISO 8601) and data, the player's id,
    the event's id (its feed cursor) and the event's public facts: ids and public facts only."""
    moment = datetime.fromtimestamp(event.at, tz=UTC).isoformat().replace("+00:00", "Z")
    return json.dumps({"type": event.type.value, "timestamp": moment,
                       "data": {"playerId": player, "eventId": event.id, **event.data}}, separators=(",", ":"))


class Forwarder:
    """Turns the marked players' new feed events into deliveries."""

    def __init__(self, matches: Any, queue: Any, queue_name: str, endpoints: Endpoints,
                 deliveries: Deliveries, also: Also | None = None) -> None:
        self.matches = matches  # the matches Redis (the feeds, in their players' slots)
        self.queue = queue      # the queue Redis (the marks, the deliveries)
        self.pending_key = keys.feed_pending(queue_name)
        self.endpoints = endpoints
        self.deliveries = deliveries
        self.also = also  # run for each claimed player too, under the same claim
        self._claim = connections.Script(queue, CLAIM)  # the pending set, claimed until a lease ends
        self._done = connections.Script(queue, DONE)  # a mark dropped unless an event came since the claim
        self._advance = connections.Script(matches, _ADVANCE)

    async def __call__(self, now: float) -> int:
        """Forward the marked players' new events; return how many deliveries were made."""
        lease = repr(now + LEASE)
        players = await self._claim(keys=[self.pending_key], args=[repr(now), BATCH, lease])
        if not players:
            return 0
        endpoints = await self.endpoints.all()
        made = 0
        for player in players:
            made += await self.player(str(player), endpoints, now)
            if self.also is not None:
                await self.also(str(player), now)
            await self._done(keys=[self.pending_key], args=[str(player), lease])
        return made

    async def player(self, player: str, endpoints: list[Endpoint], now: float) -> int:
        """Hand one player's events after its forwarded cursor to the endpoints; return the deliveries made."""
        cursor = await self.matches.get(keys.feed_forwarded(player)) or "0"
        made = 0
        while True:
            events = await feed.read(self.matches, player, str(cursor), EVENTS)
            if not events:
                return made
            made += await self.deliveries.create(
                [NewDelivery(endpoint.id, player, event.id, event.type.value, body(player, event))
                 for event in events for endpoint in endpoints if endpoint.wants(event.type.value)], now)
            cursor = events[-1].id
            await self._advance(keys=[keys.feed_forwarded(player)], args=[cursor, feed.FEED_TTL])


def forwarding(settings: Settings, webhooks: WebhookSettings, cluster: bool,
               also: Callable[[Any, Any], Also] | None = None) -> Callable[[Any], Forward]:
    """What the sender thread calls, on its own loop, to build its forwarding step over its queue client (also:
    builds, from the matches and queue clients, a step run for each claimed player too)."""
    def build(queue: Any) -> Forward:
        shared = not cluster and settings.queue_url == settings.redis_url
        if shared:
            matches = queue
        elif cluster:
            matches = connections.async_cluster_client(settings.redis_url, decode_responses=True)
        else:
            matches = connections.async_client(settings.redis_url, decode_responses=True)
        known = tuple(t.value for t in feed.FeedType)
        return Forwarder(matches, queue, settings.queue, Endpoints(queue, webhooks, known, settings.queue),
                         Deliveries(queue, webhooks, settings.queue), also(matches, queue) if also else None)

    return build
