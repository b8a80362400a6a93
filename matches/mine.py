"""My matches, the index: per player, the matches they sit in, kept in sorted sets in the player's slot as the
matches change (matches/mypage.py reads it; a page costs O(log N + page size) whatever N).

Parts (keys.mine_part): "turn" holds the active matches where the player is to act (score: since when, so the
oldest waiting comes first); every other match is in "rest" and in its status's part (score: its last activity).
A row (the keys.mine hash) records the stamp it was indexed at: version * 3 + the status's rank (a match starts, and
may be cancelled, without a new version). One small script per player writes a row unless the stored row's stamp
is newer, so updates arriving in any order never move a match backwards.

A match's keys and a player's live in different slots, so on a Cluster no script can write both; the same design
serves one Redis and the Cluster alike: an outbox entry ("index soon": keys.MINE_PENDING on the queue Redis) is
written before a change that moves a bound player's match (mark), the players' rows right after the change
(refresh), which then drops the entry; a crash in between leaves the entry, which the reconciler (every worker runs
one) hands to a job that rewrites the rows (repair); and a page read rewrites any row whose match has moved on
(each row's match is loaded to render it anyway).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from redis.exceptions import RedisError

from firebreak.matches import connections, feed, keys, turns
from firebreak.matches.feed import FeedType
from firebreak.matches.lifecycle import MatchStatus, SeatControl, SeatKind
from firebreak.matches.reading import Reading
from firebreak.matches.scheduler import automated_next
from firebreak.matches.store import Loaded, MatchStore, engine

log = logging.getLogger("firebreak.mine")
T = TypeVar("T")

RANK = {MatchStatus.WAITING: 0, MatchStatus.ACTIVE: 1, MatchStatus.OVER: 2}
REINDEX_JOB = "firebreak.workers.jobs.reindex"  # by name: this layer never imports the workers package
TURN = "turn"
REST = "rest"
PARTS = (TURN, MatchStatus.WAITING.value, MatchStatus.ACTIVE.value, MatchStatus.OVER.value, REST)

# Write a player's row of a match unless the stored row is newer, and write the player's feed events (matches/feed.py)
# that the change from the stored row to this one makes: matchStarted (no row, or a waiting one, to an active one),
# yourTurn (into "turn", or a turn handed over by a later step than the stored row's: matches/turns.py; the rows of
# the steps in between may never be written), seatTakenOver (the seat's control becomes takenOver), matchEnded (into
# "over"). A row written again as it is (a retry, a repair) makes none. An event is put together here only when it is
# written, from the match's facts (Facts: one JSON fragment per change, shared by its players). KEYS: rows hash, then
# the parts in PARTS order, then the feed; ARGV: match id, stamp, row JSON, part, last activity, since when the player
# is to act, the seat's control ('' none), the feed's length kept, its ttl, the facts fragment, the ended fragment,
# the taken-over fragment, the seat, the player's id, now, the version whose step handed the seat its turn ('': not
# its turn); KEYS[8], where the players' keys and the queue's share one plain Redis: the webhooks' pending set, in
# which a player given events is marked here (else by the caller: feed.pend). A match staying in "turn" with the same
# turn keeps its score (the player has been to act since then); one in another part is also in "rest". A stored row
# without a turn's version (written before they were) counts as the same turn. Returns {written, events written}.
UPSERT = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
local was, ctl, tv = nil, nil, nil
if old then
  local row = cjson.decode(old)
  local s = tonumber(row['s'])
  if s and s > tonumber(ARGV[2]) then return {0, 0} end
  was, ctl, tv = row['p'], row['ctl'], row['tv']
end
local turned = ARGV[4] == 'turn' and (was ~= 'turn' or (tv ~= nil and tonumber(tv) ~= tonumber(ARGV[16])))
local since = ARGV[6]
if ARGV[4] == 'turn' and not turned then
  since = redis.call('ZSCORE', KEYS[2], ARGV[1]) or since
end
for i = 2, 6 do redis.call('ZREM', KEYS[i], ARGV[1]) end
if ARGV[4] == 'turn' then
  redis.call('ZADD', KEYS[2], since, ARGV[1])
else
  local parts = {waiting = 3, active = 4, over = 5}
  redis.call('ZADD', KEYS[parts[ARGV[4]]], ARGV[5], ARGV[1])
  redis.call('ZADD', KEYS[6], ARGV[5], ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
local n = 0
local function emit(kind, extra)
  redis.call('XADD', KEYS[7], 'MAXLEN', '~', ARGV[8], '*', 'e',
             '{"type":"' .. kind .. '",' .. ARGV[10] .. ',"seat":' .. ARGV[13] .. extra .. '}')
  n = n + 1
end
local now = ARGV[4]
if (now == 'turn' or now == 'active') and (was == nil or was == 'waiting') then emit('<MATCH_STARTED>', '') end
if turned then emit('<YOUR_TURN>', '') end
if ARGV[7] == 'takenOver' and ctl ~= 'takenOver' then emit('<SEAT_TAKEN_OVER>', ARGV[12]) end
if now == 'over' and was ~= 'over' then emit('<MATCH_ENDED>', ARGV[11]) end
if n > 0 then
  redis.call('EXPIRE', KEYS[7], ARGV[9])
  if KEYS[8] then redis.call('ZADD', KEYS[8], ARGV[15], ARGV[14]) end
end
return {1, n}
"""
for _kind in (FeedType.MATCH_STARTED, FeedType.YOUR_TURN, FeedType.SEAT_TAKEN_OVER, FeedType.MATCH_ENDED):
    UPSERT = UPSERT.replace(f"<{_kind.name}>", _kind.value)  # the events' type names, spelled once (FeedType)

