"""My matches, the page: a player's matches from the index (matches/mine.py), those where it is their turn first
(oldest waiting first), then the rest by last activity, each rendered from the read model (matches/reading.py).

One script reads the page's index entries (O(log N + page size)), then each entry's match is loaded (one read each);
a row whose match has moved on is rewritten on the way (read repair), one whose match is gone or no longer holds the
player is dropped. With an attic on the store (the archive, in the API), the finished matches it holds join the
second part in the same order and by the same cursor rules (one indexed query a page), and a match Redis has let go
is rendered from there: the history page outlives FIREBREAK_FINISHED_TTL. A cursor spans both parts: the part, the
score and id of the last entry seen (keyset paging, so it stays valid as matches move) and the time the first page
was read: later pages leave out the rest's entries that changed after it (a match seen in the first part that moved
to the rest meanwhile is not shown twice; one that changed while the pages were read shows on the next first page).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import math
import time
from dataclasses import dataclass
from enum import StrEnum

from firebreak.matches import feed, keys
from firebreak.matches.lifecycle import EndReason, MatchStatus
from firebreak.matches.mine import REST, TURN, Row, index, players, row_of, stamp
from firebreak.matches.reading import Reading, SeatReading
from firebreak.matches.store import CURSOR_SLACK, Loaded, MatchStore, valid_id

FIRST, SECOND = "t", "r"  # the cursor's names of the two parts (as the PAGE script calls them)


class BadCursor(ValueError):
    """Raised for an `after` that is not a cursor this service gave."""


class Outcome(StrEnum):
    """How a finished match came out for the player."""

    WON = "won"  # the only winner
    SHARED = "shared"  # one of several winners (a true tie)
    LOST = "lost"  # another seat won


@dataclass(frozen=True)
class Cursor:
    """Where a page ends: the part, the last entry's score and id, and when the first page was read."""

    part: str
    score: str
    id: str
    since: float

    def encode(self) -> str:
        """The opaque text form."""
        text = f"{self.part}|{self.score}|{self.id}|{self.since!r}"
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> Cursor:
        """Read a cursor; raise BadCursor for anything else."""
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
            part, score, match_id, since = raw.split("|")
            value, asof = float(score), float(since)
        except (ValueError, binascii.Error, UnicodeDecodeError):
            raise BadCursor("after is not a cursor of this list (pass a page's endCursor or an edge's cursor)") \
                from None
        if part not in (FIRST, SECOND) or not (math.isfinite(value) and math.isfinite(asof)) or not valid_id(match_id):
            raise BadCursor("after is not a cursor of this list (pass a page's endCursor or an edge's cursor)")
        return cls(part, repr(value), match_id, asof)


@dataclass(frozen=True)
class MyMatch:
    """One match of the player's list: the read model of the match as the player's seat sees it, and the index row
    it was listed by (as of the same version)."""

    cursor: str
    reading: Reading
    seat: int
    row: Row

    @property
    def to_act(self) -> bool:
        """Whether the player is to act."""
        return self.row.turn

    @property
    def last_activity(self) -> float:
        """When the match last changed (epoch seconds; its creation while waiting)."""
        return self.row.at

    def deadline(self) -> float | None:
        """When the player's time runs out (epoch seconds): None without a clock or when it is not running (not
        the player's turn, the service to act first, or taken over)."""
        timing = self.reading.loaded.timing()
        clock = timing.clock
        record = self.reading.loaded.seats.get(self.seat)
        if (clock is None or self.reading.status is not MatchStatus.ACTIVE or self.row.automated
                or self.seat not in self.row.to_act or record is None or record.automated):
            return None
        return timing.at + clock.seconds(self.seat)  # the Fischer time or the per-move limit, whichever is less

    def others(self) -> list[SeatReading]:
        """The other seats (names and kinds; open ones while waiting)."""
        return [seat for seat in self.reading.seats() if seat.seat != self.seat]

    def winners(self) -> tuple[int, ...] | None:
        """The winning seats once over (None before; empty for an abandoned match)."""
        if self.reading.status is not MatchStatus.OVER:
            return None
        if self.row.winners is not None:
            return self.row.winners
        result = self.reading.result()
        return () if result is None else result.winners

    def end_reason(self) -> EndReason | None:
        """Why it ended (None before)."""
        return self.reading.end_reason

    def outcome(self) -> Outcome | None:
        """Won, shared or lost, once over (None before, and when nobody won: abandoned)."""
        winners = self.winners()
        if not winners:
            return None
        if self.seat not in winners:
            return Outcome.LOST
        return Outcome.WON if len(winners) == 1 else Outcome.SHARED


