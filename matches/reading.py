"""The read model: one match as one viewer (a seat, or a spectator) may see it, built once per read from a loaded
match; both API surfaces render it.

What needs the engine (toAct, the view, legal actions, the clock's running seats, the result) is computed when
first asked for and kept in `memo`: a surface selecting only the version builds no engine, and subscribers who
see the same step from the same seat share one memo (api.snapshots), so a view is computed once per (step, seat).
The engine itself is built at most once per loaded match (matches.store.engine).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from firebreak.domain import titles
from firebreak.domain.contract import Match, Result, ScoreColumn, SeatScore
from firebreak.matches import packing
from firebreak.matches.duties import humans
from firebreak.matches.lifecycle import EndReason, MatchStatus, SeatControl, SeatKind
from firebreak.matches.scheduler import automated_next
from firebreak.matches.store import Loaded, engine

T = TypeVar("T")

ABANDONED = Result(scores=(), winners=(), reason="abandoned: no person acted for too long, so the service ended it")
CANCELLED = Result(scores=(), winners=(), reason="cancelled: its creator called it off before it started")
RESIGNED = ("resigned: a resignation left at most one person in the match; the seats that did not resign are "
            "ranked as the match stood")


@dataclass(frozen=True)
class SeatReading:
    """Who sits in a seat (never their token): nothing but the seat number while it is open; control says why
    the service plays a person's seat (taken over, resigned), level then names the bot that does."""

    seat: int
    taken: bool
    name: str | None = None
    kind: SeatKind | None = None
    level: str | None = None
    program: bool = False  # a person's seat played by its player's program (a bot-scoped access token)
    player: str | None = None  # the id of the player the seat is bound to (None: a seat of its token alone)
    control: SeatControl | None = None
    deleted: bool = False  # the seat of a player who deleted their account since (players/deletion.py)


@dataclass(frozen=True)
class SeatClock:
    """One seat's turn clock as of the read."""

    seat: int
    seconds_left: float
    running: bool  # the seat owes a decision and its time is counting down
    taken_over: bool  # the service's bot plays it: its time ran out (until its owner reclaims it), or it resigned


@dataclass(frozen=True)
class ClockReading:
    """The match's turn clock as of the read: its Fischer clock (initial None: none) and per-move limit (None:
    none)."""

    initial_seconds: float | None
    increment_seconds: float
    per_move_seconds: float | None
    seats: tuple[SeatClock, ...]


@dataclass(frozen=True)
class FinalResult:
    """How an over match came out: why it ended, the title's score columns, every seat's score, the winners (no
    scores or winners for an abandoned or cancelled match; the standing when a resignation ended it) and the seats
    that resigned (never winners while a seat that did not resign is there)."""

    end_reason: EndReason
    reason: str
    columns: tuple[ScoreColumn, ...]
    scores: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    resigned: tuple[int, ...] = ()


