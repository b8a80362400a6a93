"""Seeks: a signed-in player asks for a game of a title, seat count and options, and waits in that pool until the
workers seat it at a table of compatible seekers (matchmaking/tables.py), it cancels, or it expires.

Every seek key is on the queue Redis (one plain server: matches/keys.py), so each change of a seek is one script:
making it (with the per-player limit checked in the same script), cancelling it, expiring it, and the claims and
settlements of matchmaking/tables.py. A seek's status moves waiting -> matching (claimed into a table) -> matched,
or waiting -> cancelled / expired (or matching -> waiting again, if its table cannot be formed); every move checks
the status it moves from, so no two writers ever move one seek twice.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firebreak.archive.database import Database
from firebreak.domain import titles
from firebreak.domain.errors import DomainError
from firebreak.matches import connections, keys
from firebreak.matches.refusals import Refusal
from firebreak.matchmaking.config import SeekSettings
from firebreak.ratings.board import rating_of


class SeekStatus(StrEnum):
    """Where a seek is in its life."""

    WAITING = "waiting"
    MATCHING = "matching"   # claimed into a table that the workers are forming into a match
    MATCHED = "matched"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class SeekError(Exception):
    """A seek request refused; code is a registered refusal (or a title's own code for its options)."""

    def __init__(self, code: str, message: str, status: SeekStatus | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


# Make a seek unless the player already seeks in its pool or holds the most open seeks. KEYS: seek hash, pool,
# pools, the player's seeks, the counters; ARGV: seek id, fields JSON, limit, now, pool, kept seconds, the seek key
# prefix, the pool key prefix.
# A waiting seek of the player found past its expiry is expired on the way. Returns 'ok', 'pool' or 'many'.
SEEK = """
local open = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
  local key = ARGV[7] .. id
  local status, pool, expires = unpack(redis.call('HMGET', key, 'status', 'pool', 'expires'))
  if status == 'waiting' and tonumber(expires) <= tonumber(ARGV[4]) then
    redis.call('HSET', key, 'status', 'expired', 'ended', ARGV[4])
    redis.call('ZREM', ARGV[8] .. pool, id)
    redis.call('EXPIRE', key, ARGV[6])
    redis.call('HINCRBY', KEYS[5], 'expired', 1)
  elseif status == 'waiting' or status == 'matching' then
    if pool == ARGV[5] then return 'pool' end
    open = open + 1
  elseif not status then
    redis.call('ZREM', KEYS[4], id)
  end
end
if open >= tonumber(ARGV[3]) then return 'many' end
local fields = cjson.decode(ARGV[2])
for name, value in pairs(fields) do redis.call('HSET', KEYS[1], name, value) end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
if redis.call('ZCARD', KEYS[4]) > 50 then redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -51) end
return 'ok'
"""

# Cancel a waiting seek of the player. KEYS: seek hash, its pool, the counters; ARGV: player, now, kept seconds.
# Returns 'ok', 'none' (no such seek of the player), or the status it is in ('expired' when found past its time).
CANCEL = """
local player, status, expires = unpack(redis.call('HMGET', KEYS[1], 'player', 'status', 'expires'))
if not player or player ~= ARGV[1] then return 'none' end
if status ~= 'waiting' then return status end
local outcome = 'cancelled'
if tonumber(expires) <= tonumber(ARGV[2]) then outcome = 'expired' end
redis.call('HSET', KEYS[1], 'status', outcome, 'ended', ARGV[2])
redis.call('ZREM', KEYS[2], redis.call('HGET', KEYS[1], 'id'))
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('HINCRBY', KEYS[3], outcome, 1)
if outcome == 'expired' then return 'expired' end
return 'ok'
"""

# Expire a waiting seek past its time. KEYS: seek hash, its pool, the counters; ARGV: now, kept seconds.
# Returns 1 if it did.
EXPIRE = """
local status, expires, id = unpack(redis.call('HMGET', KEYS[1], 'status', 'expires', 'id'))
if status ~= 'waiting' or tonumber(expires) > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'status', 'expired', 'ended', ARGV[1])
redis.call('ZREM', KEYS[2], id)
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('HINCRBY', KEYS[3], 'expired', 1)
return 1
"""

SEEK_PREFIX = keys.seek("")  # the key of seek <id> is this prefix and the id (the SEEK script builds it so)


@dataclass(frozen=True)
class Pool:
    """What a seek asks for: a title, a seat count and the title's options, canonical (defaults filled in), so
    that equal requests land in one pool."""

    title: str
    seats: int
    options: dict[str, Any]

    @property
    def id(self) -> str:
        """The pool's id: a digest of its canonical form."""
        text = json.dumps([self.title, self.seats, self.options], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    @classmethod
    def of(cls, title_id: str, seats: int, options: dict[str, Any] | None) -> Pool:
        """The pool of a request, checked by the title (SeekError UNKNOWN_TITLE, BAD_OPTIONS or the title's code)."""
        try:
            title = titles.get(title_id)
            used = title.check_options(seats, options)
        except DomainError as exc:
            raise SeekError(exc.code, str(exc)) from None
        canonical: dict[str, Any] = json.loads(json.dumps(used, sort_keys=True))
        return cls(title.id, seats, canonical)


@dataclass(frozen=True)
class Seek:
    """One seek as stored."""

    id: str
    player: str
    name: str
    program: bool
    pool: Pool
    rating: float | None
    created: float
    expires: float
    bots_after: float | None
    status: SeekStatus
    table: str | None = None
    match_id: str | None = None
    seat: int | None = None
    ended: float | None = None

    def waited(self, now: float) -> float:
        """Seconds the seek has waited by now."""
        return max(0.0, now - self.created)

    def wants_bots(self, now: float) -> bool:
        """Whether the seek asked for bots and has waited for them long enough."""
        return self.bots_after is not None and self.waited(now) >= self.bots_after

    def shown_status(self, now: float) -> SeekStatus:
        """The status as a reader sees it: a waiting seek past its time is expired (the workers sweep it soon)."""
        if self.status is SeekStatus.WAITING and now >= self.expires:
            return SeekStatus.EXPIRED
        return self.status

    def fields(self) -> dict[str, str]:
        """The stored hash."""
        out = {"id": self.id, "player": self.player, "name": self.name, "program": "1" if self.program else "0",
               "title": self.pool.title, "seats": str(self.pool.seats),
               "options": json.dumps(self.pool.options, sort_keys=True, separators=(",", ":")),
               "pool": self.pool.id, "rating": "" if self.rating is None else repr(self.rating),
               "created": repr(self.created), "expires": repr(self.expires),
               "botsAfter": "" if self.bots_after is None else repr(self.bots_after), "status": self.status.value}
        return out

    @classmethod
    def from_fields(cls, raw: dict[str, str]) -> Seek:
        """Read a stored hash."""
        pool = Pool(raw["title"], int(raw["seats"]), json.loads(raw["options"]))
        return cls(id=raw["id"], player=raw["player"], name=raw["name"], program=raw.get("program") == "1",
                   pool=pool, rating=_number(raw.get("rating")), created=float(raw["created"]),
                   expires=float(raw["expires"]), bots_after=_number(raw.get("botsAfter")),
                   status=SeekStatus(raw["status"]), table=raw.get("table") or None,
                   match_id=raw.get("match") or None,
                   seat=None if not raw.get("seat") else int(raw["seat"]), ended=_number(raw.get("ended")))


def _number(raw: str | None) -> float | None:
    return None if raw is None or raw == "" else float(raw)


async def seeker_rating(db: Database, player: str, title: str) -> float | None:
    """The one place where a seeker's rating is looked up when a seek is made (both API surfaces call it): the
    player's displayed rating of the title (ratings/), None for a player with no rated match of it yet (who meets
    anyone)."""

    def look(conn_db: Database) -> float | None:
        with conn_db.read() as conn:
            found = rating_of(conn, title, player)
        return None if found is None else float(found.display)

    return await db.run(look, db)


class Seeks:
    """Seek operations over the queue Redis (decode_responses=True)."""

    def __init__(self, queue: Any, queue_name: str, settings: SeekSettings | None = None) -> None:
        self.queue = queue
        self.queue_name = queue_name  # the service's queue (FIREBREAK_QUEUE): pools are per queue
        self.settings = settings or SeekSettings.from_env()
        self._seek = connections.Script(queue, SEEK)
        self._cancel = connections.Script(queue, CANCEL)
        self._expire = connections.Script(queue, EXPIRE)

    async def create(self, player: str, name: str, title: str, seats: int, options: dict[str, Any] | None,
                     bots_after: float | None, rating: float | None, program: bool = False) -> Seek:
        """Put a player in the pool of (title, seats, options) with its rating (None: unrated); bots_after (None:
        never) is how long it waits before a short table is filled with the title's bots. Refused with SeekError:
        UNKNOWN_TITLE / BAD_OPTIONS (or the title's code), BAD_BOTS_AFTER, TOO_MANY_SEEKS (already seeking in this
        pool, or holding settings.per_player open seeks)."""
        pool = Pool.of(title, seats, options)
        if bots_after is not None and not 0 <= bots_after < self.settings.ttl:
            raise SeekError(Refusal.BAD_BOTS_AFTER, f"botsAfterSeconds must be 0 to below {self.settings.ttl:g} "
                                              "(the seek's lifetime)")
        now = time.time()
        seek = Seek(id=secrets.token_hex(8), player=player, name=name, program=program, pool=pool, rating=rating,
                    created=now, expires=now + self.settings.ttl, bots_after=bots_after, status=SeekStatus.WAITING)
        answer = await self._seek(keys=[keys.seek(seek.id), self.pool_key(pool.id), keys.seek_pools(self.queue_name),
                                        keys.player_seeks(player), keys.SEEKS_COUNTER],
                                  args=[seek.id, json.dumps(seek.fields()), self.settings.per_player, repr(now),
                                        pool.id, self.settings.kept, SEEK_PREFIX, self.pool_key("")])
        if answer == "pool":
            raise SeekError(Refusal.TOO_MANY_SEEKS,
                            "you are already seeking a game of this title, seat count and options")
        if answer == "many":
            raise SeekError(Refusal.TOO_MANY_SEEKS,
                            f"you hold {self.settings.per_player} open seeks already: cancel one")
        return seek

    def pool_key(self, pool: str) -> str:
        """The key of a pool of this service's queue."""
        return keys.seek_pool(self.queue_name, pool)

    async def get(self, seek_id: str, player: str | None = None) -> Seek | None:
        """A seek by id (None: unknown, long gone, or not the given player's)."""
        if not _valid(seek_id):
            return None
        raw = await self.queue.hgetall(keys.seek(seek_id))
        if not raw:
            return None
        seek = Seek.from_fields(raw)
        return seek if player is None or seek.player == player else None

    async def of_player(self, player: str) -> list[Seek]:
        """The player's kept seeks, newest first."""
        ids = await self.queue.zrevrange(keys.player_seeks(player), 0, -1)
        pipe = self.queue.pipeline(transaction=False)
        for seek_id in ids:
            pipe.hgetall(keys.seek(seek_id))
        return [Seek.from_fields(raw) for raw in await pipe.execute() if raw]

    async def cancel(self, seek_id: str, player: str) -> Seek:
        """Cancel the player's waiting seek; SeekError SEEK_NOT_FOUND, or SEEK_NOT_WAITING (with its status)."""
        seek = await self.get(seek_id, player)
        if seek is None:
            raise SeekError(Refusal.SEEK_NOT_FOUND, f"you have no seek {seek_id!r}")
        answer = await self._cancel(keys=[keys.seek(seek.id), self.pool_key(seek.pool.id), keys.SEEKS_COUNTER],
                                    args=[player, repr(time.time()), self.settings.kept])
        if answer == "none":
            raise SeekError(Refusal.SEEK_NOT_FOUND, f"you have no seek {seek_id!r}")
        if answer != "ok":
            status = SeekStatus(answer)
            raise SeekError(Refusal.SEEK_NOT_WAITING, f"the seek is {status.value}, no longer waiting", status)
        cancelled = await self.get(seek.id)
        assert cancelled is not None
        return cancelled

    async def expire(self, seek: Seek, now: float) -> bool:
        """Expire a waiting seek past its time; return whether this call did."""
        done = await self._expire(keys=[keys.seek(seek.id), self.pool_key(seek.pool.id), keys.SEEKS_COUNTER],
                                  args=[repr(now), self.settings.kept])
        return bool(int(done))


def _valid(seek_id: str) -> bool:
    return isinstance(seek_id, str) and 0 < len(seek_id) <= 64 and all(c in "0123456789abcdef" for c in seek_id)