@dataclass(frozen=True)
class Page:
    """A page of the player's matches, whether more follow and the cursor of its last entry."""

    items: list[MyMatch]
    end_cursor: str | None
    has_next_page: bool


async def page(store: MatchStore, player: str, status: MatchStatus | None, first: int,
               after: str | None) -> Page:
    """The player's matches (of a status, or all) after a cursor: their turn first, oldest waiting first, then the
    rest by last activity, newest first. Raise BadCursor for an `after` that is not a cursor."""
    cursor = Cursor.decode(after) if after else Cursor(FIRST, "", "", time.time())
    second = REST if status is None else status.value
    use_turn = status in (None, MatchStatus.ACTIVE)
    flat = await index(store).read(keys=[keys.mine(player), keys.mine_part(player, TURN),
                                         keys.mine_part(player, second)],
                                   args=["1" if use_turn else "0", cursor.part, cursor.score, cursor.id,
                                         repr(cursor.since), first + 1, CURSOR_SLACK])
    entries = [(flat[i], flat[i + 1], flat[i + 2], flat[i + 3]) for i in range(0, len(flat), 4)]
    if store.attic is not None and status in (None, MatchStatus.OVER):
        entries = _with_archived(entries, await _archived(store, player, cursor, first + 1))
    more, entries = len(entries) > first, entries[:first]
    loads = await asyncio.gather(*(_load(store, match_id, raw) for _, match_id, _, raw in entries))
    items: list[MyMatch] = []
    end = None
    for (part, match_id, score, raw), (loaded, archived) in zip(entries, loads, strict=True):
        end = Cursor(part, repr(float(score)), match_id, cursor.since).encode()
        item = await _item(store, player, match_id, raw, loaded, end, archived)
        if item is not None and (status is None or item.reading.status is status):
            items.append(item)
    return Page(items, end, more)


async def turn_count(store: MatchStore, player: str) -> int:
    """How many of the player's live matches wait on the player to act (the badge): the size of the index's turn
    part, which the page lists first (one ZCARD, whatever the player's number of matches)."""
    return int(await store.redis.zcard(keys.mine_part(player, TURN)))


Entry = tuple[str, str, str, str]  # part, match id, score, the stored row ('': none)


async def _archived(store: MatchStore, player: str, cursor: Cursor, want: int) -> list[Entry]:
    """The player's matches the attic holds (finished, perhaps gone from Redis) after the cursor, as entries of the
    second part: the same order (last activity, then id, both descending) and the same cursor rules."""
    assert store.attic is not None
    before = (float(cursor.score), cursor.id) if cursor.part == SECOND and cursor.score else None
    rows = await store.attic.rows(player, before, cursor.since, want)
    return [(SECOND, match_id, repr(at), "") for match_id, at in rows]


def _with_archived(entries: list[Entry], archived: list[Entry]) -> list[Entry]:
    """The index's entries with the attic's merged into the second part in its order; a match in both is listed
    once, as the index has it."""
    listed = {match_id for _, match_id, _, _ in entries}
    turn = [e for e in entries if e[0] == FIRST]
    rest = [e for e in entries if e[0] != FIRST] + [e for e in archived if e[1] not in listed]
    rest.sort(key=lambda e: (float(e[2]), e[1]), reverse=True)
    return turn + rest


async def _load(store: MatchStore, match_id: str, raw: str) -> tuple[Loaded | None, bool]:
    """An entry's match from Redis, else from the attic; and whether it came from the attic."""
    loaded = await store.load(match_id)
    if loaded is not None or store.attic is None:
        return loaded, False
    return await store.attic.load(match_id), True


async def _item(store: MatchStore, player: str, match_id: str, raw: str, loaded: Loaded | None,
                cursor: str, archived: bool = False) -> MyMatch | None:
    """An entry rendered, its row repaired if the match moved on; None (and the row dropped) if it is gone or no
    longer holds the player. A match only the attic holds is rendered from there, and its row leaves the index
    (the attic lists it from now on)."""
    seat = None if loaded is None else players(loaded).get(player)
    if (archived and raw) or loaded is None or seat is None:
        await index(store).forget(player, match_id)
    if loaded is None or seat is None:
        return None
    if archived:
        return MyMatch(cursor, Reading.of(loaded, seat), seat, row_of(loaded, seat))
    row = Row.from_json(raw) if raw else None
    if row is None or row.stamp != stamp(loaded) or row.seat != seat:
        row = row_of(loaded, seat)
        _, made = await index(store).put(player, loaded, row)
        if made and not index(store).marks:  # the transition's events, left unwritten by a crash before its refresh
            await feed.pend(store, [player])
    return MyMatch(cursor, Reading.of(loaded, seat), seat, row)