# Drop a player's row of a match (its match is gone, or no longer holds the player). KEYS: as UPSERT; ARGV: match id.
FORGET = """
redis.call('HDEL', KEYS[1], ARGV[1])
for i = 2, 6 do redis.call('ZREM', KEYS[i], ARGV[1]) end
return 1
"""

# Drop an outbox entry unless another change marked the match since. KEYS: the outbox; ARGV: match id, the mark.
DONE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) return 1 end
return 0
"""

# Read a page of a player's index. KEYS: rows hash, the turn part, the second part (rest, or a status's part).
# ARGV: 1 whether the turn part comes first ('1'/'0'), 2 the cursor's part ('t' or 'r'), 3 its score ('': none),
# 4 its id, 5 the first page's time (the second part's entries that changed later are left out), 6 entries wanted,
# 7 slack. Returns {part, id, score, row, ...} in page order.
PAGE = """
local want, slack = tonumber(ARGV[6]), tonumber(ARGV[7])
local out, n = {}, 0
local cs = tonumber(ARGV[3])
local function take(rows, part, skip)
  for i = 1, #rows, 2 do
    if n >= want then return end
    local s = tonumber(rows[i + 1])
    if not (skip and cs and s == cs and skip(rows[i])) then
      n = n + 1
      out[#out + 1] = part
      out[#out + 1] = rows[i]
      out[#out + 1] = rows[i + 1]
      out[#out + 1] = redis.call('HGET', KEYS[1], rows[i]) or ''
    end
  end
end
if ARGV[1] == '1' and ARGV[2] == 't' then
  if cs then
    take(redis.call('ZRANGEBYSCORE', KEYS[2], ARGV[3], '+inf', 'WITHSCORES', 'LIMIT', 0, want + slack), 't',
         function(id) return id <= ARGV[4] end)
  else
    take(redis.call('ZRANGE', KEYS[2], 0, want - 1, 'WITHSCORES'), 't', nil)
  end
end
if n < want then
  if ARGV[2] == 'r' and cs then
    take(redis.call('ZREVRANGEBYSCORE', KEYS[3], ARGV[3], '-inf', 'WITHSCORES', 'LIMIT', 0, want - n + slack), 'r',
         function(id) return id >= ARGV[4] end)
  else
    take(redis.call('ZREVRANGEBYSCORE', KEYS[3], ARGV[5], '-inf', 'WITHSCORES', 'LIMIT', 0, want - n), 'r', nil)
  end
end
return out
"""


def stamp(loaded: Loaded) -> int:
    """The order of a match's states: a later state has a larger stamp."""
    return loaded.version * 3 + RANK[loaded.status]


@dataclass(frozen=True)
class Row:
    """One player's index row of a match: the stamp it was indexed at, its part, the player's seat, the seats owing
    a decision and whether the service owes the next step (an active match), the winners of a finished one (None:
    not known to the index), its last activity, who controls the seat (None: its player), and while it is the
    player's turn, the version whose step handed it to them (matches/turns.py)."""

    stamp: int
    part: str
    seat: int
    to_act: tuple[int, ...]
    automated: bool
    winners: tuple[int, ...] | None
    at: float
    control: SeatControl | None = None
    turn_since: int | None = None

    @property
    def turn(self) -> bool:
        """Whether the player is to act."""
        return self.part == TURN

    def to_json(self) -> str:
        """The stored form."""
        data = {"s": self.stamp, "p": self.part, "seat": self.seat, "act": list(self.to_act), "auto": self.automated,
                "win": None if self.winners is None else list(self.winners), "at": self.at}
        if self.control is not None:
            data["ctl"] = self.control.value
        if self.turn_since is not None:
            data["tv"] = self.turn_since
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str) -> Row:
        """Read a stored row."""
        data = json.loads(raw)
        control, since = data.get("ctl"), data.get("tv")
        return cls(int(data["s"]), str(data["p"]), int(data["seat"]), tuple(data["act"]), bool(data["auto"]),
                   None if data["win"] is None else tuple(data["win"]), float(data["at"]),
                   None if control is None else SeatControl(control), None if since is None else int(since))


def row_of(loaded: Loaded, seat: int) -> Row:
    """The index row of a seat of a loaded match."""
    status = loaded.status
    at = float(loaded.meta.get("at", loaded.meta.get("created", 0.0)))
    to_act: tuple[int, ...] = ()
    automated = False
    winners: tuple[int, ...] | None = None
    part = status.value
    since: int | None = None
    if status is MatchStatus.ACTIVE:
        match = engine(loaded)
        to_act = tuple(match.to_act())
        automated = automated_next(match, loaded.seats)
        if seat in to_act:
            part = TURN
            since = turns.since(loaded.meta, seat)
    elif status is MatchStatus.OVER:  # the winners the match's result names, whatever ended it
        result = Reading.of(loaded, None).result()
        winners = None if result is None else result.winners
    return Row(stamp(loaded), part, seat, to_act, automated, winners, at, loaded.seats[seat].control, since)


@dataclass(frozen=True)
class Facts:
    """What the feed events of one change of a match say (matches/feed.py), as JSON fragments the index script puts
    together when it writes an event: the match's facts (id, title, version, time), and a finished match's reason
    and winners. Built once per change, for all its players. Ids and public facts only."""

    common: str
    ended: str

    @classmethod
    def of(cls, loaded: Loaded, row: Row) -> Facts:
        """The facts of a match as it stands (row: any of its players' rows, for the time and the winners)."""
        common = json.dumps({"at": row.at, "matchId": loaded.id, "title": loaded.meta["title"],
                             "version": loaded.version}, separators=(",", ":"))[1:-1]
        ended = ""
        reason = loaded.end_reason
        if reason is not None:
            winners = row.winners
            ended = "," + json.dumps({"reason": reason.value, "winners": None if winners is None else list(winners)},
                                     separators=(",", ":"))[1:-1]
        return cls(common, ended)

    def taken_over(self, loaded: Loaded, row: Row) -> str:
        """The fragment a seatTakenOver event of the row's seat adds (the bot level playing it; '' if not taken)."""
        if row.control is not SeatControl.TAKEN_OVER:
            return ""
        return ',"level":' + json.dumps(loaded.seats[row.seat].level)


def players(loaded: Loaded) -> dict[str, int]:
    """The players with a seat of the match, and their seats (people's seats bound to a player)."""
    return {record.player: seat for seat, record in loaded.seats.items()
            if record.player is not None and record.kind is SeatKind.HUMAN}


class Index:
    """The index's scripts over one store's clients."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        self._upsert = connections.Script(store.redis, UPSERT)
        self._forget = connections.Script(store.redis, FORGET)
        self._done = connections.Script(store.queue, DONE)
        self.read = connections.Script(store.redis, PAGE)  # a page's entries (matches/mypage.py)
        # one plain Redis for both roles: the index script marks the players it gives events for the webhooks
        self.marks = [keys.feed_pending(store.settings.queue)] if store.one_redis else []

    @staticmethod
    def keys(player: str) -> list[str]:
        """The player's rows hash and parts (one slot)."""
        return [keys.mine(player), *(keys.mine_part(player, part) for part in PARTS)]

    async def put(self, player: str, loaded: Loaded, row: Row, facts: Facts | None = None,
                  since: float | None = None) -> tuple[bool, int]:
        """Write a player's row of a match unless a newer one is stored, with the feed events the change makes (facts:
        the match's, when the caller has them already); return whether it was written and how many events were."""
        facts = Facts.of(loaded, row) if facts is None else facts
        written, count = await self._upsert(
            keys=[*self.keys(player), keys.feed(player), *self.marks],
            args=[loaded.id, row.stamp, row.to_json(), row.part, repr(row.at), repr(row.at if since is None else since),
                  "" if row.control is None else row.control.value, feed.FEED_KEPT, feed.FEED_TTL, facts.common,
                  facts.ended, facts.taken_over(loaded, row), row.seat, player, repr(time.time()),
                  "" if row.turn_since is None else row.turn_since])
        return bool(int(written)), int(count)

    async def forget(self, player: str, match_id: str) -> None:
        """Drop a player's row of a match."""
        await self._forget(keys=self.keys(player), args=[match_id])

    async def done(self, match_id: str, mark: float) -> bool:
        """Drop the match's outbox entry unless it was marked again since `mark`."""
        return bool(int(await self._done(keys=[keys.MINE_PENDING], args=[match_id, repr(mark)])))


_indexes: weakref.WeakKeyDictionary[MatchStore, Index] = weakref.WeakKeyDictionary()


def index(store: MatchStore) -> Index:
    """The index over a store's clients (one per store)."""
    found = _indexes.get(store)
    if found is None:
        found = _indexes[store] = Index(store)
    return found


async def mark(store: MatchStore, loaded: Loaded, player: str | None = None) -> float | None:
    """Before a change that may move the match in its players' lists (player: one about to be seated): write the
    match's outbox entry, so that a crash before refresh leaves the repair to the reconciler; returns the mark to
    hand to refresh (None, and nothing written, when no player is concerned)."""
    if player is None and not players(loaded):
        return None
    now = time.time()
    await store.queue.zadd(keys.MINE_PENDING, {loaded.id: now})
    return now


async def indexed(store: MatchStore, loaded: Loaded, change: Callable[[], Awaitable[T]],
                  after: Callable[[T], Loaded | None],
                  first: Callable[[Loaded], Awaitable[None]] | None = None) -> tuple[T, Loaded | None]:
    """Make a change that may move the match in its players' lists between its outbox entry and its rows: mark,
    make the change, read the match as it left it (`after` of the change's answer; None: the change did not
    happen, and the entry is dropped), do `first` with it (what must not wait for the rows, such as queueing the
    next bot move), then refresh the rows. Returns the answer and the match as the change left it."""
    marked = await mark(store, loaded)
    answer = await change()
    left = after(answer)
    if left is None:
        await unmark(store, loaded.id, marked)
        return answer, None
    if first is not None:
        await first(left)
    await refresh(store, left, marked)
    return answer, left


async def refresh(store: MatchStore, loaded: Loaded, mark: float | None = None) -> None:
    """After a change (a seat bound or freed, the start, a step, the end, a resignation...): write every seated
    player's row of the match as `loaded` shows it (a newer row stays), then drop the outbox entry of `mark`. Never
    raises for Redis: the change is done, and what this leaves undone the outbox entry or a page read finishes."""
    seated = players(loaded)
    try:
        if seated:
            idx = index(store)
            rows = {player: row_of(loaded, seat) for player, seat in seated.items()}
            facts = Facts.of(loaded, next(iter(rows.values())))
            done = await asyncio.gather(*(idx.put(player, loaded, row, facts) for player, row in rows.items()))
            if not idx.marks:  # (else the index script marked them)
                await feed.pend(store, [player for player, (_, made) in zip(rows, done, strict=True) if made])
        if mark is not None:
            await index(store).done(loaded.id, mark)
    except RedisError as exc:  # the change itself is done: its outbox entry (or a page read) finishes the rows
        log.warning("match %s: players' index rows left to the reconciler (%s)", loaded.id, type(exc).__name__)


async def forget(store: MatchStore, player: str, match_id: str) -> None:
    """Drop a player's row of a match (the player left its seat, or the match is gone)."""
    await index(store).forget(player, match_id)


async def repair(store: MatchStore, match_id: str, mark: float) -> bool:
    """Finish what a crash left undone: rewrite the rows of a marked match as it stands now and drop its outbox
    entry (unless marked again meanwhile); return whether the match was there."""
    loaded = await store.load(match_id)
    if loaded is not None:
        await refresh(store, loaded)
        await feed.pend(store, list(players(loaded)))  # events a crash wrote but did not mark for the webhooks
    await index(store).done(match_id, mark)
    return loaded is not None



async def unmark(store: MatchStore, match_id: str, mark: float | None) -> None:
    """Drop the outbox entry of a change that did not happen (a refused commit or claim)."""
    if mark is not None:
        await index(store).done(match_id, mark)
