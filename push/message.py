"""What is pushed: which feed events, their payload (public facts only, under 4 KB), and per kind the TTL, the
urgency and the Topic (one per match, so that a phone shows one "your turn" per match: the push service replaces
an undelivered push by a newer one of the same topic)."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from firebreak.matches.feed import FeedEvent, FeedType
from firebreak.push.texts import texts

MAX_PAYLOAD = 3000  # bytes of JSON before encryption (aes128gcm adds 103: well under the 4 KB of RFC 8030)


@dataclass(frozen=True)
class Kind:
    """How a kind of event is pushed."""

    ttl: int        # seconds the push service keeps it for an offline device
    urgency: str    # RFC 8030 Urgency: very-low, low, normal, high


KINDS: dict[FeedType, Kind] = {
    FeedType.YOUR_TURN: Kind(24 * 3600, "high"),
    FeedType.MATCH_ENDED: Kind(24 * 3600, "normal"),
    FeedType.INVITED: Kind(24 * 3600, "high"),
    FeedType.REMATCH_OFFERED: Kind(300, "high"),   # an offer expires (FIREBREAK_REMATCH_OFFER_SECONDS)
    FeedType.SEEK_MATCHED: Kind(600, "high"),
    FeedType.SEAT_TAKEN_OVER: Kind(3600, "high"),
    FeedType.FRIEND_REQUESTED: Kind(7 * 24 * 3600, "normal"),  # who asked (id and handle): public facts only
    FeedType.FRIEND_ACCEPTED: Kind(24 * 3600, "normal"),
}
PUSHED = tuple(kind.value for kind in KINDS)  # the kinds a player may turn on or off
FACTS = ("matchId", "titleId", "seat", "by", "handle", "result", "reason", "rematchId", "code", "notification")
# (kept when too long: what happened, and what a phone shows of it)


@dataclass(frozen=True)
class Message:
    """One push as sent: its JSON payload and its headers' values."""

    payload: str
    topic: str
    ttl: int
    urgency: str


def topic(event: FeedEvent) -> str:
    """The Topic of an event's push: one per match (and kind family), 32 base64url characters at most."""
    subject = str(event.data.get("matchId") or event.data.get("invitationId") or event.id)
    return base64.urlsafe_b64encode(hashlib.sha256(subject.encode()).digest()[:24]).decode()


def message(player: str, event: FeedEvent, locale: str = "") -> Message | None:
    """The push of a feed event, or None for a kind that is not pushed: the event's facts, and what a phone shows
    of it (notification: its title and body, in the player's saved locale: push/texts.py)."""
    kind = KINDS.get(event.type)
    if kind is None:
        return None
    body: dict[str, Any] = {"type": event.type.value, "eventId": event.id, "at": event.at, "playerId": player,
                            **event.data}
    written = texts(event, locale)
    if written is not None:
        body["notification"] = {"title": written[0], "body": written[1]}
    text = json.dumps(body, separators=(",", ":"))
    if len(text.encode()) > MAX_PAYLOAD:  # only the facts that name what happened
        body = {k: v for k, v in body.items() if k in ("type", "eventId", "at", "playerId", *FACTS)}
        text = json.dumps(body, separators=(",", ":"))
    return Message(text, topic(event), kind.ttl, kind.urgency)
