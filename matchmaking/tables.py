"""Forming tables: the workers seat compatible waiting seekers of a pool at one table and make it a match.

A matching job runs per pool (the reconcilers enqueue one each tick for every pool with waiting seeks, and a new
seek asks for one at once; a guard key keeps at most one queued per pool). It expires the seeks past their time,
plans tables (matchmaking/band.py), and claims each table's seekers with one script: all or none of them move from
waiting to matching, so any number of jobs racing over a pool never put a seek at two tables. The same script
writes the table (its match id chosen then, its seat plan) and its outbox entry (keys.seek_tables_pending).

Forming a table is idempotent, step by step, like a rematch (matches/rematch.py): create the match under the
table's id unless it exists (CREATE refuses an id taken), seat every planned seat not yet taken (each seeker's seat
bound to its player, bots in the others; the last seat starts the match through the lobby, which indexes it in
every player's matches), settle each seek as matched (a script that moves matching -> matched only for this table),
tell each player (seekMatched), then drop the outbox entry. A worker killed anywhere in between leaves the entry,
which a reconciler hands to a form_table job after stall_seconds: it takes the same steps, so nothing is done twice
and no seeker is lost.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from rq import Queue

from firebreak.domain import titles
from firebreak.domain.bots import takeover_level
from firebreak.domain.errors import DomainError
from firebreak.matches import connections, feed, keys
from firebreak.matches.feed import FeedType
from firebreak.matches.lifecycle import MatchStatus, SeatKind, SeatRecord
from firebreak.matches.lobby import Lobby, LobbyError
from firebreak.matches.mine import DONE
from firebreak.matches.reconciler import MATCH_SEEKS_JOB
from firebreak.matches.rematch import CARRIED_OVER
from firebreak.matchmaking.band import Planned, plan
from firebreak.matchmaking.seeks import Seek, Seeks, SeekStatus
from firebreak.social.blocks import apart

log = logging.getLogger("firebreak.matchmaking")

FORMING_AT_ONCE = 8   # tables one job forms concurrently
TABLE_KEPT = 3600     # seconds a formed table's record stays (a late resume finds it done)

# Claim a table's seekers, all or none. KEYS: table hash, outbox, pool, then each seek's hash; ARGV: table id, now,
# table fields JSON, kept seconds, then each seek's id. Returns 1, or 0 when a seek is no longer waiting.
CLAIM = """
local now = tonumber(ARGV[2])
for i = 4, #KEYS do
  local status, expires = unpack(redis.call('HMGET', KEYS[i], 'status', 'expires'))
  if status ~= 'waiting' or tonumber(expires) <= now then return 0 end
end
for i = 4, #KEYS do
  redis.call('HSET', KEYS[i], 'status', 'matching', 'table', ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[i + 1])
end
for name, value in pairs(cjson.decode(ARGV[3])) do redis.call('HSET', KEYS[1], name, value) end
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1
"""

# Settle a seek of a formed table. KEYS: seek hash, counters; ARGV: table id, match id, seat, now, kept seconds.
# Returns 1 (settled now), 2 (settled before) or 0 (not this table's).
SETTLE = """
local status, tbl, match = unpack(redis.call('HMGET', KEYS[1], 'status', 'table', 'match'))
if status == 'matched' and match == ARGV[2] then return 2 end
if status ~= 'matching' or tbl ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'matched', 'match', ARGV[2], 'seat', ARGV[3], 'ended', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('HINCRBY', KEYS[2], 'matched', 1)
return 1
"""

# Put a seek of a table that cannot be formed back in its pool. KEYS: seek hash, pool, pools; ARGV: table id, pool.
RELEASE = """
local status, tbl, created = unpack(redis.call('HMGET', KEYS[1], 'status', 'table', 'created'))
if status ~= 'matching' or tbl ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'waiting', 'table', '')
redis.call('ZADD', KEYS[2], created, redis.call('HGET', KEYS[1], 'id'))
redis.call('ZADD', KEYS[3], created, ARGV[2])
return 1
"""

# Drop a pool from the pools to match once it holds no waiting seek. KEYS: pool, pools; ARGV: pool id.
DROP_POOL = """
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('ZREM', KEYS[2], ARGV[1]) return 1 end
return 0
"""


@dataclass(frozen=True)
class PlannedSeat:
    """One seat of a table's plan: a seeker's (its seek, player, name, program flag) or a bot's (its level)."""

    seat: int
    seek: str | None = None
    player: str | None = None
    name: str = ""
    program: bool = False
    level: str | None = None

    def record(self) -> SeatRecord:
        """The seat as the lobby claims it: bound to the seeker's player (its credential acts for it), or a bot."""
        if self.level is not None:
            return SeatRecord(f"{self.level} bot", SeatKind.BOT, self.level)
        return SeatRecord(self.name, SeatKind.HUMAN, player=self.player, program=self.program)

    def to_json(self) -> list[Any]:
        """The stored form."""
        return [self.seat, self.seek, self.player, self.name, self.program, self.level]

    @classmethod
    def from_json(cls, raw: list[Any]) -> PlannedSeat:
        """Read the stored form."""
        seat, seek, player, name, program, level = raw
        return cls(int(seat), seek, player, str(name), bool(program), level)


