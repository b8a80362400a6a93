"""The apply pipeline: load -> authorize -> engine validates/applies -> compare-and-set save -> schedule.

The API runs act() for a seat; workers run advance() for bot seats and non-player steps. Both go through
the same commit, so neither can apply a step to a version that has moved on.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from dataclasses import replace
from enum import StrEnum
from typing import Any

from firebreak.domain import titles
from firebreak.domain.bots import choose_action, takeover_level
from firebreak.domain.contract import Budget, Event, Match
from firebreak.domain.errors import GameOver, NotYourTurn, RulesError
from firebreak.domain.events import visible_to
from firebreak.matches import keys, mine, packing, turns
from firebreak.matches.callers import Caller
from firebreak.matches.clocks import Timing
from firebreak.matches.duties import Duty, DutyKind, due_at, duty_now, humans
from firebreak.matches.lifecycle import EndReason, MatchStatus, SeatControl, Seats
from firebreak.matches.outcomes import ActOutcome, OutcomeKind
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.store import Loaded, MatchStore, built, taken


class Advanced(StrEnum):
    """How an advance job left a match (counted by the workers under these names)."""

    STALE = "stale"  # the match has moved on from the version (or is not active)
    WAITING = "waiting"  # woken for nothing: a person is to act in time
    DONE = "done"  # what the service owed is done: a person is to act
    ABANDONED = "abandoned"  # ended as abandoned
    OVER = "over"  # played to its end
    CONTINUED = "continued"  # handed on to a new job


def saved(match: Match) -> str:
    """The engine's state as stored: JSON text written straight from its own containers (no copy of them)."""
    return packing.dumps(match.to_dict(copied=False))


def stepped(loaded: Loaded, match: Match, data: str, timing: Timing, seats: Seats | None = None,
            ended: EndReason | None = None, fields: dict[str, str] | None = None) -> Loaded:
    """The match as a committed step left it: what a fresh load would read, with the applied engine kept (so the
    answer to act and the worker's next step need neither a read nor a rebuild); data: the state's stored text
    (saved()); seats: the records it changed; ended: why the service ended it (over although the engine's match
    is not); fields: the other meta fields the commit wrote (the seats' turns: matches/turns.py)."""
    status = MatchStatus.OVER if match.is_over() or ended else MatchStatus.ACTIVE
    meta = {**loaded.meta, "status": status.value, "version": str(match.version), **timing.fields(), **(fields or {})}
    if ended is not None:
        meta["reason"] = ended.value
    return Loaded(loaded.id, meta, {**loaded.seats, **(seats or {})}, match.version, data, engine=match)


