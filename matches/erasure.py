"""Taking a deleted player out of the matches Redis holds (players/deletion.py says when; the workers' deletion job,
workers/account_deletion.py, calls this for every match of the player's index).

What happens to the player's seat depends on where the match is:
- waiting: the seat is left (it frees; the seat's token stops working), as if its player had left it;
- active: the seat resigns (ruling P18 ranks the others as the match stood, or the takeover bot plays it to the
  end) in one compare-and-set step that also erases the seat's record: named DELETED_NAME, bound to no player, its
  token hash gone (SeatRecord.erased); a seat that had resigned already is erased in place;
- over: the seat's record is erased in place, in the live seats hash or in the packed value an over match is kept
  as (keys.archive), each by a script that writes only if the record (or value) is still the one read.
Every call is idempotent: a seat already erased is not the player's any more, and is left alone. The match forgets
that the player created it (meta hostPlayer), and the invitations the player sent to it are withdrawn (the invited
hash loses them; `told` collects the invited players, whose feeds the deletion job then cleans).
"""

from __future__ import annotations

import hashlib
from typing import Any

from firebreak.matches import connections, keys, packing
from firebreak.matches.lifecycle import MatchStatus, SeatControl, SeatRecord
from firebreak.matches.refusals import Refusal
from firebreak.matches.seatlife import SeatError, SeatLife
from firebreak.matches.store import Loaded, MatchStore

ATTEMPTS = 20  # rounds against a match that keeps changing status under the erasure

# KEYS: the seats hash. ARGV: seat, the player id, the erased record (JSON). Write it if the seat is the player's.
_ERASE_LIVE = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
if cjson.decode(raw)['player'] ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""

# KEYS: the packed over match. ARGV: the SHA-1 of the value read, the new value. Replace it (keeping its time to
# live) if it is still the value read.
_ERASE_PACKED = """
local raw = redis.call('GET', KEYS[1])
if not raw or redis.sha1hex(raw) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
"""

# KEYS: a match's meta, its invited hash. ARGV: the player id. Forget that the player created the match, and drop
# the invitations it sent; answer the players whose invitations were dropped.
_UNHOST = """
if redis.call('HGET', KEYS[1], 'hostPlayer') == ARGV[1] then redis.call('HDEL', KEYS[1], 'hostPlayer') end
local dropped = {}
local all = redis.call('HGETALL', KEYS[2])
for i = 1, #all, 2 do
  local ok, record = pcall(cjson.decode, all[i + 1])
  if ok and type(record) == 'table' and record['by'] == ARGV[1] then
    redis.call('HDEL', KEYS[2], all[i])
    table.insert(dropped, all[i])
  end
end
return dropped
"""


class Erasure:
    """Erases a deleted player from matches, over the store and the seats' life (its resignation)."""

    def __init__(self, store: MatchStore, seats: SeatLife, name: str) -> None:
        self.store = store
        self.seats = seats
        self.name = name
        self._live = connections.Script(store.redis, _ERASE_LIVE)
        self._packed = connections.Script(store.redis, _ERASE_PACKED)
        self._unhost = connections.Script(store.redis, _UNHOST)
        self.told: set[str] = set()  # the invited and the co-players: whose feeds may name the erased player

    async def erase(self, match_id: str, player: str) -> str:
        """Take the player out of one match; return what was done: "left", "resigned", "erased", "absent" (no seat
        of the match is the player's any more) or "gone" (Redis no longer holds the match)."""
        for _attempt in range(ATTEMPTS):
            loaded = await self.store.load(match_id)
            if loaded is None:
                return "gone"
            seat = next((s for s, r in loaded.seats.items() if r.player == player), None)
            self.told.update(r.player for r in loaded.seats.values() if r.player not in (None, player))
            self.told.update(await self._unhost(keys=[keys.meta(match_id), keys.invited(match_id)], args=[player]))
            if seat is None:
                return "absent"
            outcome = await self._erase_seat(loaded, seat)
            if outcome is not None:
                return outcome
        raise SeatError(Refusal.STALE_VERSION, f"match {match_id} kept changing; the deletion tries again later")

    async def _erase_seat(self, loaded: Loaded, seat: int) -> str | None:
        record = loaded.seats[seat]
        if loaded.status is MatchStatus.WAITING and record.token_hash is not None:
            try:
                await self.seats.leave(loaded.id, seat)
            except SeatError as exc:
                if exc.code in (Refusal.MATCH_STARTED, Refusal.UNAUTHORIZED):
                    return None  # it started (or the seat changed) meanwhile: look again
                raise
            return "left"
        if loaded.status is MatchStatus.ACTIVE and record.control is not SeatControl.RESIGNED:
            try:
                await self.seats.resign_erased(loaded.id, seat, record.player or "", self.name)
            except SeatError as exc:
                if exc.code in (Refusal.MATCH_OVER, Refusal.SEAT_RESIGNED, Refusal.MATCH_NOT_STARTED,
                                Refusal.UNAUTHORIZED, Refusal.NOT_TAKEN_OVER):
                    return None  # it ended, or the seat resigned, meanwhile: look again
                raise
            return "resigned"
        if await self._in_place(loaded, seat, record):
            return "erased"
        return None

    async def _in_place(self, loaded: Loaded, seat: int, record: SeatRecord) -> bool:
        """Erase the seat's record where the match keeps it, without a new version (a waiting seat bound to no
        token, a resigned seat, an over match); whether it was written."""
        erased = packing.dumps(record.erased(self.name).to_json())
        player = record.player or ""
        if await self._live(keys=[keys.seats(loaded.id)], args=[seat, player, erased]):
            return True
        raw: Any = await self.store.redis.get(keys.archive(loaded.id))
        if raw is None:
            return False
        packed = packing.unpack(raw)
        stored = packed["seats"].get(str(seat))
        if stored is None or stored.get("player") != player:
            return False
        packed["seats"][str(seat)] = record.erased(self.name).to_json()
        if packed["meta"].get("hostPlayer") == player:
            del packed["meta"]["hostPlayer"]
        digest = hashlib.sha1(raw.encode() if isinstance(raw, str) else raw).hexdigest()
        return bool(int(await self._packed(keys=[keys.archive(loaded.id)], args=[digest, packing.pack(packed)])))

    async def scrub_feeds(self, player: str) -> int:
        """Delete the events that name the player (an invitation it sent: "by") from the feeds of the players
        `told` collected (each feed is bounded: feed.FEED_KEPT events); return how many went."""
        gone = 0
        for other in sorted(self.told):
            entries = await self.store.redis.xrange(keys.feed(other))
            named = [entry_id for entry_id, fields in entries if f'"by":"{player}"' in fields.get("e", "")]
            if named:
                gone += int(await self.store.redis.xdel(keys.feed(other), *named))
        return gone
