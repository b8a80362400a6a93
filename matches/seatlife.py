"""The life of a seat beyond acting: resign, reclaim a taken-over seat, leave a waiting match, cancel one.

Every function takes the caller's seat already resolved (the API resolves it from the caller's credential) and
never a token. Resign and reclaim change an active match as one step: one compare-and-set commit of the seat's
record, the log entry, the events and the timing (a concurrent act or bot move at the same version makes it
retry against the new version; it never applies twice). A resignation that leaves at most one person ends the
match at once (end reason resigned): the title ranks the seats that did not resign as the match stood
(Match.standing; tied, for a title that ranks only a finished match); otherwise the title's takeover bot plays the
seat to the end at bot speed and the seat ranks after every seat that did not resign (matches.reading).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from firebreak.domain import titles
from firebreak.domain.bots import takeover_level
from firebreak.domain.contract import Event
from firebreak.matches import mine
from firebreak.matches.clocks import Timing
from firebreak.matches.duties import due_at, humans
from firebreak.matches.lifecycle import EndReason, MatchStatus, SeatControl, SeatRecord, Seats
from firebreak.matches.pipeline import saved, stepped
from firebreak.matches.refusals import Refusal
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.store import Loaded, MatchStore, built

# The refusals (UNAUTHORIZED) of a seat operation asked without a credential, or by one that holds no seat of the
# match, worded once for both surfaces
NO_CREDENTIAL = ("a seat token of this match, or the credential of the player its seat is bound to, is required "
                 "(Authorization: Bearer)")
NO_SEAT = ("this needs a seat of this match: its seat token, or the credential of the player it is bound to (the host "
           "token, or a player with no seat here, holds none)")
ATTEMPTS = 50  # compare-and-set attempts of one resign or reclaim against a match whose bots keep moving

# What a seat's step changes: the seat's new record, the log entry's kind, its events, whether it ends the match,
# whether the seat's clock restarts (None: nothing to do, the seat is not taken over)
Change = tuple[SeatRecord, str, list[Event], bool, bool]
Build = Callable[[Loaded, int, SeatRecord], Change | None]


class SeatError(Exception):
    """Raised when a seat operation is refused; code is the registered refusal, version the match's (if any)."""

    def __init__(self, code: Refusal, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.version = version


@dataclass(frozen=True)
class SeatStep:
    """A resign or reclaim as committed: the match's new version and whether the match ended with it."""

    match_id: str
    seat: int
    version: int
    ended: bool


class SeatLife:
    """Resign, reclaim, leave and cancel over the store."""

    def __init__(self, store: MatchStore, scheduler: Scheduler) -> None:
        self.store = store
        self.scheduler = scheduler

    async def resign(self, match_id: str, seat: int) -> SeatStep:
        """Resign the seat of an active match: it ends the match when at most one person would be left, else the
        takeover bot plays the seat to the end."""
        return await self._step(match_id, seat, self._resignation)

    async def resign_erased(self, match_id: str, seat: int, player: str, name: str) -> SeatStep:
        """Resign the seat of a player whose account is deleted, its record erased in the same step
        (SeatRecord.erased; matches/erasure.py). NOT_TAKEN_OVER when the seat is no longer that player's."""
        def build(loaded: Loaded, at: int, record: SeatRecord) -> Change | None:
            return None if record.player != player else self._resignation(loaded, at, record.erased(name))
        return await self._step(match_id, seat, build)

    async def reclaim(self, match_id: str, seat: int) -> SeatStep:
        """Take back a seat the service plays since its clock ran out; its clock restarts (Clock.reclaimed)."""
        return await self._step(match_id, seat, self._reclaim)

    async def leave(self, match_id: str, seat: int) -> None:
        """Free the caller's seat of a waiting match (its token stops working)."""
        loaded = await self._load(match_id)
        if loaded.status is not MatchStatus.WAITING:
            raise SeatError(Refusal.MATCH_STARTED, "the match has started: resign instead of leaving")
        record = loaded.seats.get(seat)
        if record is None or record.token_hash is None:
            raise SeatError(Refusal.UNAUTHORIZED, "only a person's own seat can be left")
        refused = await self.store.leave(match_id, seat, record.token_hash)
        if refused is Refusal.MATCH_STARTED:
            raise SeatError(refused, "the match has started: resign instead of leaving")
        if refused is not None:
            raise SeatError(Refusal.UNAUTHORIZED, "the seat is no longer the caller's")
        if record.player is not None:
            await mine.forget(self.store, record.player, match_id)  # no longer among the player's matches

    async def cancel(self, match_id: str) -> None:
        """Call off a waiting match (the caller's right to, its creator's, is checked by the API)."""
        loaded = await self._load(match_id)

        async def call_off() -> bool:
            return loaded.status is MatchStatus.WAITING and await self.store.cancel(match_id)

        cancelled, _ = await mine.indexed(  # over in its players' lists
            self.store, loaded, call_off,
            lambda done: replace(loaded, meta={**loaded.meta, "status": MatchStatus.OVER.value,
                                               "reason": EndReason.CANCELLED.value}) if done else None)
        if not cancelled:
            raise SeatError(Refusal.MATCH_STARTED, "the match has started (or ended): it can no longer be cancelled")

    async def _load(self, match_id: str) -> Loaded:
        loaded = await self.store.load(match_id)
        if loaded is None:
            raise SeatError(Refusal.MATCH_NOT_FOUND, f"no match {match_id!r}")
        return loaded

    async def _step(self, match_id: str, seat: int, build: Build) -> SeatStep:
        """Commit the step `build` makes of the match as loaded, again against each newer version the match
        moved on to meanwhile."""
        for _attempt in range(ATTEMPTS):
            loaded = await self._load(match_id)
            if loaded.status is MatchStatus.WAITING:
                raise SeatError(Refusal.MATCH_NOT_STARTED, "the match has not started: leave the seat instead")
            if loaded.status is MatchStatus.OVER:
                raise SeatError(Refusal.MATCH_OVER, "the match is over", loaded.version)
            record = loaded.seats.get(seat)
            if record is None:
                raise SeatError(Refusal.UNAUTHORIZED, "the caller has no seat in this match")
            if record.control is SeatControl.RESIGNED:
                raise SeatError(Refusal.SEAT_RESIGNED, "this seat has already resigned", loaded.version)
            step = build(loaded, seat, record)
            if step is None:
                raise SeatError(Refusal.NOT_TAKEN_OVER, "the seat is not taken over: its owner plays it",
                                loaded.version)
            done = await self._commit(loaded, seat, *step)
            if done is not None:
                return done
        raise SeatError(Refusal.STALE_VERSION, "the match kept moving on; try again")

    @staticmethod
    def _resignation(loaded: Loaded, seat: int, record: SeatRecord) -> Change:
        level = takeover_level(titles.get(loaded.meta["title"]))
        ends = sum(1 for s, r in loaded.seats.items() if s != seat and r.person) <= 1
        events: list[Event] = [{"type": "seatResigned", "seat": seat}]
        return record.controlled(SeatControl.RESIGNED, level), "resigned", events, ends, False

    @staticmethod
    def _reclaim(loaded: Loaded, seat: int, record: SeatRecord) -> Change | None:
        if record.control is not SeatControl.TAKEN_OVER:
            return None
        return record.controlled(None, None), "reclaimed", [{"type": "seatReturned", "seat": seat}], False, True

    async def _commit(self, loaded: Loaded, seat: int, record: SeatRecord, kind: str, events: list[Event],
                      ends: bool, reclaim: bool) -> SeatStep | None:
        """Commit a seat's step at the loaded version (None: the match moved on first)."""
        match = built(loaded)
        match.version += 1  # a step of the service's own: the engine counts it too (history.step_events)
        events = [{**event, "version": match.version} for event in events]
        now = time.time()
        timing = loaded.timing()
        seats: Seats = {**loaded.seats, seat: record}
        clock = timing.clock
        if clock is not None:
            running = clock.running(match.to_act(), humans(loaded.seats))
            clock = clock.after_step(running, now - timing.at, None)
            if reclaim:
                clock = clock.reclaimed(seat)
        after = Timing(now, now, clock, match.version)  # a person's own step
        entry: dict[str, Any] = {"service": kind, "seat": seat, "events": events}
        due = None if ends else due_at(match, seats, after, self.store.settings)
        data = saved(match)
        ended = EndReason.RESIGNED if ends else None
        committed, done = await mine.indexed(
            self.store, loaded,
            lambda: self.store.commit(loaded, data, entry, events, ends, after, due, reason=ended,
                                      seats={seat: record}),
            lambda committed: stepped(loaded, match, data, after, {seat: record}, ended) if committed.ok else None,
            None if ends else lambda _done: self.scheduler.after_step(loaded.id, match, seats))
        return None if done is None else SeatStep(loaded.id, seat, committed.version, ends)

