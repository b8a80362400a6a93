"""The Match type: one match as the caller may see it (a seat by its token, or a spectator)."""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any, TypeVar

import strawberry

from api.context import Info
from api.schema.title import ScoreColumn, score_columns
from api.schema.types import JSON, MatchStatus
from api.snapshots import ViewTrail
from domain.contract import Match as EngineMatch
from domain.contract import Result
from domain.events import visible_to
from matches.duties import humans
from matches.pipeline import engine
from matches.results import final_result
from matches.scheduler import automated_next
from matches.store import Loaded

MAX_EVENTS_PAGE = 500
T = TypeVar("T")


@strawberry.type
class SeatInfo:
    """Who sits in a seat (never their token)."""

    seat: int = strawberry.field(description="The seat number (0-based).")
    taken: bool = strawberry.field(description="Whether someone sits in it.")
    name: str | None = strawberry.field(description="The display name (null while open).")
    kind: str | None = strawberry.field(description="human | bot")
    level: str | None = strawberry.field(description="A bot's level (null for a person or an open seat).")


@strawberry.enum
class EndReason(Enum):
    """Why a match is over."""

    FINISHED = strawberry.enum_value("finished", description="Played to its end by the rules.")
    ABANDONED = strawberry.enum_value("abandoned", description="Ended by the service: no person acted for too long.")


@strawberry.type(description="One named part of a seat's score.")
class ScorePart:
    """One named part of a seat's score."""

    key: str = strawberry.field(description="The score column's key (Title.scoreColumns).")
    value: int = strawberry.field(description="The points of this part.")


@strawberry.type(description="A seat's final score.")
class SeatScore:
    """A seat's final score."""

    seat: int = strawberry.field(description="The seat.")
    total: int = strawberry.field(description="The seat's final total.")
    parts: list[ScorePart] = strawberry.field(description="The total's parts, in the title's column order.")


@strawberry.type(description="How an over match came out.")
class MatchResult:
    """How an over match came out."""

    end_reason: EndReason = strawberry.field(description="Played to its end, or abandoned.")
    reason: str = strawberry.field(description="Why it ended, in the title's words.")
    columns: list[ScoreColumn] = strawberry.field(description="The title's score columns, in order.")
    scores: list[SeatScore] = strawberry.field(description="Every seat's score ([] for an abandoned match).")
    winners: list[int] = strawberry.field(
        description="The winning seats: several on a true tie, [] for an abandoned match.")

    @classmethod
    def of(cls, loaded: Loaded, result: Result) -> MatchResult:
        """The GraphQL form of a stored match's result."""
        title_id = loaded.meta["title"]
        return cls(end_reason=EndReason(loaded.end_reason), reason=result.reason, columns=score_columns(title_id),
                   scores=[SeatScore(seat=s.seat, total=s.total,
                                     parts=[ScorePart(key=k, value=v) for k, v in s.parts.items()])
                           for s in result.scores],
                   winners=list(result.winners))


@strawberry.type
class SeatClock:
    """One seat's turn clock as of this read."""

    seat: int = strawberry.field(description="The seat.")
    seconds_left: float = strawberry.field(description="Its time left as of this read.")
    running: bool = strawberry.field(description="the seat owes a decision and its time is counting down")
    taken_over: bool = strawberry.field(
        description="its time ran out: the service's bot plays the seat until its owner acts again")


@strawberry.type
class MatchClock:
    """The match's Fischer clock: every seat's time left, and whose clock runs (none while the service acts)."""

    initial_seconds: float = strawberry.field(description="Each seat's time at the start.")
    increment_seconds: float = strawberry.field(description="Seconds added each time a seat's owner acts.")
    seats: list[SeatClock] = strawberry.field(description="Every seat's clock.")


@strawberry.type
class MatchEvent:
    """The events of one applied step, redacted for the viewer; version is the match's version after it."""

    version: int = strawberry.field(description="The match's version after the step.")
    events: JSON = strawberry.field(description="The step's events the viewer may see, in order.")
    match_id: strawberry.Private[str | None] = None
    viewer: strawberry.Private[int | None] = None
    latest: strawberry.Private[bool] = False
    trail: strawberry.Private[ViewTrail | None] = None

    async def _current(self, info: Info) -> Match | None:
        """The subscriber's match at this step's version (sharing the step's per-seat cache), or None."""
        if not self.latest or self.match_id is None:
            return None
        snapshots = info.context.services.snapshots
        loaded = await snapshots.at(self.match_id, self.version)
        if loaded is None:
            return None
        return Match(loaded=loaded, viewer=self.viewer, cache=snapshots.seat_cache(loaded.id, loaded.version,
                                                                                  self.viewer))

    @strawberry.field
    async def match(self, info: Info) -> Match | None:
        """The match as the subscriber sees it right after this step (view, toAct, legalActions...), so a bot
        needs no extra read: set on the newest step delivered while the match is still at its version; null on
        older steps replayed on resumption and in events() pages (a newer step follows)."""
        return await self._current(info)

    @strawberry.field
    async def view_changes(self, info: Info) -> JSON | None:
        """Only what changed in the subscriber's view: an RFC 6902 JSON Patch (a list of {op, path, value?})
        that turns the view this subscription last delivered into the view after this step (match.view). The
        first one a subscription delivers (so the first after every reconnect) replaces the whole document
        ({"op": "replace", "path": ""}); apply each in order to keep a copy of the view current without selecting
        match.view. Null exactly when match is (older steps replayed on resumption, events() pages): the next
        patch then spans every step since the last one delivered."""
        if self.trail is None:
            return None
        current = await self._current(info)
        if current is None:
            return None
        return self.trail.advance(self.version, current.viewer_view(), current.cache)


