"""The Match type: one match as the caller may see it (a seat by its token, or a spectator)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import strawberry

from firebreak.api import labels
from firebreak.api.bounds import MAX_EVENTS_PAGE
from firebreak.api.context import Info
from firebreak.api.leaderboards import exported
from firebreak.api.schema.rematch_offer import RematchOffer
from firebreak.api.schema.title import ScoreColumn, score_columns
from firebreak.api.schema.types import JSON, MatchStatus
from firebreak.api.snapshots import ViewTrail
from firebreak.archive.records import NotArchivable
from firebreak.domain.contract import Event
from firebreak.domain.events import visible_to
from firebreak.matches import lifecycle
from firebreak.matches.callers import Caller
from firebreak.matches.reading import ClockReading, FinalResult, Reading, SeatReading
from firebreak.matches.rematch import Rematches
from firebreak.matches.rematch_offers import Offers
from firebreak.matches.store import Loaded


@strawberry.type
class SeatInfo:
    """Who sits in a seat (never their token)."""

    seat: int = strawberry.field(description="The seat number (0-based).")
    taken: bool = strawberry.field(description="Whether someone sits in it.")
    name: str | None = strawberry.field(description="The display name (null while open).")
    kind: str | None = strawberry.field(description="human | bot")
    level: str | None = strawberry.field(
        description="A bot's level, or the bot that plays a person's seat while takenOver or resigned (else null).")
    taken_over: bool = strawberry.field(
        description="The seat's clock ran out: the service's bot plays it at bot speed until its owner calls "
                    "reclaimSeat.")
    resigned: bool = strawberry.field(
        description="The seat's owner resigned: the service's bot plays it to the end; it ranks after every seat "
                    "that did not resign.")
    program: bool = strawberry.field(
        default=False, description="A human seat whose player plays it through a personal access token of the bot "
                                   "scope (a program); false otherwise.")
    player: strawberry.ID | None = strawberry.field(
        default=None, description="The id of the player the seat is bound to (null: an open seat, a bot, or a seat "
                                  "joined without a player credential).")
    deleted: bool = strawberry.field(
        default=False, description="The seat's player deleted their account since: the seat shows a deleted player, "
                                   "with no player id or handle.")

    @strawberry.field
    async def handle(self, info: Info) -> str | None:
        """The handle of the player the seat is bound to, as it is now (null: no player, or one gone)."""
        if self.player is None:
            return None
        player = await info.context.services.players.directory.get(str(self.player))
        return None if player is None else player.handle

    @classmethod
    def of(cls, s: SeatReading) -> SeatInfo:
        """The GraphQL form of a seat as the read model has it."""
        return cls(seat=s.seat, taken=s.taken, name=s.name, kind=s.kind, level=s.level,
                   taken_over=s.control is lifecycle.SeatControl.TAKEN_OVER,
                   resigned=s.control is lifecycle.SeatControl.RESIGNED, program=s.program,
                   player=None if s.player is None else strawberry.ID(s.player), deleted=s.deleted)


@strawberry.enum
class EndReason(Enum):
    """Why a match is over."""

    # matches.lifecycle.EndReason member for member (same names, same values)
    FINISHED = strawberry.enum_value(lifecycle.EndReason.FINISHED.value, description="Played to its end by the rules.")
    ABANDONED = strawberry.enum_value(lifecycle.EndReason.ABANDONED.value,
                                      description="Ended by the service: no person acted for too long.")
    RESIGNED = strawberry.enum_value(lifecycle.EndReason.RESIGNED.value,
                                     description="Ended at once when a resignation left at most one person in it: "
                                                 "the title ranks the seats that did not resign as the match stood.")
    CANCELLED = strawberry.enum_value(lifecycle.EndReason.CANCELLED.value,
                                      description="Called off by its creator before it started (cancelMatch).")


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

    end_reason: EndReason = strawberry.field(description="Played to its end, abandoned, resigned or cancelled.")
    reason: str = strawberry.field(description="Why it ended, in the title's words.")
    columns: list[ScoreColumn] = strawberry.field(description="The title's score columns, in order.")
    scores: list[SeatScore] = strawberry.field(description="Every seat's score ([] for an abandoned match).")
    winners: list[int] = strawberry.field(
        description="The winning seats: several on a true tie, [] for an abandoned or cancelled match; a seat "
                    "that resigned ranks after every seat that did not (never a winner while one is there).")
    resigned: list[int] = strawberry.field(description="The seats that resigned, in seat order.")

    @classmethod
    def of(cls, result: FinalResult) -> MatchResult:
        """The GraphQL form of a read match's result."""
        return cls(end_reason=EndReason[result.end_reason.name], reason=result.reason,
                   columns=score_columns(result.columns),
                   scores=[SeatScore(seat=s.seat, total=s.total,
                                     parts=[ScorePart(key=k, value=v) for k, v in s.parts.items()])
                           for s in result.scores],
                   winners=list(result.winners), resigned=list(result.resigned))


