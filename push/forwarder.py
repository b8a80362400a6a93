"""Turns a player's new feed events into pushes, one per registration of the player: called by the webhooks'
forwarder for each player it claimed (notifications/webhooks/forwarder.py holds the player's lease meanwhile), with
a cursor of its own (keys.pushed) so that pushes and webhooks never wait on each other.

An event is pushed when its kind is pushed (message.KINDS), the player has it on (preferences), it is younger than
its TTL, and the player does not have its match open right now (keys.watching: set with a short TTL by the
player's open match streams). Push ids are derived from the registration and the event: a re-run after a crash
makes none twice."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from firebreak.matches import feed
from firebreak.players import keys as player_keys
from firebreak.push import keys, preferences
from firebreak.push.message import message
from firebreak.push.queue import NewPush, Queue
from firebreak.push.settings import PushSettings
from firebreak.push.subscriptions import Subscriptions
from firebreak.push.watching import watched

EVENTS = 200  # events read per round trip


class PushForwarder:
    """Makes the pushes of the players' new feed events."""

    def __init__(self, matches: Any, queue: Any, queue_name: str, subscriptions: Subscriptions) -> None:
        self.matches = matches
        self.queue = Queue(queue, queue_name)
        self.subscriptions = subscriptions

    async def __call__(self, player: str, now: float | None = None) -> int:
        """Make the pushes of one player's events after its pushed cursor; return how many were made."""
        now = time.time() if now is None else now
        subs = await self.subscriptions.all(player)
        if not subs:  # nobody to push to: what happened so far is not pushed later
            await self.matches.set(keys.pushed(player), await feed.latest(self.matches, player), ex=feed.FEED_TTL)
            return 0
        wants = await preferences.read(self.matches, player)
        locale = str(await self.matches.hget(player_keys.player(player), "locale") or "")  # what the phone says
        cursor = str(await self.matches.get(keys.pushed(player)) or "0")
        made = 0
        while True:
            events = await feed.read(self.matches, player, cursor, EVENTS)
            if not events:
                return made
            pushes = []
            for event in events:
                msg = message(player, event, locale)
                if msg is None or not wants.get(event.type.value, False) or event.at + msg.ttl < now:
                    continue
                match = event.data.get("matchId")
                if match and await watched(self.matches, player, str(match)):
                    continue
                pushes += [NewPush(player, sub.id, event.id, msg) for sub in subs]
            made += await self.queue.create(pushes, now)
            cursor = events[-1].id
            await self.matches.set(keys.pushed(player), cursor, ex=feed.FEED_TTL)


def pushing(queue_name: str, settings: PushSettings) -> Callable[[Any, Any], Callable[[str, float], Awaitable[int]]]:
    """What the webhooks' forwarder calls to build the push step over its matches and queue clients."""
    def build(matches: Any, queue: Any) -> Callable[[str, float], Awaitable[int]]:
        return PushForwarder(matches, queue, queue_name,
                             Subscriptions(matches, settings.allowed, settings.per_player)).__call__

    return build
