"""Redis persistence of live matches: create, load, claim seats, compare-and-set commits, events, lobby."""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from matches import keys
from matches.clocks import Clock, Timing
from matches.config import Settings

# Commit one step atomically: the version must still be the one the step was computed from.
# KEYS: state, log, events, meta, seats, idempotency (same hash slot; only written when ARGV[6] ~= ''), due-set
# (the one key outside the match's slot, see keys.due).
# ARGV: version, data, log entry, events, status, idempotency outcome, idempotency ttl, expire-after (0: keep),
# more meta fields (a JSON object of strings), due time ('': off the due-set), match id.
_COMMIT = """
local v = tonumber(redis.call('HGET', KEYS[1], 'v'))
if v ~= tonumber(ARGV[1]) then return {0, v or -1} end
local nv = v + 1
redis.call('HSET', KEYS[1], 'v', nv, 'data', ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[3], nv .. '-0', 'events', ARGV[4])
redis.call('HSET', KEYS[4], 'status', ARGV[5], 'version', nv)
for name, value in pairs(cjson.decode(ARGV[9])) do redis.call('HSET', KEYS[4], name, value) end
if ARGV[6] ~= '' then redis.call('SET', KEYS[6], ARGV[6], 'EX', tonumber(ARGV[7])) end
local ttl = tonumber(ARGV[8])
if ttl > 0 then
  for i = 1, 5 do redis.call('EXPIRE', KEYS[i], ttl) end
end
if ARGV[10] == '' then redis.call('ZREM', KEYS[7], ARGV[11]) else redis.call('ZADD', KEYS[7], ARGV[10], ARGV[11]) end
return {1, nv}
"""

# Set when the service must next look at a match, unless the match has moved on from the version this was
# computed at. KEYS: state, due-set; ARGV: version, due time ('': off the due-set), match id.
_RESCHEDULE = """
if tonumber(redis.call('HGET', KEYS[1], 'v')) ~= tonumber(ARGV[1]) then return 0 end
if ARGV[2] == '' then redis.call('ZREM', KEYS[2], ARGV[3]) else redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3]) end
return 1
"""

# Claim a seat of a waiting match. KEYS: meta, seats, due-set; ARGV: seat (-1: first free), seat record, seat
# count, now, watchdog time, match id. The claim that fills the match starts it: its clocks and abandonment
# time count from now, and it enters the due-set (the caller then sets the exact due time, or a reconciler
# does once the watchdog time comes).
_CLAIM = """
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return {-1, 0} end
local n = tonumber(ARGV[3])
local seat = tonumber(ARGV[1])
if seat < 0 then
  for s = 0, n - 1 do
    if redis.call('HSETNX', KEYS[2], s, ARGV[2]) == 1 then seat = s; break end
  end
  if seat < 0 then return {-2, 0} end
elseif redis.call('HSETNX', KEYS[2], seat, ARGV[2]) == 0 then
  return {-2, 0}
end
local full = 0
if redis.call('HLEN', KEYS[2]) == n then
  redis.call('HSET', KEYS[1], 'status', 'active', 'at', ARGV[4], 'lastHuman', ARGV[4])
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6])
  full = 1
end
return {seat, full}
"""


CURSOR_SLACK = 100  # matches created in the very same instant as the cursor's that a page may skip past


def hash_token(token: str) -> str:
    """The only form in which a secret token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Loaded:
    """A match as read from Redis in one round trip."""

    id: str
    meta: dict[str, str]
    seats: dict[int, dict[str, Any]]
    version: int
    data: dict[str, Any]
    engine: Any = field(default=None, repr=False, compare=False)  # the engine match of `data` once built: read only

    @property
    def status(self) -> str:
        """waiting | active | over."""
        return self.meta["status"]

    def meta_options(self) -> dict[str, Any]:
        """The options the match was created with."""
        options: dict[str, Any] = json.loads(self.meta.get("options", "{}"))
        return options

    def timing(self) -> Timing:
        """When the match last changed, when a person last acted, and its clock."""
        return Timing.from_meta(self.meta)

    @property
    def end_reason(self) -> str | None:
        """Why an over match ended ("finished" or "abandoned"); None while it is not over."""
        return self.meta.get("reason", "finished") if self.status == "over" else None

    @property
    def seat_count(self) -> int:
        """How many seats the match has."""
        return int(self.meta["seats"])

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is, or None."""
        if not token:
            return None
        digest = hash_token(token)
        for seat, record in self.seats.items():
            if secrets.compare_digest(record.get("tokenHash", ""), digest):
                return seat
        return None

    def is_host(self, token: str | None) -> bool:
        """Whether the token is the host token or any seat's token of this match."""
        if not token:
            return False
        if secrets.compare_digest(self.meta.get("hostHash", ""), hash_token(token)):
            return True
        return self.seat_of(token) is not None


