"""Redis persistence of live matches: create, load, claim seats, compare-and-set commits, events, lobby."""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from matches import connections, keys
from matches.clocks import Clock, Timing
from matches.config import Settings

# Store a new waiting match. KEYS: meta, state (one hash slot); ARGV: meta fields (a JSON object of strings),
# state data, ttl.
_CREATE = """
for name, value in pairs(cjson.decode(ARGV[1])) do redis.call('HSET', KEYS[1], name, value) end
redis.call('HSET', KEYS[2], 'v', 0, 'data', ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
return 1
"""

# Commit one step atomically: the version must still be the one the step was computed from.
# KEYS: state, log, events, meta, seats, idempotency (one hash slot; the last only written when ARGV[6] ~= '').
# ARGV: version, data, log entry, events, status, idempotency outcome, idempotency ttl, expire-after (0: keep),
# more meta fields (a JSON object of strings). The due-set lives on the queue Redis: see MatchStore.commit.
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
return {1, nv}
"""

# On the queue Redis: set when the service must next look at a match as of a version, unless a later version's
# time is already there (writes from two versions may arrive in either order). KEYS: due-set, due versions;
# ARGV: match id, version, due time ('': off the due-set).
_SET_DUE = """
local known = tonumber(redis.call('HGET', KEYS[2], ARGV[1]))
if known and known > tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 1
"""

# Read a match in one round trip, as one snapshot. KEYS: meta, seats, state. (A script rather than a pipeline:
# redis-py's asyncio cluster pipeline, mixed with other commands under load, closed connections that other
# requests were using.)
_LOAD = """
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3])}
"""

# Claim a seat of a waiting match. KEYS: meta, seats, state, log, events; ARGV: seat (-1: first free), seat
# record, seat count, now, waiting ttl. The claim that fills the match starts it: its clocks and abandonment
# time count from now, and its keys stop expiring (the caller wrote a due entry "look soon" before, and sets
# the exact due time after); a claim that does not fill it gives the seats the waiting match's time to live.
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
  for i = 1, 5 do redis.call('PERSIST', KEYS[i]) end
  full = 1
else
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[5]))
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
    """All Redis access for matches goes through here: a match's own keys on the matches Redis (`redis`: plain
    or cluster, each operation inside the match's slot), the due-set and lobby on the queue Redis (`queue`;
    the same client by default).

    Writes to the two cannot be atomic together, so they are ordered for a crash between any two to strand
    nothing: a due entry "look soon" before a write that may leave the service something to do (a reconciler
    finding nothing due drops or reschedules it), the exact due time after it; the lobby after the match (an
    orphan match expires, a listed match that is gone is pruned).
    """

    def __init__(self, redis: Any, settings: Settings, queue: Redis | None = None) -> None:
        self.redis: Any = redis  # decode_responses=True: replies are str; redis-py's stubs cannot say so
        self.queue: Any = redis if queue is None else queue
        self.settings = settings
        self._create = connections.Script(redis, _CREATE)
        self._commit = connections.Script(redis, _COMMIT)
        self._claim = connections.Script(redis, _CLAIM)
        self._load = connections.Script(redis, _LOAD)
        self._set_due = connections.Script(self.queue, _SET_DUE)
        self.due_key = keys.due(settings.queue)
        self.due_versions_key = keys.due_versions(settings.queue)

    async def create(self, title: str, seats: int, options: dict[str, Any], seed: int,
                     data: dict[str, Any], clock: Clock | None = None) -> tuple[str, str]:
        """Store a new waiting match; return its id and the host token (shown once)."""
        match_id = secrets.token_hex(8)
        host_token = secrets.token_urlsafe(24)
        now = time.time()
        meta = {"title": title, "seats": str(seats), "options": json.dumps(options), "seed": str(seed),
                "status": "waiting", "created": repr(now), "version": "0", "hostHash": hash_token(host_token),
                **({"clock": clock.to_json()} if clock is not None else {})}
        await self._create(keys=[keys.meta(match_id), keys.state(match_id)],
                           args=[json.dumps(meta), json.dumps(data), self.settings.waiting_ttl])
        await self.queue.zadd(keys.lobby("waiting"), {match_id: now})
        return match_id, host_token

    async def load(self, match_id: str) -> Loaded | None:
        """Read meta, seats and state together; None for an unknown (or expired) match."""
        if not _valid_id(match_id):
            return None
        meta, seats, state = (_pairs(flat) for flat in await self._load(
            keys=[keys.meta(match_id), keys.seats(match_id), keys.state(match_id)]))
        if not meta or not state:
            return None
        return Loaded(
            id=match_id,
            meta=meta,
            seats={int(k): json.loads(v) for k, v in seats.items()},
            version=int(state["v"]),
            data=json.loads(state["data"]),
        )

    async def status(self, match_id: str) -> str | None:
        """The match's status (waiting, active, over), or None for an unknown (or expired) match."""
        status: str | None = await self.redis.hget(keys.meta(match_id), "status")
        return status

    async def claim_seat(self, match_id: str, seat: int | None, record: dict[str, Any],
                         seat_count: int) -> tuple[int, bool] | str:
        """Take a seat (None: the first free one); return (seat, now full) or "not-waiting" / "taken"."""
        now = time.time()
        await self.look_soon(match_id, now)  # this claim may start the match
        result = await self._claim(keys=[keys.meta(match_id), keys.seats(match_id), keys.state(match_id),
                                         keys.log(match_id), keys.events(match_id)],
                                   args=[-1 if seat is None else seat, json.dumps(record), seat_count, repr(now),
                                         self.settings.waiting_ttl])
        got, full = int(result[0]), bool(int(result[1]))
        if got == -1:
            return "not-waiting"
        if got == -2:
            return "taken"
        if full:
            pipe = self.queue.pipeline(transaction=False)
            pipe.zrem(keys.lobby("waiting"), match_id)
            pipe.zadd(keys.lobby("active"), {match_id: time.time()})
            await pipe.execute()
        return got, full

    async def commit(self, loaded: Loaded, data: dict[str, Any], entry: dict[str, Any],
                     events: list[dict[str, Any]], over: bool, timing: Timing, due: float | None,
                     idempotency: tuple[str, str] | None = None, reason: str | None = None) -> Committed:
        """Save one applied step if the stored version is still loaded.version (compare-and-set).

        In the same atomic write: the new timing (meta), the idempotency outcome (key, outcome JSON) and the
        reason an ending match ended. Around it, on the queue Redis: the due entry "look soon" before, the
        match's due time (None: off the due-set) after.
        """
        match_id = loaded.id
        idem_key, idem_value = idempotency or (keys.idempotency(match_id, -1, "-"), "")
        await self.look_soon(match_id)
        result = await self._commit(
            keys=[keys.state(match_id), keys.log(match_id), keys.events(match_id), keys.meta(match_id),
                  keys.seats(match_id), idem_key],
            args=[loaded.version, json.dumps(data), json.dumps(entry), json.dumps(events),
                  "over" if over else "active", idem_value, self.settings.idempotency_ttl,
                  self.settings.finished_ttl if over else 0,
                  json.dumps({**timing.fields(), **({"reason": reason} if reason else {})})],
        )
        committed = Committed(bool(int(result[0])), int(result[1]))
        if committed.ok:
            await self.set_due(match_id, committed.version, None if over else due)
        if committed.ok and over:
            pipe = self.queue.pipeline(transaction=False)
            pipe.zrem(keys.lobby("active"), match_id)
            pipe.zadd(keys.lobby("over"), {match_id: time.time()})
            await pipe.execute()
        return committed

    async def look_soon(self, match_id: str, now: float | None = None) -> None:
        """Make the match due within stall_seconds at the latest (an earlier due time stays): written before a
        write that may leave the service something to do, so that a crash right after it strands nothing."""
        soon = (time.time() if now is None else now) + self.settings.stall_seconds
        await self.queue.zadd(self.due_key, {match_id: soon}, lt=True)

    async def set_due(self, match_id: str, version: int, due: float | None) -> bool:
        """Set the match's due time as of a version (None: off the due-set) unless a later version's is there."""
        done = await self._set_due(keys=[self.due_key, self.due_versions_key],
                                   args=[match_id, version, "" if due is None else repr(due)])
        return bool(int(done))

    async def reschedule(self, match_id: str, version: int, due: float | None) -> bool:
        """Set the match's due time unless it has moved on from `version`; return whether it was set."""
        stored = await self.redis.hget(keys.state(match_id), "v")
        if stored is None or int(stored) != version:
            return False
        return await self.set_due(match_id, version, due)

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
            rows = await self.queue.zrevrangebyscore(lobby, score, "-inf", start=0, num=first + 1 + CURSOR_SLACK,
                                                     withscores=True)
            # equal scores come in reverse id order: drop those at or before the cursor
            rows = [(m, s) for m, s in rows if not (s == score and m >= last_id)]
        else:
            rows = await self.queue.zrevrange(lobby, 0, first, withscores=True)
        page = rows[:first]
        cursor = f"{page[-1][1]!r}:{page[-1][0]}" if page else None
        return [m for m, _ in page], len(rows) > first, cursor

    async def prune_lobby(self, status: str, match_ids: list[str]) -> None:
        """Drop lobby entries whose match has expired."""
        if match_ids:
            await self.queue.zrem(keys.lobby(status), *match_ids)


def _pairs(flat: list[str]) -> dict[str, str]:
    """A hash from HGETALL's flat reply inside a script (field, value, field, value...)."""
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _valid_id(match_id: str) -> bool:
    return isinstance(match_id, str) and 0 < len(match_id) <= 64 and all(c in "0123456789abcdef" for c in match_id)
