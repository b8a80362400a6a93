"""Redis persistence of live matches: create, load, claim seats, compare-and-set commits, events, lobby."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.asyncio import Redis

from firebreak.domain import titles
from firebreak.domain.contract import Match
from firebreak.matches import connections, history, keys, packing, scripts
from firebreak.matches.callers import Caller
from firebreak.matches.clocks import Clock, Timing
from firebreak.matches.config import Settings
from firebreak.matches.lifecycle import EndReason, MatchStatus, SeatRecord, Seats
from firebreak.matches.refusals import Refusal

REPLAYS_KEPT = 16  # replayed histories an API process keeps (a long match's is a few hundred KB)
CURSOR_SLACK = 100  # matches created in the very same instant as the cursor's that a page may skip past


def hash_token(token: str) -> str:
    """The only form in which a secret token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Loaded:
    """A match as read from Redis in one round trip."""

    id: str
    meta: dict[str, str]
    seats: Seats
    version: int
    stored: dict[str, Any] | str = field(repr=False)  # the state as to_dict() gives it, or as its JSON text
    engine: Any = field(default=None, repr=False, compare=False)  # the engine match of `data` once built: read only

    @property
    def data(self) -> dict[str, Any]:
        """The state as to_dict() gives it (JSON text is decoded when first asked for: an act that starts from the
        engine its process kept never needs it)."""
        if isinstance(self.stored, str):
            self.stored = packing.loads(self.stored)
        assert isinstance(self.stored, dict)
        return self.stored

    @property
    def status(self) -> MatchStatus:
        """Where the match is in its life."""
        return MatchStatus(self.meta["status"])

    def meta_options(self) -> dict[str, Any]:
        """The options the match was created with."""
        options: dict[str, Any] = packing.loads(self.meta.get("options", "{}"))
        return options

    def timing(self) -> Timing:
        """When the match last changed, when a person last acted, and its clock."""
        return Timing.from_meta(self.meta)

    @property
    def end_reason(self) -> EndReason | None:
        """Why an over match ended; None while it is not over."""
        return EndReason(self.meta.get("reason", EndReason.FINISHED)) if self.status is MatchStatus.OVER else None

    @property
    def seat_count(self) -> int:
        """How many seats the match has."""
        return int(self.meta["seats"])

    @property
    def listed(self) -> bool:
        """Whether the match appears in the lobby lists (a private match does not)."""
        return self.meta.get("private") != "1"

    def seat_of(self, caller: Caller | str | None) -> int | None:
        """The caller's seat, or None: the seat bound to the caller's player, else the seat whose token the
        caller holds (a plain string is a token). The one place a caller's seat is found."""
        if isinstance(caller, str) or caller is None:
            caller = Caller(token=caller or None)
        if caller.player is not None:
            for seat, record in self.seats.items():
                if record.player == caller.player:
                    return seat
            return None
        if not caller.token:
            return None
        digest = hash_token(caller.token)
        for seat, record in self.seats.items():
            if secrets.compare_digest(record.token_hash or "", digest):
                return seat
        return None

    def is_creator(self, caller: Caller | str | None) -> bool:
        """Whether the caller created the match: it holds the host token handed to the creator, or it is the player
        who created it (a seat's token is not)."""
        if isinstance(caller, str) or caller is None:
            caller = Caller(token=caller or None)
        if caller.player is not None and self.meta.get("hostPlayer") == caller.player:
            return True
        return bool(caller.token) and secrets.compare_digest(self.meta.get("hostHash", ""),
                                                             hash_token(caller.token or ""))

    def is_host(self, caller: Caller | str | None) -> bool:
        """Whether the caller created the match (is_creator) or sits in it (a seat's token or its player)."""
        return self.is_creator(caller) or self.seat_of(caller) is not None


def engine(loaded: Loaded) -> Match:
    """The engine's match for a stored state, built once per Loaded and shared by its readers (never mutate it:
    a step takes it with taken(); a reader must not keep it across an await, it asks again)."""
    if loaded.engine is None:
        loaded.engine = built(loaded)
    match: Match = loaded.engine
    return match


def built(loaded: Loaded) -> Match:
    """A new engine match built from the stored state."""
    return titles.get(loaded.meta["title"]).match_from_dict(loaded.data)