@strawberry.type
class Match:
    """A match as the caller may see it."""

    loaded: strawberry.Private[Loaded]
    viewer: strawberry.Private[int | None]
    cache: strawberry.Private[dict[str, Any]]

    @classmethod
    def of(cls, loaded: Loaded, token: str | None) -> Match:
        """Wrap a loaded match for the holder of a token (or a spectator)."""
        return cls(loaded=loaded, viewer=loaded.seat_of(token), cache={})

    def _memo(self, name: str, compute: Callable[[], T]) -> T:
        """A value computed once per wrapper (and per step and seat when subscribers share the cache)."""
        if name not in self.cache:
            self.cache[name] = compute()
        value: T = self.cache[name]
        return value

    def _engine(self) -> EngineMatch:
        if "engine" not in self.cache:
            self.cache["engine"] = engine(self.loaded)
        match: EngineMatch = self.cache["engine"]
        return match

    @strawberry.field
    def id(self) -> strawberry.ID:
        """The match id."""
        return strawberry.ID(self.loaded.id)

    @strawberry.field
    def title(self) -> str:
        """The title id (one of titles' ids)."""
        return self.loaded.meta["title"]

    @strawberry.field
    def status(self) -> MatchStatus:
        """waiting (seats open), active, over."""
        return MatchStatus(self.loaded.status)

    @strawberry.field
    def version(self) -> int:
        """Rises by one per applied step; send it back as act's expectedVersion."""
        return self.loaded.version

    @strawberry.field
    def seat_count(self) -> int:
        """How many seats the match has."""
        return self.loaded.seat_count

    @strawberry.field
    def options(self) -> JSON:
        """The options the match was created with (defaults filled in)."""
        return self.loaded.meta_options()

    @strawberry.field
    def seats(self) -> list[SeatInfo]:
        """Every seat, taken or not."""
        out = []
        for seat in range(self.loaded.seat_count):
            record = self.loaded.seats.get(seat)
            if record is None:
                out.append(SeatInfo(seat=seat, taken=False, name=None, kind=None, level=None))
            else:
                out.append(SeatInfo(seat=seat, taken=True, name=record["name"], kind=record["kind"],
                                    level=record.get("level")))
        return out

    @strawberry.field
    def clock(self) -> MatchClock | None:
        """The turn clock (null for a match created without one)."""
        timing = self.loaded.timing()
        clock = timing.clock
        if clock is None:
            return None
        running: list[int] = []
        if self.loaded.status == "active" and not automated_next(self._engine(), self.loaded.seats):
            running = clock.running(self._engine().to_act(), humans(self.loaded.seats))
        elapsed = max(0.0, time.time() - timing.at)
        return MatchClock(initial_seconds=clock.initial, increment_seconds=clock.increment, seats=[
            SeatClock(seat=seat, seconds_left=clock.left_after(seat, running, elapsed), running=seat in running,
                      taken_over=seat in clock.taken_over) for seat in range(len(clock.left))])

    @strawberry.field
    def end_reason(self) -> EndReason | None:
        """Why the match is over (null until it is): played to its end, or abandoned."""
        reason = self.loaded.end_reason
        return None if reason is None else EndReason(reason)

    @strawberry.field
    def you(self) -> int | None:
        """The caller's seat (from the bearer token), or null for a spectator."""
        return self.viewer

    @strawberry.field
    def to_act(self) -> list[int]:
        """Seats owing a decision now, a bot's seat too (see serviceToAct); [] in a non-player step or once over."""
        if self.loaded.status != "active":
            return []
        return self._memo("toAct", lambda: self._engine().to_act())

    @strawberry.field
    def service_to_act(self) -> bool:
        """True while the next step is the service's (a bot seat or a 2-player non-player turn)."""
        return self.loaded.status == "active" and automated_next(self._engine(), self.loaded.seats)

    def viewer_view(self) -> dict[str, Any]:
        """The caller's view, computed once per wrapper (per step and seat when subscribers share the cache)."""
        return self._memo("view", lambda: self._engine().view(self.viewer))

    @strawberry.field
    def view(self) -> JSON:
        """The caller's view of the game (a spectator's without a seat token)."""
        return self.viewer_view()

    @strawberry.field
    def legal_actions(self) -> list[JSON]:
        """The caller's legal actions now; submit any of them to act as is."""
        viewer = self.viewer
        if viewer is None or self.loaded.status != "active":
            return []
        return self._memo("legalActions", lambda: self._engine().legal_actions(viewer))

    @strawberry.field
    async def events(
        self, info: Info,
        after_version: Annotated[int, strawberry.argument(description="Steps after this version.")] = 0,
        limit: Annotated[int, strawberry.argument(description="At most this many steps (1-500).")] = 200,
    ) -> list[MatchEvent]:
        """Steps after a version, redacted for the caller (at most 500 a page)."""
        limit = max(1, min(limit, MAX_EVENTS_PAGE))
        rows = await info.context.services.store.events_after(self.loaded.id, max(0, after_version), limit)
        return [MatchEvent(version=v, events=visible_to(events, self.viewer)) for v, events in rows]

    @strawberry.field
    def result(self) -> MatchResult | None:
        """Scores, winners and why it ended once the match is over, else null."""
        if self.loaded.status != "over":
            return None
        result = final_result(self.loaded, self._engine())
        return None if result is None else MatchResult.of(self.loaded, result)