@strawberry.type
class SeatClock:
    """One seat's turn clock as of this read."""

    seat: int = strawberry.field(description="The seat.")
    seconds_left: float = strawberry.field(description="Its time left as of this read.")
    running: bool = strawberry.field(description="the seat owes a decision and its time is counting down")
    taken_over: bool = strawberry.field(
        description="the service's bot plays the seat at bot speed: its time ran out (until its owner calls "
                    "reclaimSeat), or it resigned")


@strawberry.type
class MatchClock:
    """The match's turn clock: a Fischer clock, a per-move limit, or both; every seat's time left, and whose clock
    runs (none while the service acts)."""

    initial_seconds: float | None = strawberry.field(
        description="Each seat's Fischer time at the start (null: no Fischer clock, only a per-move limit).")
    increment_seconds: float = strawberry.field(description="Seconds added each time a seat's owner acts.")
    per_move_seconds: float | None = strawberry.field(
        description="The most each decision may take (null: no per-move limit).")
    seats: list[SeatClock] = strawberry.field(
        description="Every seat's clock; secondsLeft is the smaller of its Fischer time and its per-move time.")

    @classmethod
    def of(cls, clock: ClockReading) -> MatchClock:
        """The GraphQL form of a read clock."""
        return cls(initial_seconds=clock.initial_seconds, increment_seconds=clock.increment_seconds,
                   per_move_seconds=clock.per_move_seconds,
                   seats=[SeatClock(seat=s.seat, seconds_left=s.seconds_left, running=s.running,
                                    taken_over=s.taken_over) for s in clock.seats])


@strawberry.type
class MatchEvent:
    """The events of one applied step, redacted for the viewer; version is the match's version after it."""

    version: int = strawberry.field(description="The match's version after the step.")
    seen: strawberry.Private[list[Event]]
    loaded: strawberry.Private[Loaded]  # the match read (for its seats' names in the labels)
    match_id: strawberry.Private[str | None] = None
    viewer: strawberry.Private[int | None] = None
    latest: strawberry.Private[bool] = False
    trail: strawberry.Private[ViewTrail | None] = None

    @strawberry.field
    def events(self) -> JSON:
        """The step's events the viewer may see, in order, each with its label: what it means in the reader's
        language (Accept-Language)."""
        return labels.events(self.loaded, self.version, self.viewer, self.seen)

    async def _current(self, info: Info) -> Match | None:
        """The subscriber's match at this step's version (sharing the step's per-seat cache), or None."""
        if not self.latest or self.match_id is None:
            return None
        snapshots = info.context.services.snapshots
        loaded = await snapshots.at(self.match_id, self.version)
        if loaded is None:
            return None
        memo = snapshots.seat_cache(loaded.id, loaded.version, self.viewer)
        return Match(read=Reading.of(loaded, self.viewer, memo))

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
        return self.trail.advance(self.version, current.read.view(), current.read.memo)


@strawberry.type
class MatchLink:
    """Another match, by id (read it with match(id))."""

    id: strawberry.ID = strawberry.field(description="The match's id.")