class Pipeline:
    """Applies steps to live matches; holds nothing but its connections and the matches its own acts left (the
    newest version of each, used only for an act at that very version: at worst an old one, which the commit's
    compare-and-set refuses). Older versions are dropped at once: a cached match is hundreds of live containers
    that the garbage collector would otherwise keep walking. An act at the kept version applies its step to the
    kept engine itself, taken from the kept match (store.taken: no copy, so no garbage); whoever still reads the
    kept match (the previous act's answer) builds its engine again from the stored text, which no step changes."""

    def __init__(self, store: MatchStore, scheduler: Scheduler, budget: Budget | None = None) -> None:
        self.store = store
        self.scheduler = scheduler
        self.recent: OrderedDict[str, Loaded] = OrderedDict()  # match id -> as this process's last commit left it
        self.budget = Budget() if budget is None else budget  # a bot decision's thinking time (workers' settings)

    async def act(self, match_id: str, caller: Caller | str | None, action: Any, expected_version: int,
                  idempotency_key: str | None = None) -> tuple[ActOutcome, Loaded | None]:
        """Apply a seat's action at the version it expects; every refusal is an outcome, not an exception.

        Also returns the match as this call left it when the call applied the action (None otherwise).

        When this process's own commit left the match at the expected version, it starts from that (no read: a
        version names one state, and the commit's compare-and-set refuses it if the match has moved on); a
        refusal found that way is checked again against the stored match, so that every refusal answers the
        match as it stands.
        """
        if isinstance(action, dict) and "label" in action:  # a listed action as the API lists it, label and all
            action = {key: value for key, value in action.items() if key != "label"}
        recent = self.recent.get(match_id)
        if recent is not None and recent.version != expected_version:
            recent = None
        loaded = recent or await self.store.load(match_id)
        if loaded is None:
            return ActOutcome(OutcomeKind.NOT_FOUND, message=f"no match {match_id!r}"), None
        seat = loaded.seat_of(caller)
        if seat is None:
            return ActOutcome(OutcomeKind.UNAUTHORIZED,
                              message="a seat token of this match (or the credential of its seat's player) is "
                                      "required (Authorization: Bearer)"), None
        if idempotency_key:
            first = await self.store.remembered(match_id, seat, idempotency_key)
            if first is not None:
                return ActOutcome.from_json(first), None
        outcome, after = await self._try(loaded, seat, action, expected_version, idempotency_key)
        if recent is not None and after is None:
            stored = await self.store.load(match_id)
            if stored is None:
                return ActOutcome(OutcomeKind.NOT_FOUND, message=f"no match {match_id!r}"), None
            outcome, after = await self._try(stored, seat, action, expected_version, idempotency_key)
        if idempotency_key and after is None:
            if outcome.kind is OutcomeKind.STALE:
                # Perhaps a twin request with the same key won the race: its outcome is the answer.
                first = await self.store.remembered(match_id, seat, idempotency_key)
                if first is not None:
                    return ActOutcome.from_json(first), None
            remembered = await self.store.remember(match_id, seat, idempotency_key, outcome.to_json())
            return ActOutcome.from_json(remembered), None
        return outcome, after

    async def _try(self, loaded: Loaded, seat: int, action: Any, expected_version: int,
                   idempotency_key: str | None) -> tuple[ActOutcome, Loaded | None]:
        if loaded.status is MatchStatus.WAITING:
            return ActOutcome(OutcomeKind.NOT_STARTED, message="the match starts when every seat is taken"), None
        if loaded.status is MatchStatus.OVER:
            return ActOutcome(OutcomeKind.OVER, version=loaded.version, message="the match is over"), None
        control = loaded.seats[seat].control
        if control is SeatControl.TAKEN_OVER:
            return ActOutcome(OutcomeKind.TAKEN_OVER, version=loaded.version,
                              message="the service's bot plays this seat since its clock ran out: take it back "
                                      "with reclaimSeat (POST /v1/matches/{id}/reclaim), then act"), None
        if control is SeatControl.RESIGNED:
            return ActOutcome(OutcomeKind.RESIGNED, version=loaded.version,
                              message="this seat has resigned: the service's bot plays it to the end"), None
        if expected_version != loaded.version:
            return ActOutcome(OutcomeKind.STALE, version=loaded.version,
                              message=f"expected version {expected_version}, the match is at {loaded.version}"), None
        match = taken(loaded)
        now = time.time()
        timing = loaded.timing()
        before = match.to_act()
        running = timing.clock.running(before, humans(loaded.seats)) if timing.clock else []
        try:
            events = match.apply(seat, action)
        except RulesError as exc:
            if loaded.engine is None:
                loaded.engine = match  # a refused step changes nothing (the contract's apply): give it back
            if isinstance(exc, NotYourTurn):
                kind = OutcomeKind.NOT_YOUR_TURN
            else:
                kind = OutcomeKind.OVER if isinstance(exc, GameOver) else OutcomeKind.ILLEGAL
            return ActOutcome(kind, version=loaded.version, code=exc.code, message=str(exc)), None
        clock = None
        entry: dict[str, Any] = {"seat": seat, "action": action}
        if timing.clock is not None:
            clock = timing.clock.after_step(running, now - timing.at, seat)
        after_timing = Timing(now, now, clock, match.version)
        outcome = ActOutcome(OutcomeKind.ACCEPTED, version=match.version, events=visible_to(events, seat))
        idem = None
        if idempotency_key:
            idem = (keys.idempotency_field(seat, idempotency_key), outcome.to_json())
        data = saved(match)
        turned = turns.after_step(loaded.meta, before, match.to_act(), seat, match.version)
        committed, after = await mine.indexed(
            self.store, loaded,
            lambda: self.store.commit(loaded, data, entry, events, match.is_over(), after_timing,
                                      due_at(match, loaded.seats, after_timing, self.store.settings), idem,
                                      meta=turned),
            lambda committed: stepped(loaded, match, data, after_timing, fields=turned) if committed.ok else None,
            lambda _after: self.scheduler.after_step(loaded.id, match, loaded.seats))
        if after is None:
            return ActOutcome(OutcomeKind.STALE, version=committed.version,
                              message=f"the match moved on to version {committed.version}"), None
        self.recent[after.id] = after
        self.recent.move_to_end(after.id)
        while len(self.recent) > self.store.settings.kept_matches:
            self.recent.popitem(last=False)
        return outcome, after

    async def advance(self, match_id: str, version: int, max_steps: int, max_seconds: float | None = None) -> Advanced:
        """Do what the service owes a match from a version on (bot seats, non-player steps, seats whose clock ran
        out, ending it as abandoned); a stale version is a no-op.

        After max_steps steps, or the first step that ends max_seconds after the start, the rest is handed on
        to a new job at the back of the queue: a job stays well inside RQ's timeout whatever the bots' thinking
        time, and a table of slow bots does not hold a worker from other matches.
        """
        settings = self.store.settings
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        kept: Loaded | None = None  # the match as this job's last commit left it: no read, no rebuild
        for step in range(max_steps):
            loaded = kept or await self.store.load(match_id)
            if loaded is None or loaded.status is not MatchStatus.ACTIVE or loaded.version != version:
                return Advanced.STALE
            match = loaded.engine if kept is not None else built(loaded)
            now = time.time()
            timing = loaded.timing()
            duty = duty_now(match, loaded.seats, timing, now, settings)
            if duty is None:
                # Woken early (or for nothing): set the match's due time right for its reconciler.
                await self.store.reschedule(match_id, version, due_at(match, loaded.seats, timing, settings))
                return Advanced.WAITING if step == 0 else Advanced.DONE
            after, committed = await self._serve(loaded, match, timing, duty, now)
            if committed is None:
                return Advanced.STALE
            kept = committed
            version += 1
            if duty.kind is DutyKind.ABANDON:
                return Advanced.ABANDONED
            if match.is_over():
                return Advanced.OVER
            if duty_now(match, committed.seats, after, now, settings) is None:
                return Advanced.DONE
            if deadline is not None and time.monotonic() >= deadline:
                break
        await self.scheduler.enqueue(match_id, version)
        return Advanced.CONTINUED

    async def _serve(self, loaded: Loaded, match: Match, timing: Timing, duty: Duty,
                     now: float) -> tuple[Timing, Loaded | None]:
        """Perform one duty on the match (applied in place) and commit it; return the match's timing after it and
        the match as the commit left it (None when the commit did not hold)."""
        settings = self.store.settings
        clock = timing.clock
        events: list[Event] = []
        pre: list[Event] = []  # the service's events before the engine's (stored in the log for replays)
        entry: dict[str, Any]
        changed: Seats = {}  # the seat records this step changes (a seat taken over)
        if duty.kind is DutyKind.ABANDON:
            after = replace(timing, at=now)
            reason = duty.reason or f"no human action for {settings.abandoned_ttl} s"
            events = [{"type": "matchAbandoned", "reason": reason}]
            entry = {"service": EndReason.ABANDONED.value, "events": events}
            match.version += 1  # a step of the service's own: the engine counts it too (history.step_events)
            data = saved(match)
            _, ended = await mine.indexed(
                self.store, loaded,
                lambda: self.store.commit(loaded, data, entry, events, True, after, None, reason=EndReason.ABANDONED),
                lambda committed: stepped(loaded, match, data, after, ended=EndReason.ABANDONED)
                if committed.ok else None)
            return after, loaded if ended is not None else None  # the caller stops here
        before = match.to_act()
        actor: int | None = None  # the seat whose action the step applies (None: the non-player step)
        running = clock.running(before, humans(loaded.seats)) if clock else []
        if duty.kind is DutyKind.SYSTEM:
            events = match.run_system_step()
            entry = {"system": True}
        else:
            assert duty.seat is not None
            seat = actor = duty.seat
            title = titles.get(loaded.meta["title"])
            if duty.kind is DutyKind.BOT:
                bot_level = loaded.seats[seat].level
                assert bot_level is not None  # a bot's record always names its level
                level = bot_level
            elif duty.expired:
                assert clock is not None
                level = takeover_level(title)
                pre = [{"type": "clockExpired", "seat": seat},
                       {"type": "seatTakenOver", "seat": seat, "level": level}]
                running = [s for s in running if s != seat]
                clock = clock.take_over(seat)
                changed = {seat: loaded.seats[seat].controlled(SeatControl.TAKEN_OVER, level)}
            else:  # taken over or resigned: the bot its record names plays it
                level = loaded.seats[seat].level or takeover_level(title)
            action = choose_action(title, level, match, seat, random.Random(f"{loaded.id}:{loaded.version}"),
                                   self.budget)
            events = [*pre, *match.apply(seat, action)]
            entry = {"seat": seat, "action": action, "bot": level}
            if duty.kind is DutyKind.TAKEOVER:
                entry["takeover"] = True
            if pre:
                entry["pre"] = pre
        if clock is not None:
            clock = clock.after_step(running, now - timing.at, None)
        after = replace(timing, at=now, clock=clock)
        data = saved(match)
        seats = {**loaded.seats, **changed}
        turned = turns.after_step(loaded.meta, before, match.to_act(), actor, match.version)
        _, done = await mine.indexed(
            self.store, loaded,
            lambda: self.store.commit(loaded, data, entry, events, match.is_over(), after,
                                      due_at(match, seats, after, settings), seats=changed, meta=turned),
            lambda committed: stepped(loaded, match, data, after, changed, fields=turned) if committed.ok else None)
        return after, done
