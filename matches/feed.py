"""A player's own event stream (the "feed"): what happened to them across their matches, for apps and push.

One Redis Stream per player (keys.feed, in the player's slot), trimmed to the newest FEED_KEPT entries and kept
FEED_TTL seconds after its last event. An entry's id is the event's id and the resume cursor: a reader that gives
the id of the last event it saw gets every later event once, in order (no gap, no duplicate), as long as the
cursor is not older than the oldest entry kept.

Events carry ids and public facts only (never a view, a hand, an objective or a token): a receiver fetches what
its player may see with the player's own credential. The match events (yourTurn, matchStarted, matchEnded,
seatTakenOver) are written by the players' index script (matches/mine.py) in the same atomic step as the
player's index row, once per transition of that row (yourTurn: once per turn the match hands the player,
matches/turns.py); the others (invited, the rematch offer's, seekMatched, the friends' (social/friends.py))
through
emit(), whose dedupe key makes a retry write nothing new.

After an event is written, the player is put in the queue Redis's keys.feed_pending set, from which the webhooks'
forwarder (notifications/) picks the players to look at.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firebreak.matches import connections, keys
from firebreak.matches.store import MatchStore

FEED_KEPT = 1000                # events a player's stream keeps (the oldest go first)
FEED_TTL = 30 * 24 * 3600       # seconds a player's stream is kept after its last event
SEEN_TTL = 7 * 24 * 3600        # seconds an emit's dedupe key is remembered after the player's last emit


class FeedType(StrEnum):
    """What happened to the player."""

    YOUR_TURN = "yourTurn"            # a match now waits for the player's decision
    MATCH_STARTED = "matchStarted"    # a match the player sits in started
    MATCH_ENDED = "matchEnded"        # a match the player sits in ended (any reason)
    SEAT_TAKEN_OVER = "seatTakenOver"  # the player's clock ran out: the service's bot plays their seat
    INVITED = "invited"               # another player invited them to a match
    REMATCH_OFFERED = "rematchOffered"  # another person of a match they played offers a rematch (answer it)
    REMATCH_ACCEPTED = "rematchAccepted"  # another person accepted the standing rematch offer
    REMATCH_DECLINED = "rematchDeclined"  # another person declined the rematch offer: it is over
    REMATCH_EXPIRED = "rematchExpired"  # the rematch offer expired unanswered: it is over
    REMATCH_STARTED = "rematchStarted"  # every person accepted: the rematch exists (and holds their seat)
    SEEK_MATCHED = "seekMatched"      # their seek found a table: the match has started
    FRIEND_REQUESTED = "friendRequested"  # another player asks to be their friend (answer it)
    FRIEND_ACCEPTED = "friendAccepted"  # a player accepted their friend request: they are friends now


@dataclass(frozen=True)
class FeedEvent:
    """One event of a player's feed: its id (the resume cursor), type, time, and public facts."""

    id: str
    type: FeedType
    at: float
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The event as clients receive it: {id, type, at, ...facts}."""
        return {"id": self.id, "type": self.type.value, "at": self.at, **self.data}

    @classmethod
    def parse(cls, entry_id: str, fields: dict[str, str]) -> FeedEvent:
        """An event from its stream entry."""
        raw = json.loads(fields["e"])
        kind = FeedType(raw.pop("type"))
        at = float(raw.pop("at"))
        return cls(entry_id, kind, at, raw)


def payload(kind: FeedType, data: dict[str, Any], at: float | None = None) -> str:
    """The stored form of an event."""
    return json.dumps({"type": kind.value, "at": time.time() if at is None else at, **data}, separators=(",", ":"))


# Write an event unless its dedupe key was written before. KEYS: feed, seen; ARGV: dedupe key, event, kept, feed
# ttl, seen ttl. Returns the entry id (the first write's, for a repeat) and whether this call wrote it.
EMIT = """
local first = redis.call('HGET', KEYS[2], ARGV[1])
if first then return {first, 0} end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'e', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[1], id)
redis.call('EXPIRE', KEYS[2], ARGV[5])
return {id, 1}
"""


async def emit(store: MatchStore, player: str, kind: FeedType, data: dict[str, Any], dedupe: str) -> str:
    """Write an event to a player's feed once per dedupe key (a retry writes nothing new) and mark the player for
    the webhooks (again on a retry too: a crash between the two writes is mended by retrying); return its id."""
    entry_id, _written = await connections.Script(store.redis, EMIT)(
        keys=[keys.feed(player), keys.feed_seen(player)],
        args=[dedupe, payload(kind, data), FEED_KEPT, FEED_TTL, SEEN_TTL])
    await pend(store, [player])
    return str(entry_id)


async def pend(store: MatchStore, players: list[str]) -> None:
    """Mark players whose feed has events the webhooks may not have seen (keys.feed_pending)."""
    if players:
        await store.queue.zadd(keys.feed_pending(store.settings.queue), dict.fromkeys(players, time.time()))


async def read(redis: Any, player: str, after: str, count: int = 100) -> list[FeedEvent]:
    """The player's events after a cursor (an event id; "0": from the oldest kept), oldest first, at most count."""
    rows = await redis.xrange(keys.feed(player), f"({after}" if after != "0" else "-", "+", count=count)
    return [FeedEvent.parse(entry_id, fields) for entry_id, fields in rows]


async def latest(redis: Any, player: str) -> str:
    """The id of the player's newest event ("0-0": none): the cursor of a reader that wants only what comes next."""
    rows = await redis.xrevrange(keys.feed(player), "+", "-", count=1)
    return str(rows[0][0]) if rows else "0-0"


def cursor_order(entry_id: str) -> tuple[int, int]:
    """A stream id as a comparable pair (raises ValueError for one that is not "<ms>-<seq>" or "<ms>")."""
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)
