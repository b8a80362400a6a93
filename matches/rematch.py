"""Rematch: once a match is over and every person of it accepted a rematch offer (matches/rematch_offers.py), a new
match of the same title, options, clock, seat count and ratedness with the same occupants, the seat order rotated by
one (old seat i sits at (i + 1) mod n).

Every occupant is carried over, so the rematch starts at once: a bot seat gets a bot of the same level, a seat
bound to a player is bound to the same player, and every person's seat keeps its seat token's hash, so an anonymous
seat's holder (a seat token, no player) plays the new match with the very token of the old one; nobody is handed a
new secret. The host token and host player of the old match are the new one's.

Idempotent and race-safe across any number of API processes: the new match's id is claimed in the over match's
slot by one atomic script (SET NX of keys.rematch, which checks the match is over and takes its time to live) when
the offer is made, then, once the offer is accepted, the match is created under that id (CREATE refuses an id
already taken) and its seats claimed one by one (a seat already taken by an earlier or racing caller is skipped).
Every acceptance after the last one goes through the same idempotent steps; until the new match exists the old one
shows no rematch.

A process killed anywhere between the last acceptance and the last seat leaves no half-done rematch: every
acceptance first writes an outbox entry ("rematch soon": keys.REMATCH_PENDING on the queue Redis, the old match's
id scored by when), dropped once the new match exists with every carried seat (or the offer still waits for
others). The next acceptance finishes a stranded one; failing that, the reconciler (every worker runs one) hands
each entry older than stall_seconds to a job that takes the same steps (resume) when the offer is accepted, so the
rematch is created, seated and started with nobody asking again.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass

from firebreak.domain import titles
from firebreak.domain.errors import DomainError
from firebreak.matches import connections, feed, keys, mine
from firebreak.matches.clocks import Clock
from firebreak.matches.feed import FeedType
from firebreak.matches.lifecycle import MatchStatus, SeatKind, SeatRecord
from firebreak.matches.lobby import RATED, Lobby, LobbyError
from firebreak.matches.refusals import Refusal
from firebreak.matches.store import Loaded

# Claim the rematch id of an over match once. KEYS: rematch, meta, archive; ARGV: a candidate id. Returns
# {1, the id that holds} or {0, the status} when the match is not over ('' when it is gone). The claim lives as long
# as the over match (its meta's or archive's time to live; the archive takes the meta's).
CLAIM = """
local claimed = redis.call('GET', KEYS[1])
if claimed then return {1, claimed} end
local status = redis.call('HGET', KEYS[2], 'status')
local ttl
if status then
  if status ~= 'over' then return {0, status} end
  ttl = redis.call('PTTL', KEYS[2])
elseif redis.call('EXISTS', KEYS[3]) == 1 then
  ttl = redis.call('PTTL', KEYS[3])
else
  return {0, ''}
end
if ttl > 0 then redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl) else redis.call('SET', KEYS[1], ARGV[1]) end
return {1, ARGV[1]}
"""

log = logging.getLogger("firebreak.rematch")

RESUME_JOB = "firebreak.workers.jobs.rematch"  # by name: this layer never imports the workers package
CARRIED_OVER = (Refusal.SEAT_TAKEN, Refusal.ALREADY_SEATED, Refusal.MATCH_STARTED)  # another caller got there first


@dataclass(frozen=True)
class Rematched:
    """The rematch of a match and the caller's seat in it."""

    match_id: str
    seat: int


def rotated(seat: int, seats: int) -> int:
    """Where an old seat's occupant sits in the rematch."""
    return (seat + 1) % seats


def carried(record: SeatRecord) -> SeatRecord:
    """An old seat's occupant as the rematch seats it: a bot of the same level; a person under the same name, player
    and token hash, playing it again (a seat taken over or resigned is the person's own in the new match, and the
    bot that played it is not carried)."""
    if record.kind is SeatKind.BOT:
        return SeatRecord(record.name, record.kind, record.level)
    return SeatRecord(record.name, record.kind, token_hash=record.token_hash, player=record.player,
                      program=record.program)


