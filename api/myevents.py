"""A player's own events as both surfaces serve them (GraphQL's myEvents and me.events, REST's SSE /v1/me/events).

Where a follower starts: no cursor is "from now on" (after the newest event kept); "0" is "from the oldest kept";
any other cursor must be the id of one of the player's events still kept (BAD_CURSOR for something else,
CURSOR_EXPIRED when it is older than the oldest event kept: events after it may be gone, and the refusal says so
rather than replaying with a silent gap). From there every later event comes once, in order.

Once a follower has caught up (at once, from now on) it hands over a Ready: the stream is live, and every event
after its cursor (the newest event's id, "0" when the player has none yet) comes next. A client that opens the
stream, waits for `ready`, then acts cannot miss what its action causes.

A follower catches up by reading the stream itself, then waits on the process's FeedHub (one shared reader, no
connection of its own). It also keeps checking the credential it was opened with: it stops at the credential's
expiry (a JWT's exp) and when a re-verification (every `events_recheck_seconds`) refuses it (signed out, token
revoked), handing over the Unauthenticated refusal as its last item.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import jwt

from firebreak.api import revocations
from firebreak.api.feedhub import FeedHub
from firebreak.matches import feed, keys
from firebreak.matches.feed import FeedEvent, cursor_order
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import Reason, Unauthenticated
from firebreak.social import presence

CURSOR = re.compile(r"\d{1,19}-\d{1,19}\Z")
READY = "ready"     # the type of the message that says a stream is live
PAGE = 100          # events one catch-up read takes
WAIT = 10.0         # longest wait on the hub between two looks at the credential


class CursorRefused(Exception):
    """Raised for an `after` that cannot start a follower: BAD_CURSOR or CURSOR_EXPIRED."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Ready:
    """A follower is live: every event after `cursor` comes next (the cursor a client resumes from: the newest
    event's id when it caught up, "0" while the player has none)."""

    cursor: str
    at: float

    def to_json(self) -> dict[str, object]:
        """As the stream sends it: {id, type: "ready", at}, like an event (its id is the resume cursor)."""
        return {"id": self.cursor, "type": READY, "at": self.at}


async def start(redis: object, player: str, after: str | None) -> str:
    """The cursor a follower starts from (raise CursorRefused; see the module's docstring)."""
    if after is None:
        return await feed.latest(redis, player)
    if after == "0":
        return "0"
    if not CURSOR.match(after):
        raise CursorRefused(Refusal.BAD_CURSOR, "after is not an event id (pass an event's id as it was given, or "
                                                "\"0\" for the oldest kept)")
    key = keys.feed(player)
    pipe = redis.pipeline(transaction=False)  # type: ignore[attr-defined]
    pipe.xrange(key, after, after, count=1)
    pipe.xrange(key, "-", "+", count=1)
    found, first = await pipe.execute()
    if found:
        return after
    if not first or cursor_order(after) < cursor_order(str(first[0][0])):
        raise CursorRefused(Refusal.CURSOR_EXPIRED, "the events after this cursor are no longer all kept: follow "
                                                    "without a cursor (from now on) after reading me.matches")
    raise CursorRefused(Refusal.BAD_CURSOR, "after is not the id of one of this player's events")


async def page(redis: object, player: str, after: str | None, first: int) -> tuple[list[FeedEvent], bool]:
    """A page of the player's past events after a cursor (None: from the oldest kept), oldest first, and whether
    more follow (raise CursorRefused)."""
    cursor = await start(redis, player, "0" if after is None else after)
    events = await feed.read(redis, player, cursor, first + 1)
    return events[:first], len(events) > first


def expiry(credential: str) -> float | None:
    """When a JWT credential expires (its exp claim; read, not verified: it was verified already); None for
    another kind (a personal access token: its expiry is found by re-verification)."""
    try:
        claims = jwt.decode(credential, options={"verify_signature": False})
    except (jwt.PyJWTError, ValueError, TypeError):
        return None
    exp = claims.get("exp") if isinstance(claims, dict) else None
    return float(exp) if isinstance(exp, int | float) else None


@dataclass
class Guard:
    """Whether a follower's credential still holds: its expiry (None: unknown) and a re-verification every
    `every` seconds (recheck answers the refusal, or None while it holds)."""

    recheck: Callable[[], Awaitable[Unauthenticated | None]]
    expires: float | None
    every: float
    due: float = field(default=0.0)
    player: str | None = None  # whose credential (None: recheck on anyone's revocation)
    heard: int = field(default=0)  # the revocations this process had heard of at the last recheck

    def __post_init__(self) -> None:
        self.due = time.time() + self.every
        self.heard = revocations.generation()

    async def refused(self) -> Unauthenticated | None:
        """The refusal once the credential has expired or a due re-verification refuses it (due every `every`
        seconds, and at once after a revocation anywhere: api/revocations.py), else None."""
        now = time.time()
        if self.expires is not None and now >= self.expires:
            return Unauthenticated(Reason.EXPIRED)
        if now >= self.due or revocations.revoked_since(self.player, self.heard):
            self.due = now + self.every
            self.heard = revocations.generation()
            return await self.recheck()
        return None

    def wait(self, longest: float) -> float:
        """How long a follower may wait before it should look at the credential again."""
        now = time.time()
        ends = [longest, self.due - now] + ([] if self.expires is None else [self.expires - now])
        return max(0.01, min(ends))


async def follow(hub: FeedHub, redis: object, player: str, cursor: str,
                 guard: Guard) -> AsyncIterator[FeedEvent | Ready | Unauthenticated]:
    """Every event of the player after the cursor, then Ready, then each new one as it comes, until the credential
    stops holding (then its refusal is the last item)."""
    while True:  # catch up from the stream itself
        batch = await feed.read(redis, player, cursor, PAGE)
        for event in batch:
            yield event
            cursor = event.id
        if len(batch) < PAGE:
            break
    yield Ready("0" if cursor == "0-0" else cursor, time.time())
    async with hub.listen(player, cursor) as listener:
        while True:
            refused = await guard.refused()
            if refused is not None:
                yield refused
                return
            await presence.touch(redis, player)  # an open stream keeps its player online (social/presence.py)
            got = await listener.next(cursor, guard.wait(WAIT))
            if got is None:  # further behind than the hub keeps: read the stream
                got = await feed.read(redis, player, cursor, PAGE)
            for event in got:
                yield event
                cursor = event.id