@strawberry.type
class Match:
    """A match as the caller may see it."""

    read: strawberry.Private[Reading]

    @classmethod
    def of(cls, loaded: Loaded, caller: Caller | None) -> Match:
        """Wrap a loaded match for a caller (None: a spectator)."""
        return cls(read=Reading.of(loaded, loaded.seat_of(caller)))

    @strawberry.field
    def id(self) -> strawberry.ID:
        """The match id."""
        return strawberry.ID(self.read.id)

    @strawberry.field
    def title(self) -> str:
        """The title id (one of titles' ids)."""
        return self.read.title

    @strawberry.field
    def status(self) -> MatchStatus:
        """waiting (seats open), active, over."""
        return MatchStatus[self.read.status.name]

    @strawberry.field
    def version(self) -> int:
        """Rises by one per applied step; send it back as act's expectedVersion."""
        return self.read.version

    @strawberry.field
    def seat_count(self) -> int:
        """How many seats the match has."""
        return self.read.seat_count

    @strawberry.field
    def options(self) -> JSON:
        """The options the match was created with (defaults filled in)."""
        return self.read.options()

    @strawberry.field
    def seats(self) -> list[SeatInfo]:
        """Every seat, taken or not."""
        return [SeatInfo.of(s) for s in self.read.seats()]

    @strawberry.field
    def clock(self) -> MatchClock | None:
        """The turn clock (null for a match created without one)."""
        clock = self.read.clock()
        return None if clock is None else MatchClock.of(clock)

    @strawberry.field
    def end_reason(self) -> EndReason | None:
        """Why the match is over (null until it is): played to its end, abandoned, resigned or cancelled."""
        reason = self.read.end_reason
        return None if reason is None else EndReason[reason.name]

    @strawberry.field
    def you(self) -> int | None:
        """The caller's seat (from the seat token, or the seat bound to the caller's player), or null for a
        spectator."""
        return self.read.you

    @strawberry.field
    def to_act(self) -> list[int]:
        """Seats owing a decision now, a bot's seat too (see serviceToAct); [] in a non-player step or once over."""
        return self.read.to_act()

    @strawberry.field
    def service_to_act(self) -> bool:
        """True while the next step is the service's (a bot seat or a 2-player non-player turn)."""
        return self.read.service_to_act()

    @strawberry.field
    def view(self) -> JSON:
        """The caller's view of the game (a spectator's without a seat token)."""
        return self.read.view()

    @strawberry.field
    def legal_actions(self) -> list[JSON]:
        """The caller's legal actions now, each with its label (what it does, in the reader's language:
        Accept-Language); submit any of them to act as is (act ignores the label)."""
        return labels.legal_actions(self.read)

    @strawberry.field
    async def events(
        self, info: Info,
        after_version: Annotated[int, strawberry.argument(description="Steps after this version.")] = 0,
        limit: Annotated[int, strawberry.argument(description="At most this many steps (1-500).")] = 200,
    ) -> list[MatchEvent]:
        """Steps after a version, redacted for the caller (at most 500 a page)."""
        limit = max(1, min(limit, MAX_EVENTS_PAGE))
        rows = await info.context.services.store.events_after(self.read.id, max(0, after_version), limit)
        return [MatchEvent(version=v, seen=visible_to(events, self.read.you), loaded=self.read.loaded,
                           viewer=self.read.you) for v, events in rows]

    @strawberry.field
    async def rematch(self, info: Info) -> MatchLink | None:
        """The match's rematch once every person accepted its offer (offerRematch, acceptRematch), else null."""
        if self.read.status is not lifecycle.MatchStatus.OVER:
            return None
        found = await Rematches(info.context.services.lobby).rematch_of(self.read.id)
        return None if found is None else MatchLink(id=strawberry.ID(found))

    @strawberry.field
    async def rematch_offer(self, info: Info) -> RematchOffer | None:
        """The over match's rematch offer, standing or last (offerRematch), else null."""
        if self.read.status is not lifecycle.MatchStatus.OVER:
            return None
        offer = await Offers(info.context.services.lobby).read(self.read.id)
        return None if offer is None else RematchOffer.of(offer)

    @strawberry.field
    async def export(self, info: Info) -> JSON | None:
        """The match as one self-contained document once it is over (null before): the same JSON as GET
        /v1/matches/{id}/export (format firebreak.match-export): title, options, seed, seats, the whole log and
        the result; played through the title's engine from the seed, the log gives the same result."""
        try:
            return await exported(info.context.services, self.read.loaded)
        except NotArchivable:
            return None

    @strawberry.field
    def result(self) -> MatchResult | None:
        """Scores, winners and why it ended once the match is over, else null."""
        result = labels.result(self.read.title, self.read.result())
        return None if result is None else MatchResult.of(result)