@dataclass(frozen=True)
class Reading:
    """A match as one viewer may see it; `you` is the viewer's seat (None: a spectator)."""

    loaded: Loaded = field(repr=False)
    id: str
    title: str
    status: MatchStatus
    version: int
    seat_count: int
    end_reason: EndReason | None
    you: int | None
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, loaded: Loaded, viewer: int | None, memo: dict[str, Any] | None = None) -> Reading:
        """Read a loaded match as a seat (None: a spectator); memo: one shared with other reads of the same step
        by the same seat."""
        return cls(loaded, loaded.id, loaded.meta["title"], loaded.status, loaded.version, loaded.seat_count,
                   loaded.end_reason, viewer, {} if memo is None else memo)

    def _memo(self, name: str, compute: Callable[[], T]) -> T:
        if name not in self.memo:
            self.memo[name] = compute()
        value: T = self.memo[name]
        return value

    def engine(self) -> Match:
        """The engine's match (built once per loaded match; read only)."""
        return engine(self.loaded)

    def options(self) -> dict[str, Any]:
        """The options the match was created with (defaults filled in)."""
        return self.loaded.meta_options()

    def seats(self) -> list[SeatReading]:
        """Every seat, taken or not."""
        out = []
        for seat in range(self.seat_count):
            record = self.loaded.seats.get(seat)
            if record is None:
                out.append(SeatReading(seat, taken=False))
            else:
                out.append(SeatReading(seat, True, record.name, record.kind, record.level, record.program,
                                       record.player, record.control, record.deleted))
        return out

    def clock(self) -> ClockReading | None:
        """The turn clock as of now (None for a match without one): nobody's runs unless the match is active and
        a person owes the next decision."""
        timing = self.loaded.timing()
        clock = timing.clock
        if clock is None:
            return None
        running = self._memo("running", self._running)
        elapsed = max(0.0, time.time() - timing.at)
        seats = self.loaded.seats
        return ClockReading(clock.initial, clock.increment, clock.per_move, tuple(
            SeatClock(seat, clock.left_after(seat, running, elapsed), seat in running,
                      seat in seats and seats[seat].control is not None)
            for seat in range(len(clock.left))))

    def _running(self) -> list[int]:
        clock = self.loaded.timing().clock
        if clock is None or self.status is not MatchStatus.ACTIVE or automated_next(self.engine(), self.loaded.seats):
            return []
        return clock.running(self.engine().to_act(), humans(self.loaded.seats))

    def to_act(self) -> list[int]:
        """Seats owing a decision now, a bot's seat too; [] in a non-player step or unless the match is active."""
        if self.status is not MatchStatus.ACTIVE:
            return []
        return self._memo("toAct", lambda: self.engine().to_act())

    def service_to_act(self) -> bool:
        """Whether the next step is the service's (a bot seat or a non-player step) in an active match."""
        return self.status is MatchStatus.ACTIVE and automated_next(self.engine(), self.loaded.seats)

    def view(self) -> dict[str, Any]:
        """The viewer's view of the game (a spectator's without a seat)."""
        return self._memo("view", lambda: self.engine().view(self.you))

    def json_view(self) -> dict[str, Any]:
        """The same view to be sent as JSON by matches.packing: the title's json_view where it has one (parts kept
        written, as packing.RAW: the same bytes), else the view."""
        if "view" in self.memo:
            return self.view()
        engine = self.engine()
        written = getattr(engine, "json_view", None)
        if written is None:
            return self.view()
        return self._memo("jsonView", lambda: written(self.you, packing.RAW))

    def legal_actions(self) -> list[Any]:
        """The viewer's legal actions now ([] for a spectator and unless the match is active)."""
        you = self.you
        if you is None or self.status is not MatchStatus.ACTIVE:
            return []
        return self._memo("legalActions", lambda: self.engine().legal_actions(you))

    def result(self) -> FinalResult | None:
        """How the match came out once it is over (None before)."""
        if self.end_reason is None:
            return None
        end_reason = self.end_reason
        out = tuple(sorted(s for s, r in self.loaded.seats.items() if r.control is SeatControl.RESIGNED))
        stayed = tuple(s for s in sorted(self.loaded.seats) if s not in out)
        result: Result | None
        if end_reason is EndReason.RESIGNED:
            result = self._standing(stayed, RESIGNED) or Result(scores=(), winners=stayed, reason=RESIGNED)
        elif end_reason is EndReason.CANCELLED:
            result = CANCELLED
        elif end_reason is EndReason.ABANDONED:
            result = ABANDONED
        else:
            result = self.engine().result()
            if result is not None and out:
                result = self._standing(stayed, result.reason) or result
        if result is None:
            return None
        return FinalResult(end_reason, result.reason, tuple(titles.get(self.title).score_columns()), result.scores,
                           ranked_winners(result, out), out)

    def _standing(self, stayed: tuple[int, ...], reason: str) -> Result | None:
        """The title's ranking of the seats that did not resign (None: a title that ranks only a finished match)."""
        rank = getattr(self.engine(), "standing", None)
        ranked: Result | None = rank(stayed, reason) if callable(rank) and stayed else None
        return ranked


def ranked_winners(result: Result, resigned: tuple[int, ...]) -> tuple[int, ...]:
    """The winners once resigned seats rank after every seat that did not resign: the title's winners that did
    not resign, else (all of them resigned) the best total among the seats that did not."""
    winners = tuple(s for s in result.winners if s not in resigned)
    if winners or not result.scores:
        return winners
    stayed = [score for score in result.scores if score.seat not in resigned]
    best = max((score.total for score in stayed), default=None)
    return tuple(score.seat for score in stayed if score.total == best)