def taken(loaded: Loaded) -> Match:
    """The engine to apply a step to: the loaded match's own, taken from it without a copy (its later readers
    build a new one from its stored state, which a step never changes), else a new one."""
    match: Match | None = loaded.engine
    if match is None:
        return built(loaded)
    loaded.engine = None
    return match


History = tuple[dict[str, str], int, list[dict[str, Any]]]  # a match's meta, version and whole log


class Attic(Protocol):
    """Where finished matches are read from once Redis has let them go (archive.reader.ArchiveReader, set on the
    store by the API): the store never writes to it."""

    async def load(self, match_id: str) -> Loaded | None:
        """The archived match as it was stored when it ended (None: not archived)."""

    async def history(self, match_id: str) -> History | None:
        """The archived match's meta, final version and whole log (None: not archived)."""

    async def rows(self, player: str, before: tuple[float, str] | None, since: float,
                   want: int) -> list[tuple[str, float]]:
        """The player's archived matches as (match id, last activity), newest first (equal times: larger id
        first), last activity at most `since` and after `before` (a (last activity, id) already seen), at most
        `want`."""


@dataclass
class Committed:
    """The result of a compare-and-set commit."""

    ok: bool
    version: int


@dataclass(frozen=True)
class Claimed:
    """The result of a seat claim: the seat, and the match as the claim left it when the claim started it."""

    seat: int
    full: bool  # this claim filled the last seat, and so started the match
    started: Loaded | None  # the match as a starting claim left it