@dataclass
class Committed:
    """The result of a compare-and-set commit."""

    ok: bool
    version: int


class MatchStore:
    """All Redis access for matches goes through here."""

    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis: Any = redis  # decode_responses=True: replies are str; redis-py's stubs cannot say so
        self.settings = settings
        self._commit = redis.register_script(_COMMIT)
        self._claim = redis.register_script(_CLAIM)
        self._reschedule = redis.register_script(_RESCHEDULE)
        self.due_key = keys.due(settings.queue)

    async def create(self, title: str, seats: int, options: dict[str, Any], seed: int,
                     data: dict[str, Any], clock: Clock | None = None) -> tuple[str, str]:
        """Store a new waiting match; return its id and the host token (shown once)."""
        match_id = secrets.token_hex(8)
        host_token = secrets.token_urlsafe(24)
        now = time.time()
        ttl = self.settings.waiting_ttl
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(keys.meta(match_id), mapping={
            "title": title, "seats": seats, "options": json.dumps(options), "seed": seed,
            "status": "waiting", "created": now, "version": 0, "hostHash": hash_token(host_token),
            **({"clock": clock.to_json()} if clock is not None else {}),
        })
        pipe.hset(keys.state(match_id), mapping={"v": 0, "data": json.dumps(data)})
        for key in (keys.meta(match_id), keys.state(match_id)):
            pipe.expire(key, ttl)
        pipe.zadd(keys.lobby("waiting"), {match_id: now})
        await pipe.execute()
        return match_id, host_token

    async def load(self, match_id: str) -> Loaded | None:
        """Read meta, seats and state together; None for an unknown (or expired) match."""
        if not _valid_id(match_id):
            return None
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(keys.meta(match_id))
        pipe.hgetall(keys.seats(match_id))
        pipe.hgetall(keys.state(match_id))
        meta, seats, state = await pipe.execute()
        if not meta or not state:
            return None
        return Loaded(
            id=match_id,
            meta=meta,
            seats={int(k): json.loads(v) for k, v in seats.items()},
            version=int(state["v"]),
            data=json.loads(state["data"]),
        )

    async def claim_seat(self, match_id: str, seat: int | None, record: dict[str, Any],
                         seat_count: int) -> tuple[int, bool] | str:
        """Take a seat (None: the first free one); return (seat, now full) or "not-waiting" / "taken"."""
        now = time.time()
        result = await self._claim(keys=[keys.meta(match_id), keys.seats(match_id), self.due_key],
                                   args=[-1 if seat is None else seat, json.dumps(record), seat_count, repr(now),
                                         repr(now + self.settings.stall_seconds), match_id])
        got, full = int(result[0]), bool(int(result[1]))
        if got == -1:
            return "not-waiting"
        if got == -2:
            return "taken"
        if full:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrem(keys.lobby("waiting"), match_id)
            pipe.zadd(keys.lobby("active"), {match_id: time.time()})
            for key in keys.all_of(match_id):
                pipe.persist(key)
            await pipe.execute()
        else:
            await self.redis.expire(keys.seats(match_id), self.settings.waiting_ttl)
        return got, full

    async def commit(self, loaded: Loaded, data: dict[str, Any], entry: dict[str, Any],
                     events: list[dict[str, Any]], over: bool, timing: Timing, due: float | None,
                     idempotency: tuple[str, str] | None = None, reason: str | None = None) -> Committed:
        """Save one applied step if the stored version is still loaded.version (compare-and-set).

        In the same atomic write: the new timing (meta), the match's due time (None: off the due-set), the
        idempotency outcome (key, outcome JSON) and the reason an ending match ended.
        """
        match_id = loaded.id
        idem_key, idem_value = idempotency or (keys.idempotency(match_id, -1, "-"), "")
        result = await self._commit(
            keys=[keys.state(match_id), keys.log(match_id), keys.events(match_id), keys.meta(match_id),
                  keys.seats(match_id), idem_key, self.due_key],
            args=[loaded.version, json.dumps(data), json.dumps(entry), json.dumps(events),
                  "over" if over else "active", idem_value, self.settings.idempotency_ttl,
                  self.settings.finished_ttl if over else 0,
                  json.dumps({**timing.fields(), **({"reason": reason} if reason else {})}),
                  "" if due is None or over else repr(due), match_id],
        )
        committed = Committed(bool(int(result[0])), int(result[1]))
        if committed.ok and over:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrem(keys.lobby("active"), match_id)
            pipe.zadd(keys.lobby("over"), {match_id: time.time()})
            await pipe.execute()
        return committed

    async def reschedule(self, match_id: str, version: int, due: float | None) -> bool:
        """Set the match's due time unless it has moved on from `version`; return whether it was set."""
        done = await self._reschedule(keys=[keys.state(match_id), self.due_key],
                                      args=[version, "" if due is None else repr(due), match_id])
        return bool(int(done))

    async def remembered(self, match_id: str, seat: int, key: str) -> dict[str, Any] | None:
        """The first outcome of an act with this idempotency key, if any."""
        raw = await self.redis.get(keys.idempotency(match_id, seat, key))
        return None if raw is None else json.loads(raw)

    async def remember(self, match_id: str, seat: int, key: str, outcome: dict[str, Any]) -> dict[str, Any]:
        """Remember a refused act's outcome unless one is already there; return the one that holds."""
        full = keys.idempotency(match_id, seat, key)
        if await self.redis.set(full, json.dumps(outcome), nx=True, ex=self.settings.idempotency_ttl):
            return outcome
        raw = await self.redis.get(full)
        return outcome if raw is None else json.loads(raw)

    async def events_after(self, match_id: str, after: int, count: int = 1000) -> list[tuple[int, list[Any]]]:
        """The stored steps after a version: (version, events) in order."""
        rows = await self.redis.xrange(keys.events(match_id), min=f"({after}-0", max="+", count=count)
        return [(int(entry_id.split("-")[0]), json.loads(fields["events"])) for entry_id, fields in rows]

    async def wait_events(self, match_id: str, after: int, block_ms: int) -> list[tuple[int, list[Any]]]:
        """Block up to block_ms for steps after a version (a Redis Stream read; resumable by version)."""
        reply = await self.redis.xread({keys.events(match_id): f"{after}-0"}, count=500, block=block_ms)
        out: list[tuple[int, list[Any]]] = []
        for _stream, rows in reply or []:
            out.extend((int(entry_id.split("-")[0]), json.loads(fields["events"])) for entry_id, fields in rows)
        return out

    async def list_ids(self, status: str, first: int, after: str | None) -> tuple[list[str], bool, str | None]:
        """Match ids of a status, newest first, after a cursor; whether more follow; the page's end cursor.

        A cursor is "<score>:<id>" of the last item seen, so it stays valid when that match leaves the list.
        """
        lobby = keys.lobby(status)
        if after:
            score_text, _, last_id = after.partition(":")
            try:
                score = float(score_text)
            except ValueError:
                return [], False, None
            rows = await self.redis.zrevrangebyscore(lobby, score, "-inf", start=0, num=first + 1 + CURSOR_SLACK,
                                                     withscores=True)
            # equal scores come in reverse id order: drop those at or before the cursor
            rows = [(m, s) for m, s in rows if not (s == score and m >= last_id)]
        else:
            rows = await self.redis.zrevrange(lobby, 0, first, withscores=True)
        page = rows[:first]
        cursor = f"{page[-1][1]!r}:{page[-1][0]}" if page else None
        return [m for m, _ in page], len(rows) > first, cursor

    async def prune_lobby(self, status: str, match_ids: list[str]) -> None:
        """Drop lobby entries whose match has expired."""
        if match_ids:
            await self.redis.zrem(keys.lobby(status), *match_ids)


def _valid_id(match_id: str) -> bool:
    return isinstance(match_id, str) and 0 < len(match_id) <= 64 and all(c in "0123456789abcdef" for c in match_id)