@dataclass(frozen=True)
class Formed:
    """A table formed into a started match: its match id and who sits where (seek id -> seat)."""

    table: str
    match_id: str
    seats: dict[str, int]


class Matcher:
    """Matching and forming over the lobby (its store's two Redis roles) and the seeks."""

    def __init__(self, lobby: Lobby, seeks: Seeks) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.queue: Any = lobby.store.queue
        self.seeks = seeks
        self._claim = connections.Script(self.queue, CLAIM)
        self._settle = connections.Script(self.queue, SETTLE)
        self._release = connections.Script(self.queue, RELEASE)
        self._drop_pool = connections.Script(self.queue, DROP_POOL)
        self._done = connections.Script(self.queue, DONE)

    async def waiting(self, pool: str) -> list[Seek]:
        """The pool's waiting seeks, oldest first (at most settings.pool_scan)."""
        ids = await self.queue.zrange(self.seeks.pool_key(pool), 0, self.seeks.settings.pool_scan - 1)
        pipe = self.queue.pipeline(transaction=False)
        for seek_id in ids:
            pipe.hgetall(keys.seek(seek_id))
        found = [Seek.from_fields(raw) for raw in await pipe.execute() if raw]
        return [seek for seek in found if seek.status is SeekStatus.WAITING]

    async def run_pool(self, pool: str, now: float | None = None) -> list[Formed]:
        """One matching pass over a pool: expire, plan, claim and form its tables; return the tables formed. The
        pool's job guard is dropped at the end (the next tick, or the next seek, queues the next pass)."""
        try:
            return await self._run_pool(pool, time.time() if now is None else now)
        finally:
            await self.queue.delete(keys.seek_job_guard(self.seeks.queue_name, pool))

    async def _run_pool(self, pool: str, now: float) -> list[Formed]:
        seeks = await self.waiting(pool)
        live = []
        for seek in seeks:
            if seek.expires <= now:
                await self.seeks.expire(seek, now)
            else:
                live.append(seek)
        if not live:
            await self._drop_pool(keys=[self.seeks.pool_key(pool), keys.seek_pools(self.seeks.queue_name)], args=[pool])
            return []
        try:
            titles.get(live[0].pool.title)
        except KeyError:  # a title this worker does not serve (FIREBREAK_TITLES differs): another worker's pool
            return []
        claimed = []
        kept_apart = await apart(self.store.redis, [seek.player for seek in live])  # blocks, either way
        for table in plan(live, live[0].pool.seats, now, self.seeks.settings, kept_apart):
            table_id = await self.claim(table, now)
            if table_id is not None:
                claimed.append((table_id, now))
        gate = asyncio.Semaphore(FORMING_AT_ONCE)

        async def form(table_id: str, mark: float) -> Formed | None:
            async with gate:
                return await self.resume(table_id, mark)

        formed = await asyncio.gather(*(form(table_id, mark) for table_id, mark in claimed))
        return [f for f in formed if f is not None]

    async def claim(self, table: Planned, now: float) -> str | None:
        """Claim a planned table's seekers (all or none) and write the table and its outbox entry (scored `now`,
        the mark to hand to resume); return the table's id (None: a seeker was taken or cancelled meanwhile)."""
        first = table.seekers[0]
        count = first.pool.seats
        order = list(range(count))
        random.shuffle(order)  # who sits where: random, fixed in the plan
        level = takeover_level(titles.get(first.pool.title))
        seats = [PlannedSeat(order[n], s.id, s.player, s.name, s.program) for n, s in enumerate(table.seekers)]
        seats += [PlannedSeat(order[n], level=level) for n in range(len(table.seekers), count)]
        table_id = secrets.token_hex(8)
        fields = {"id": table_id, "pool": first.pool.id, "title": first.pool.title, "seats": str(count),
                  "options": json.dumps(first.pool.options, sort_keys=True), "match": secrets.token_hex(8),
                  "plan": json.dumps([seat.to_json() for seat in sorted(seats, key=lambda p: p.seat)]),
                  "created": repr(now)}
        outbox = keys.seek_tables_pending(self.seeks.queue_name)
        ok = await self._claim(keys=[keys.seek_table(table_id), outbox, self.seeks.pool_key(first.pool.id),
                                     *(keys.seek(s.id) for s in table.seekers)],
                               args=[table_id, repr(now), json.dumps(fields), TABLE_KEPT,
                                     *(s.id for s in table.seekers)])
        return table_id if int(ok) else None

    async def resume(self, table_id: str, mark: float) -> Formed | None:
        """Form a claimed table (or finish forming it: every step is idempotent), then drop its outbox entry
        (unless marked again since `mark`). Returns the table's match (None: the table is gone, or could not be
        formed and its seekers went back to their pool)."""
        raw = await self.queue.hgetall(keys.seek_table(table_id))
        formed = None
        if raw:
            formed = await self._form(table_id, raw)
        await self._done(keys=[keys.seek_tables_pending(self.seeks.queue_name)], args=[table_id, repr(mark)])
        return formed

    async def _form(self, table_id: str, raw: dict[str, str]) -> Formed | None:
        match_id = raw["match"]
        planned = [PlannedSeat.from_json(item) for item in json.loads(raw["plan"])]
        loaded = await self.store.load(match_id)
        if loaded is None:
            try:
                await self._create(raw)
            except (DomainError, KeyError) as exc:  # the title or its options are no longer served here
                log.warning("table %s: its match could not be created (%r); seekers back in their pool", table_id,
                            exc)
                await self._back_to_pool(table_id, raw["pool"], planned)
                return None
            loaded = await self.store.load(match_id)
            if loaded is None:
                log.warning("table %s: its match %s vanished as it was created", table_id, match_id)
                return None
        for seat in planned:
            if loaded.status is not MatchStatus.WAITING:
                break
            if seat.seat in loaded.seats:
                continue
            try:
                await self.lobby.seat(loaded, seat.seat, seat.record())
            except LobbyError as exc:
                if exc.code not in CARRIED_OVER:
                    raise
            loaded = await self.store.load(match_id) or loaded
        now = time.time()
        seated = {}
        for seat in planned:
            if seat.seek is None:
                continue
            settled = await self._settle(keys=[keys.seek(seat.seek), keys.SEEKS_COUNTER],
                                         args=[table_id, match_id, seat.seat, repr(now), self.seeks.settings.kept])
            if int(settled) and seat.player is not None:
                seated[seat.seek] = seat.seat
                # once per seek (its dedupe key): a resumed table tells the player again, which writes nothing new
                await feed.emit(self.store, seat.player, FeedType.SEEK_MATCHED,
                                {"seekId": seat.seek, "matchId": match_id}, dedupe=f"seek:{seat.seek}")
        await self.queue.expire(keys.seek_table(table_id), TABLE_KEPT)
        return Formed(table_id, match_id, seated)

    async def _create(self, raw: dict[str, str]) -> None:
        title = titles.get(raw["title"])
        count = int(raw["seats"])
        options = title.check_options(count, json.loads(raw["options"]))
        seed = secrets.randbits(63)
        match = title.new_match(seats=count, seed=seed, options=options)
        # private: out of the lobby lists and closed to joins (only the table's seats are claimed); rated: the
        # ratings read this field; seekTable: where it came from
        extra = {"private": "1", "rated": "1", "seekTable": raw["id"]}
        await self.store.create(title.id, count, options, seed, match.to_dict(), None, match_id=raw["match"],
                                extra=extra)

    async def _back_to_pool(self, table_id: str, pool: str, planned: list[PlannedSeat]) -> None:
        for seat in planned:
            if seat.seek is not None:
                await self._release(keys=[keys.seek(seat.seek), self.seeks.pool_key(pool),
                                          keys.seek_pools(self.seeks.queue_name)], args=[table_id, pool])


async def nudge(seeks: Seeks, rq_queue: Queue, pool: str, stall_seconds: float) -> bool:
    """Queue a matching pass over the pool now unless one is queued (its guard lives stall_seconds at most, so a
    pass lost with a dead worker is queued again); return whether this call queued it."""
    guard = keys.seek_job_guard(seeks.queue_name, pool)
    if not await seeks.queue.set(guard, "1", nx=True, px=max(1, int(stall_seconds * 1000))):
        return False
    enqueue = functools.partial(rq_queue.enqueue, MATCH_SEEKS_JOB, pool, job_id=f"seeks-{pool}-{time.time_ns()}",
                                result_ttl=600, failure_ttl=7 * 24 * 3600, job_timeout=300)
    await anyio.to_thread.run_sync(enqueue)
    return True