class MatchStore:
    """All Redis access for matches goes through here: a match's own keys on the matches Redis (`redis`: plain
    or cluster, each operation inside the match's slot), the due-set and lobby on the queue Redis (`queue`;
    the same client by default).

    Writes to the two cannot be atomic together, so they are ordered for a crash between any two to strand
    nothing: a due entry "look soon" before a write that may leave the service something to do (a reconciler
    finding nothing due drops or reschedules it), the exact due time after it; the lobby after the match (an
    orphan match expires, a listed match that is gone is pruned). When both are one plain Redis (`one_redis`),
    the match's own scripts write those entries themselves (create, claim, commit, reschedule): fewer round trips,
    and nothing for a crash to separate.
    """

    def __init__(self, redis: Any, settings: Settings, queue: Redis | None = None) -> None:
        self.redis: Any = redis  # decode_responses=True: replies are str; redis-py's stubs cannot say so
        self.queue: Any = redis if queue is None else queue
        self.settings = settings
        self.attic: Attic | None = None  # finished matches Redis let go (the API sets it; see MatchStore.read)
        # On one plain Redis the match's scripts also write the due-set, the lobby lists and the finished outbox.
        self.one_redis = self.queue is redis
        self._create = connections.Script(redis, scripts.CREATE)
        self._commit = connections.Script(redis, scripts.COMMIT)
        self._claim = connections.Script(redis, scripts.CLAIM)
        self._load = connections.Script(redis, scripts.LOAD)
        self._status = connections.Script(redis, scripts.STATUS)
        self._events = connections.Script(redis, scripts.EVENTS)
        self._remember = connections.Script(redis, scripts.REMEMBER)
        self._fold = connections.Script(redis, scripts.FOLD)
        self._archive = connections.Script(redis, scripts.ARCHIVE)
        self._leave = connections.Script(redis, scripts.LEAVE)
        self._cancel = connections.Script(redis, scripts.CANCEL)
        self._set_due = connections.Script(self.queue, scripts.SET_DUE)
        self._reschedule = connections.Script(redis, scripts.RESCHEDULE)
        self.due_key = keys.due(settings.queue)
        self.due_versions_key = keys.due_versions(settings.queue)
        # the whole replayed history of a few matches, by (match id, its length): pages and resuming
        # subscribers of the same match (a finished one above all, whose history no longer changes) replay once
        self._replays: OrderedDict[tuple[str, int], list[tuple[int, list[Any]]]] = OrderedDict()

    async def create(self, title: str, seats: int, options: dict[str, Any], seed: int,
                     data: dict[str, Any], clock: Clock | None = None, match_id: str | None = None,
                     extra: dict[str, str] | None = None) -> tuple[str, str]:
        """Store a new waiting match; return its id and the host token (shown once). A given match_id is created
        only if no match has it yet (a rematch's, claimed beforehand); extra meta fields (e.g. private: "1", which
        keeps it out of the lobby lists, or a host player) override the defaults."""
        match_id = secrets.token_hex(8) if match_id is None else match_id
        host_token = secrets.token_urlsafe(24)
        now = time.time()
        meta = {"title": title, "seats": str(seats), "options": packing.dumps(options), "seed": str(seed),
                "status": MatchStatus.WAITING.value, "created": repr(now), "version": "0",
                "hostHash": hash_token(host_token), **({"clock": clock.to_json()} if clock is not None else {}),
                **(extra or {})}
        listed = meta.get("private") != "1" and "rematchOf" not in meta  # a rematch's seats are its own
        match_keys = [keys.meta(match_id), keys.state(match_id)]
        args: list[Any] = [packing.dumps(meta), packing.dumps(data), self.settings.waiting_ttl]
        if listed and self.one_redis:  # the lobby list in the same script
            match_keys.append(keys.lobby(MatchStatus.WAITING))
            args += [repr(now), match_id]
        created = await self._create(keys=match_keys, args=args)
        if int(created) and listed and not self.one_redis:
            await self.queue.zadd(keys.lobby(MatchStatus.WAITING), {match_id: now})
        return match_id, host_token

    async def load(self, match_id: str) -> Loaded | None:
        """Read meta, seats and state together (a finished match's from its archive); None for an unknown (or
        expired) match."""
        return (await self._load_with(match_id, log=False))[0]

    async def _load_with(self, match_id: str, log: bool) -> tuple[Loaded | None, list[str]]:
        """load(), and with log=True the live match's log as stored, in the same round trip."""
        if not valid_id(match_id):
            return None, []
        match_keys = [keys.meta(match_id), keys.seats(match_id), keys.state(match_id), keys.archive(match_id)]
        if log:
            match_keys.append(keys.log(match_id))
        flat_meta, flat_seats, flat_state, archived, items = await self._load(keys=match_keys)
        if archived:
            record = packing.unpack(archived)
            seats = {int(k): SeatRecord.from_json(v) for k, v in record["seats"].items()}
            return Loaded(id=match_id, meta=record["meta"], seats=seats,
                          version=int(record["v"]), stored=record["data"]), []
        return _loaded(match_id, flat_meta, flat_seats, flat_state), items

    async def read(self, match_id: str) -> Loaded | None:
        """Load a match to read it: from Redis, else (a finished match Redis let go) from the attic; None for an
        unknown match. Writers use load(): a match only the attic holds takes no more writes."""
        loaded = await self.load(match_id)
        if loaded is None and self.attic is not None and valid_id(match_id):
            loaded = await self.attic.load(match_id)
        return loaded

    async def status(self, match_id: str) -> MatchStatus | None:
        """The match's status, or None for an unknown (or expired) match."""
        status: str | None = await self._status(keys=[keys.meta(match_id), keys.archive(match_id)])
        return None if status is None else MatchStatus(status)

    async def claim_seat(self, match_id: str, seat: int | None, record: SeatRecord,
                         seat_count: int, listed: bool = True) -> Claimed | Refusal:
        """Take a seat (None: the first free one); return the seat and, when the claim filled (and so started) the
        match, the started match as the claim left it; or MATCH_STARTED (the match is no longer waiting),
        SEAT_TAKEN, or ALREADY_SEATED (the record's player holds another seat of the match: checked in the same
        atomic claim)."""
        now = time.time()
        match_keys = [keys.meta(match_id), keys.seats(match_id), keys.state(match_id), keys.log(match_id),
                      keys.events(match_id)]
        args: list[Any] = [-1 if seat is None else seat, packing.dumps(record.to_json()), seat_count, repr(now),
                           self.settings.waiting_ttl, record.player or ""]
        if self.one_redis:  # the due entry and the lobby lists in the same script
            match_keys += [self.due_key, keys.lobby(MatchStatus.WAITING), keys.lobby(MatchStatus.ACTIVE)]
            args += [match_id, repr(now + self.settings.stall_seconds), "1" if listed else "0"]
        else:
            await self.look_soon(match_id, now)  # this claim may start the match
        result = await self._claim(keys=match_keys, args=args)
        got, full = int(result[0]), bool(int(result[1]))
        if got == -1:
            return Refusal.MATCH_STARTED
        if got == -2:
            return Refusal.SEAT_TAKEN
        if got == -3:
            return Refusal.ALREADY_SEATED
        if full and listed and not self.one_redis:
            pipe = self.queue.pipeline(transaction=False)
            pipe.zrem(keys.lobby(MatchStatus.WAITING), match_id)
            pipe.zadd(keys.lobby(MatchStatus.ACTIVE), {match_id: time.time()})
            await pipe.execute()
        return Claimed(got, full, _loaded(match_id, *result[2:5]) if full else None)

    async def commit(self, loaded: Loaded, data: str, entry: dict[str, Any],
                     events: list[dict[str, Any]], over: bool, timing: Timing, due: float | None,
                     idempotency: tuple[str, dict[str, Any]] | None = None,
                     reason: EndReason | None = None, seats: Seats | None = None,
                     meta: dict[str, str] | None = None) -> Committed:
        """Save one applied step if the stored version is still loaded.version (compare-and-set); data: the state's
        JSON text (pipeline.saved).

        In the same atomic write: the new timing (meta), the idempotency outcome (field, outcome), the reason an
        ending match ended, the seat records the step changes (`seats`), more meta fields (`meta`); on one plain
        Redis also the match's due time (None: off the due-set).
        On a separate queue Redis: the due entry "look soon" before, the due time after. Then, now and then, the
        log's oldest entries are folded into a packed chunk, and a match that ended is archived.
        """
        match_id = loaded.id
        idem_field, idem_record = "", ""
        if idempotency is not None:
            idem_field, idem_record = idempotency[0], _idempotency_record(idempotency[1])
        match_keys = [keys.state(match_id), keys.log(match_id), keys.events(match_id), keys.meta(match_id),
                      keys.seats(match_id), keys.idempotency(match_id)]
        due_text = "" if over or due is None else repr(due)
        status = MatchStatus.OVER if over else MatchStatus.ACTIVE
        if self.one_redis:  # the due-set, and for an ending step its outbox entry and lobby lists, in the script
            match_keys += [self.due_key, self.due_versions_key]
            if over:
                match_keys += [keys.finished_pending(self.settings.queue), keys.lobby(MatchStatus.ACTIVE),
                               keys.lobby(MatchStatus.OVER)]
        else:
            if over:
                await self.finishing(match_id)
            await self.look_soon(match_id)
        result = await self._commit(
            keys=match_keys,
            args=[loaded.version, data, packing.dumps(entry), packing.dumps(events),
                  status.value, idem_field, idem_record, self.settings.idempotency_ttl,
                  self.settings.idempotency_kept, self.settings.finished_ttl if over else 0,
                  packing.dumps({**timing.fields(), **({"reason": reason.value} if reason else {}),
                                 **(meta or {})}),
                  history.EVENTS_KEPT, match_id, due_text,
                  packing.dumps({str(seat): packing.dumps(record.to_json())
                                 for seat, record in (seats or {}).items()}),
                  repr(time.time()) if over else "", "1" if loaded.listed else "0"],
        )
        committed = Committed(bool(int(result[0])), int(result[1]))
        if not committed.ok:
            return committed
        if not self.one_redis:
            await self.set_due(match_id, committed.version, None if over else due)
        items = int(result[2])
        chunks = (committed.version - items) // (history.CHUNK - 1)  # version = chunks * CHUNK + plain entries
        if items - chunks >= history.CHUNK:
            await self.fold_log(match_id, chunks)
        if over and loaded.listed and not self.one_redis:
            pipe = self.queue.pipeline(transaction=False)
            pipe.zrem(keys.lobby(MatchStatus.ACTIVE), match_id)
            pipe.zadd(keys.lobby(MatchStatus.OVER), {match_id: time.time()})
            await pipe.execute()
        if over:
            await self.archive(match_id, committed.version)
        return committed

    async def leave(self, match_id: str, seat: int, token_hash: str) -> Refusal | None:
        """Free a person's seat of a waiting match if it still holds them; None, or MATCH_STARTED (no longer
        waiting) or SEAT_TAKEN (the seat is someone else's now)."""
        done = int(await self._leave(keys=[keys.meta(match_id), keys.seats(match_id)], args=[seat, token_hash]))
        if done == -1:
            return Refusal.MATCH_STARTED
        return Refusal.SEAT_TAKEN if done == -2 else None

    async def cancel(self, match_id: str) -> bool:
        """Call off a waiting match (status over, end reason cancelled) and take it off the lobby; return whether
        this call did (False: it is no longer waiting)."""
        await self.finishing(match_id)
        done = await self._cancel(keys=[keys.meta(match_id), keys.seats(match_id), keys.state(match_id)],
                                  args=[EndReason.CANCELLED.value, self.settings.finished_ttl, repr(time.time())])
        if int(done):
            await self.queue.zrem(keys.lobby(MatchStatus.WAITING), match_id)
        return bool(int(done))

    async def finishing(self, match_id: str) -> None:
        """Write the match's finished-match outbox entry (keys.finished_pending) before a write that may end it: the
        workers then do what a finished match is owed (ratings, archive: workers/finishing.py) exactly once, whether
        or not the process making the write survives it (an entry whose match did not end is dropped later)."""
        await self.queue.zadd(keys.finished_pending(self.settings.queue), {match_id: time.time()}, nx=True)

    async def fold_log(self, match_id: str, chunks: int) -> bool:
        """Fold the log's oldest whole runs of plain entries (after `chunks` packed chunks) into packed chunks;
        return whether this call did (another process may have)."""
        items: list[str] = await self.redis.lrange(keys.log(match_id), chunks, -1)
        before, packed, folded = history.foldable(items)
        if not packed:
            return False
        done = await self._fold(keys=[keys.log(match_id)], args=[chunks + before, folded, *packed])
        return bool(int(done))

    async def archive(self, match_id: str, version: int) -> bool:
        """Replace a finished match's keys by one packed value (its replay still served from the log inside);
        return whether this call did."""
        loaded, items = await self._load_with(match_id, log=True)
        if loaded is None or loaded.status is not MatchStatus.OVER or loaded.version != version:
            return False
        log = history.entries(items)
        seats = {seat: seated.to_json() for seat, seated in loaded.seats.items()}
        record = {"meta": loaded.meta, "seats": seats, "v": version, "data": loaded.data, "log": log}
        done = await self._archive(keys=[keys.meta(match_id), keys.seats(match_id), keys.state(match_id),
                                         keys.log(match_id), keys.events(match_id), keys.archive(match_id)],
                                   args=[version, packing.pack(record)])
        return bool(int(done))

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
        if self.one_redis:  # the check and the write in one script
            done = await self._reschedule(keys=[self.due_key, self.due_versions_key, keys.state(match_id)],
                                          args=[match_id, version, "" if due is None else repr(due)])
            return bool(int(done))
        stored = await self.redis.hget(keys.state(match_id), "v")
        if stored is None or int(stored) != version:
            return False
        return await self.set_due(match_id, version, due)

    async def remembered(self, match_id: str, seat: int, key: str) -> dict[str, Any] | None:
        """The first outcome of an act with this idempotency key, if it is still honoured."""
        raw = await self.redis.hget(keys.idempotency(match_id), keys.idempotency_field(seat, key))
        return None if raw is None else self._honoured(raw)

    async def remember(self, match_id: str, seat: int, key: str, outcome: dict[str, Any]) -> dict[str, Any]:
        """Remember a refused act's outcome unless one is already there; return the one that holds."""
        record = _idempotency_record(outcome)
        raw = await self._remember(keys=[keys.idempotency(match_id)],
                                   args=[keys.idempotency_field(seat, key), record, self.settings.idempotency_ttl,
                                         self.settings.idempotency_kept])
        return self._honoured(raw) or outcome

    def _honoured(self, record: str) -> dict[str, Any] | None:
        """A stored idempotency record's outcome, or None once it is older than idempotency_ttl."""
        at, _, outcome = record.partition("|")
        if float(at) + self.settings.idempotency_ttl < time.time():
            return None
        answer: dict[str, Any] = packing.loads(outcome)
        return answer

    async def events_after(self, match_id: str, after: int, count: int = 1000) -> list[tuple[int, list[Any]]]:
        """The stored steps after a version: (version, events) in order, at most count. The stream holds the
        newest steps; older ones (and a finished match's) are replayed from the seed and log."""
        rows, version = await self._events(keys=[keys.events(match_id), keys.state(match_id)],
                                           args=[after, count])
        steps = [(int(entry_id.split("-")[0]), packing.loads(fields[1])) for entry_id, fields in rows]
        if 0 <= int(version) <= after or (steps and steps[0][0] == after + 1):
            return steps
        key = (match_id, int(version))  # -1: archived, its history final
        replayed = self._replays.get(key)
        if replayed is None:
            record = await self.history(match_id)
            if record is None or record[1] <= after:
                return steps
            meta, length, log = record
            key = (match_id, length if int(version) >= 0 else -1)
            replayed = self._replays[key] = history.replay(meta, log, 0, length)
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        self._replays.move_to_end(key)
        return replayed[max(0, after):max(0, after) + count]

    async def history(self, match_id: str) -> History | None:
        """The meta, version and whole log of a live or archived match (None: gone), from the attic once Redis has
        let it go."""
        archived = await self.redis.get(keys.archive(match_id))
        if not archived:
            meta: dict[str, str] = await self.redis.hgetall(keys.meta(match_id))
            log = history.entries(await self.redis.lrange(keys.log(match_id), 0, -1))
            if meta and log:  # (a commit in between only adds steps: the log is read after the meta)
                return meta, len(log), log
            archived = await self.redis.get(keys.archive(match_id))  # archived meanwhile?
        if not archived:
            return None if self.attic is None or not valid_id(match_id) else await self.attic.history(match_id)
        record = packing.unpack(archived)
        return record["meta"], int(record["v"]), record["log"]

    async def wait_events(self, match_id: str, after: int, block_ms: int) -> list[tuple[int, list[Any]]]:
        """Block up to block_ms for steps after a version (a Redis Stream read; resumable by version)."""
        reply = await self.redis.xread({keys.events(match_id): f"{after}-0"}, count=500, block=block_ms)
        out: list[tuple[int, list[Any]]] = []
        for _stream, rows in reply or []:
            out.extend((int(entry_id.split("-")[0]), packing.loads(fields["events"])) for entry_id, fields in rows)
        return out

    async def list_ids(self, status: MatchStatus, first: int, after: str | None) -> tuple[list[str], bool, str | None]:
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

    async def prune_lobby(self, status: MatchStatus, match_ids: list[str]) -> None:
        """Drop lobby entries whose match has expired."""
        if match_ids:
            await self.queue.zrem(keys.lobby(status), *match_ids)


def _idempotency_record(outcome: dict[str, Any]) -> str:
    """An idempotency hash value: when it was written, then the outcome (read back by MatchStore._honoured)."""
    return f"{time.time()!r}|{packing.dumps(outcome)}"


def _loaded(match_id: str, flat_meta: list[str], flat_seats: list[str], flat_state: list[str]) -> Loaded | None:
    """A live match from its hashes' flat HGETALL replies (None: meta or state missing)."""
    meta, state = pairs(flat_meta), pairs(flat_state)
    if not meta or not state:
        return None
    return Loaded(
        id=match_id,
        meta=meta,
        seats={int(k): SeatRecord.from_json(packing.loads(v)) for k, v in pairs(flat_seats).items()},
        version=int(state["v"]),
        stored=state["data"],
    )


def pairs(flat: list[str]) -> dict[str, str]:
    """A hash from HGETALL's flat reply inside a script (field, value, field, value...)."""
    return dict(zip(flat[::2], flat[1::2], strict=True))


def valid_id(match_id: str) -> bool:
    """Whether a string has the shape of a match id (up to 64 lower-case hex digits)."""
    return isinstance(match_id, str) and 0 < len(match_id) <= 64 and all(c in "0123456789abcdef" for c in match_id)
