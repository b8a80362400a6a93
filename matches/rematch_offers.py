"""Rematch offers: a new match with the same occupants is made only once every person of the over match agreed.

Any seat holder of an over match offers a rematch (offerRematch; the older rematch call does the same); every other
person (a seat bound to a player, or an anonymous seat's token holder) accepts or declines it; bot seats accept at
once. Offering while an offer stands accepts it. The last acceptance makes the rematch by matches/rematch.py's
exactly-once steps (claim, create, seat every occupant); a decline ends the offer, and an offer nobody finished
expires after settings.rematch_offer_seconds. After a decline or an expiry anyone may offer again (a new offer,
numbered n + 1, with every answer cleared).

The offer lives in one hash in the over match's slot (keys.rematch_offer: status, n, by, expiresAt and a field per
seat: "a" accepted, "d" declined) changed only by one script, so racing answers from any number of API processes
agree: exactly one of them sees the status become accepted, and every later one sees it accepted. The rematch's id
is claimed when the offer is made (so the rematchOffered event names it); the match is created only on acceptance.
An acceptance first writes matches/rematch.py's outbox entry: a process killed after the last acceptance leaves an
accepted offer that the reconciler's resume job turns into the match. Expiry is a timer: the offer's id scored by
its expiry in keys.REMATCH_OFFERS, which the reconciler hands, once due, to a job (expire) that ends the offer and
tells the players; a read or an answer after the expiry time sees it expired even before that job ran.

Events (each player's feed, matches/feed.py, hence the webhooks): rematchOffered to the other players, then
rematchAccepted (to the others, per acceptance), rematchDeclined or rematchExpired (to everyone), rematchStarted
once the new match exists (matches/rematch.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from firebreak.matches import connections, feed, keys, mine
from firebreak.matches.callers import Caller
from firebreak.matches.feed import FeedType
from firebreak.matches.lifecycle import MatchStatus, SeatKind
from firebreak.matches.lobby import Lobby, LobbyError
from firebreak.matches.refusals import Refusal
from firebreak.matches.rematch import Rematched, Rematches, rotated
from firebreak.matches.store import Loaded

OPEN, ACCEPTED, DECLINED, EXPIRED = "open", "accepted", "declined", "expired"
STATUSES = (OPEN, ACCEPTED, DECLINED, EXPIRED)  # an offer's statuses (upper-cased on the API surfaces)
EXPIRE_JOB = "firebreak.workers.jobs.rematch_expire"  # by name: this layer never imports the workers package

# Answer an over match's rematch offer. KEYS: the offer hash. ARGV: action (offer, accept, decline, expire), now,
# the caller's seat, offer seconds, keep seconds, the persons' seats (comma-separated), the bots' seats. Returns
# {status after the call ('none': no offer stands for accept/decline), n, what this call did (0 nothing, 1 an
# acceptance, 2 a new offer), 1 if this call found the offer expired}.
ANSWER = """
local h = KEYS[1]
local action, now, seat = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local function split(s) local out = {} for x in string.gmatch(s, '[^,]+') do out[#out + 1] = x end return out end
local status = redis.call('HGET', h, 'status')
local n = tonumber(redis.call('HGET', h, 'n') or '0')
local expired = 0
if status == 'open' and now >= tonumber(redis.call('HGET', h, 'expiresAt')) then
  redis.call('HSET', h, 'status', 'expired')
  status, expired = 'expired', 1
end
if action == 'expire' then return {status or 'none', n, 0, expired} end
if status == 'accepted' then return {'accepted', n, 0, expired} end
local did = 0
if action == 'offer' and status ~= 'open' then
  n = n + 1
  redis.call('DEL', h)
  redis.call('HSET', h, 'n', n, 'status', 'open', 'by', seat, 'expiresAt', tostring(now + tonumber(ARGV[4])))
  for _, s in ipairs(split(ARGV[7])) do redis.call('HSET', h, 'seat:' .. s, 'a') end
  status, did = 'open', 2
end
if status ~= 'open' then return {'none', n, 0, expired} end
if action == 'decline' then
  redis.call('HSET', h, 'seat:' .. seat, 'd', 'status', 'declined')
  redis.call('EXPIRE', h, ARGV[5])
  return {'declined', n, 0, expired}
end
if redis.call('HGET', h, 'seat:' .. seat) ~= 'a' then
  redis.call('HSET', h, 'seat:' .. seat, 'a')
  if did == 0 then did = 1 end
end
local all = true
for _, s in ipairs(split(ARGV[6])) do
  if redis.call('HGET', h, 'seat:' .. s) ~= 'a' then all = false end
end
if all then redis.call('HSET', h, 'status', 'accepted') status = 'accepted' end
redis.call('EXPIRE', h, ARGV[5])
return {status, n, did, expired}
"""


@dataclass(frozen=True)
class Offer:
    """An over match's rematch offer as read: its status (open, accepted, declined, expired), number, the seat that
    offered, the seats that accepted (bots included) and declined, and when it expires (epoch seconds)."""

    status: str
    n: int
    by: int
    accepted: list[int]
    declined: list[int]
    expires_at: float

    def to_json(self) -> dict[str, Any]:
        """The offer as REST bodies show it."""
        return {"status": self.status.upper(), "by": self.by, "accepted": self.accepted, "declined": self.declined,
                "expiresAt": self.expires_at}


@dataclass(frozen=True)
class Answered:
    """What an offer, acceptance or decline left: the rematch (its claimed id and the caller's seat; created only
    once every person accepted), whether it exists now, and the offer."""

    rematched: Rematched
    created: bool
    offer: Offer


def parse(fields: dict[str, str], now: float) -> Offer | None:
    """An offer from its hash (None: no offer was made); an open one past its time reads as expired."""
    if not fields.get("status"):
        return None
    expires_at = float(fields.get("expiresAt", "0"))
    status = fields["status"]
    if status == OPEN and now >= expires_at:
        status = EXPIRED
    marks = {int(name[5:]): value for name, value in fields.items() if name.startswith("seat:")}
    return Offer(status, int(fields.get("n", "0")), int(fields.get("by", "0")),
                 sorted(s for s, v in marks.items() if v == "a"), sorted(s for s, v in marks.items() if v == "d"),
                 expires_at)


def persons(old: Loaded) -> list[int]:
    """The seats whose occupants must accept (every seat but a bot's)."""
    return sorted(seat for seat, record in old.seats.items() if record.kind is not SeatKind.BOT)


def bots(old: Loaded) -> list[int]:
    """The seats that accept at once (bots)."""
    return sorted(seat for seat, record in old.seats.items() if record.kind is SeatKind.BOT)


class Offers:
    """Rematch offers over the lobby (and its store)."""

    def __init__(self, lobby: Lobby) -> None:
        self.rematches = Rematches(lobby)
        self.store = lobby.store
        self._answer = connections.Script(self.store.redis, ANSWER)
        self._done = connections.Script(self.store.queue, mine.DONE)

    async def offer(self, match_id: str, caller: Caller | str | None) -> Answered:
        """Offer a rematch of an over match, or accept the offer that stands (UNAUTHORIZED: the caller held no
        seat; MATCH_NOT_OVER)."""
        return await self._act("offer", match_id, caller)

    async def accept(self, match_id: str, caller: Caller | str | None) -> Answered:
        """Accept the standing offer (NO_REMATCH_OFFER: none stands); the last acceptance makes the rematch."""
        return await self._act("accept", match_id, caller)

    async def decline(self, match_id: str, caller: Caller | str | None) -> Answered:
        """Decline the standing offer, which ends it for everyone (NO_REMATCH_OFFER: none stands)."""
        return await self._act("decline", match_id, caller)

    async def refuses(self, old: Loaded, seat: int) -> bool:
        """Whether another person of the over match does not take an offer from this seat (none here;
        social/guards.py fills it in)."""
        return False

    async def read(self, match_id: str) -> Offer | None:
        """The over match's offer (None: none was made)."""
        return parse(await self.store.redis.hgetall(keys.rematch_offer(match_id)), time.time())

    async def read_many(self, match_ids: list[str]) -> dict[str, Offer]:
        """The offers of several over matches, by match id (those with none left out), in one round trip per
        node."""
        if not match_ids:
            return {}
        pipe = self.store.redis.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.hgetall(keys.rematch_offer(match_id))
        now = time.time()
        found = {match_id: parse(fields, now) for match_id, fields in zip(match_ids, await pipe.execute(),
                                                                            strict=True)}
        return {match_id: offer for match_id, offer in found.items() if offer is not None}

    async def _act(self, action: str, match_id: str, caller: Caller | str | None) -> Answered:
        old = await self.store.load(match_id)
        if old is None:
            raise LobbyError(Refusal.MATCH_NOT_FOUND, f"no match {match_id!r}")
        seat = old.seat_of(caller)
        if seat is None:
            raise LobbyError(Refusal.UNAUTHORIZED, "a rematch is offered or answered by one who held a seat of the "
                                                   "match")
        if old.status is not MatchStatus.OVER:
            raise LobbyError(Refusal.MATCH_NOT_OVER, "the match is not over yet")
        if action != "decline" and any(record.deleted for record in old.seats.values()):
            raise LobbyError(Refusal.NO_REMATCH_OFFER, "a player of this match has deleted their account: no "
                                                       "rematch of it can be made")
        if action == "offer" and await self.refuses(old, seat):  # last of the checks: it tells nothing more
            raise LobbyError(Refusal.NOT_ACCEPTED, "a player of this match does not take a rematch offer from you now")
        new_id = await self.rematches.claim(old.id)
        if new_id is None:
            raise LobbyError(Refusal.MATCH_NOT_FOUND, f"no match {match_id!r}")
        marked = None if action == "decline" else await self.rematches.mark(old.id)  # an acceptance may finish it
        try:
            status, n, did, expired = await self._run(old, action, seat)
            if expired:
                await self._tell(old, new_id, FeedType.REMATCH_EXPIRED, n, None)
            if status == ACCEPTED and action == "decline":
                raise LobbyError(Refusal.NO_REMATCH_OFFER, "the rematch offer was accepted by everyone: the rematch "
                                                           "is made")
            if status == "none":
                raise LobbyError(Refusal.NO_REMATCH_OFFER, "no rematch offer stands for this match (none was made, "
                                                           "or it was declined or expired): offer one")
            offer = await self.read(old.id)
            assert offer is not None
            if did == 2:
                await self.store.queue.zadd(keys.REMATCH_OFFERS, {old.id: offer.expires_at})
                await self._tell(old, new_id, FeedType.REMATCH_OFFERED, n, seat,
                                 {"expiresAt": offer.expires_at})
            elif did == 1:
                await self._tell(old, new_id, FeedType.REMATCH_ACCEPTED, n, seat)
            if status == DECLINED:
                await self._tell(old, new_id, FeedType.REMATCH_DECLINED, n, seat)
            created = status == ACCEPTED
            if created:
                await self.rematches.finish(old, new_id)
        finally:
            if marked is not None:
                await self.rematches.done(old.id, marked)
        return Answered(Rematched(new_id, rotated(seat, old.seat_count)), created, offer)

    async def _run(self, old: Loaded, action: str, seat: int) -> tuple[str, int, int, int]:
        settings = self.store.settings
        raw = await self._answer(keys=[keys.rematch_offer(old.id)],
                                 args=[action, repr(time.time()), str(seat), repr(settings.rematch_offer_seconds),
                                       settings.finished_ttl, ",".join(map(str, persons(old))),
                                       ",".join(map(str, bots(old)))])
        status, n, did, expired = raw
        return str(status), int(n), int(did), int(expired)

    async def expire(self, match_id: str, mark: float) -> str:
        """The timer's job: end an open offer whose time has come and tell the players; drop the timer entry
        (claimed at `mark`) unless a new offer moved it. Returns the offer's status ('none': no offer, or the over
        match is gone)."""
        old = await self.store.load(match_id)
        status = "none"
        if old is not None:
            status, n, _, expired = await self._run(old, "expire", 0)
            if expired:
                new_id = await self.store.redis.get(keys.rematch(old.id))
                await self._tell(old, str(new_id or ""), FeedType.REMATCH_EXPIRED, n, None)
            elif status == OPEN:  # not yet due (another clock): look again at its time
                offer = await self.read(old.id)
                if offer is not None:
                    await self.store.queue.zadd(keys.REMATCH_OFFERS, {old.id: offer.expires_at})
                    return status
        await self._done(keys=[keys.REMATCH_OFFERS], args=[match_id, repr(mark)])
        return status

    async def _tell(self, old: Loaded, new_id: str, kind: FeedType, n: int, by: int | None,
                    extra: dict[str, Any] | None = None) -> None:
        """Write an offer event to every player of the over match but the one who acted (once per offer, kind and
        actor: a retry writes nothing new)."""
        for player, seat in mine.players(old).items():
            if by is not None and seat == by:
                continue
            data = {"matchId": new_id, "of": old.id, "title": old.meta["title"], "seat": rotated(seat, old.seat_count),
                    "by": by, **(extra or {})}
            await feed.emit(self.store, player, kind, data, f"{kind.value}:{old.id}:{n}:{by}")