class Rematches:
    """Rematch operations over the lobby (and its store)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self._claim = connections.Script(self.store.redis, CLAIM)
        self._done = connections.Script(self.store.queue, mine.DONE)  # drop an outbox entry unless marked since

    async def mark(self, match_id: str) -> float:
        """Write the over match's outbox entry before the claim (a crash leaves it to the reconciler); return the
        mark to hand to done."""
        now = time.time()
        await self.store.queue.zadd(keys.REMATCH_PENDING, {match_id: now})
        return now

    async def done(self, match_id: str, mark: float) -> bool:
        """Drop the over match's outbox entry unless another call marked it since `mark` (that call drops it)."""
        return bool(int(await self._done(keys=[keys.REMATCH_PENDING], args=[match_id, repr(mark)])))

    async def resume(self, match_id: str, mark: float) -> str | None:
        """Finish the rematch a killed process left half-done (its outbox entry, claimed at `mark`) by the steps a
        second call takes: claim (unless claimed), create, seat every carried occupant, which starts it; then drop
        the entry. Returns the rematch's id (None: the old match is gone, or the rematch could not be made)."""
        old = await self.store.load(match_id)
        new_id = None
        if old is not None and old.status is MatchStatus.OVER and await self._agreed(old.id):
            new_id = await self.claim(old.id)
            if new_id is not None:
                try:
                    await self.finish(old, new_id)
                except LobbyError as exc:  # e.g. the rematch expired meanwhile: nothing left to finish
                    log.warning("match %s: rematch %s not finished (%s)", match_id, new_id, exc.code)
                    new_id = None
        await self.done(match_id, mark)
        return new_id

    async def _agreed(self, match_id: str) -> bool:
        """Whether every person accepted the rematch (an offer accepted; or, with no offer, a claim made before
        offers existed)."""
        status = await self.store.redis.hget(keys.rematch_offer(match_id), "status")
        if status is None:
            return bool(await self.store.redis.exists(keys.rematch(match_id)))
        return bool(status == "accepted")

    async def claim(self, match_id: str) -> str | None:
        """The rematch id of an over match, claimed now unless claimed before; None if the match is gone (or not
        over: the caller checked that)."""
        ok, value = await self._claim(keys=[keys.rematch(match_id), keys.meta(match_id), keys.archive(match_id)],
                                      args=[secrets.token_hex(8)])
        return str(value) if int(ok) else None

    async def finish(self, old: Loaded, new_id: str) -> None:
        """Create the claimed rematch unless it exists, then seat every occupant of the old match not yet seated
        (each step idempotent: a racing or later caller repeats them harmlessly)."""
        loaded = await self.store.load(new_id)
        if loaded is None:
            await self._create(old, new_id)
            loaded = await self.store.load(new_id)
            if loaded is None:
                raise LobbyError(Refusal.MATCH_NOT_FOUND, "the rematch expired")
        if loaded.status is MatchStatus.WAITING:
            count = old.seat_count
            for seat, record in sorted(old.seats.items()):
                target = rotated(seat, count)
                if target in loaded.seats:
                    continue
                try:
                    await self.lobby.seat(loaded, target, carried(record))
                except LobbyError as exc:
                    if exc.code not in CARRIED_OVER:
                        raise
        for player, seat in mine.players(old).items():  # once each (the dedupe key), whoever finishes it
            await feed.emit(self.store, player, FeedType.REMATCH_STARTED,
                            {"matchId": new_id, "of": old.id, "title": old.meta["title"],
                             "seat": rotated(seat, old.seat_count), "by": None}, f"rematchStarted:{old.id}")

    async def _create(self, old: Loaded, new_id: str) -> None:
        title = titles.get(old.meta["title"])
        count = old.seat_count
        try:
            options = title.check_options(count, old.meta_options())
            seed = secrets.randbits(63)
            match = title.new_match(seats=count, seed=seed, options=options)
        except DomainError as exc:
            raise LobbyError(exc.code, str(exc)) from None
        clock = Clock.from_json(old.meta.get("clock"))
        fresh = None if clock is None else Clock.new(clock.initial, clock.increment, count, clock.per_move)
        extra = {"hostHash": old.meta.get("hostHash", ""), "rematchOf": old.id}
        for name in ("hostPlayer", "private", RATED):  # a rated match's rematch is rated (all accepted it)
            if name in old.meta:
                extra[name] = old.meta[name]
        await self.store.create(title.id, count, options, seed, match.to_dict(), fresh, match_id=new_id,
                                extra=extra)

    async def rematch_of(self, match_id: str) -> str | None:
        """The id of a match's rematch once it exists (None: none asked for, or claimed and not yet created)."""
        new_id: str | None = await self.store.redis.get(keys.rematch(match_id))
        if new_id is None or await self.store.status(new_id) is None:
            return None
        return new_id
