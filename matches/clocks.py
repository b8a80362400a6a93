"""Fischer turn clocks and a match's timestamps, kept as plain fields of the match's meta hash.

A clock holds each seat's time left as of the match's last change ("at"). Between two changes the clocks of
the seats that run lose the time that passed; a seat that acts itself gains the increment; a per-move limit
restarts with each decision. A seat whose time runs out is taken over: the service plays it with the title's
takeover bot, at bot speed, until its owner reclaims it (matches.seatlife).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

MAX_INITIAL = 7 * 24 * 3600.0
MAX_INCREMENT = 24 * 3600.0
MAX_PER_MOVE = 14 * 24 * 3600.0


class ClockError(ValueError):
    """Raised when a clock asked for at createMatch is unusable."""


def _number(value: object, low: float, high: float, low_open: bool) -> bool:
    """Whether value is a finite number in (low, high] (low_open) or [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return False
    return (low < value if low_open else low <= value) and value <= high


@dataclass(frozen=True)
class Clock:
    """A match's turn clock: a Fischer clock (initial, increment; `left` per seat as of the match's last change),
    a per-move limit (`per_move`; `move_left` per seat), or both. Without a Fischer clock initial is None and
    `left` is infinite; without a per-move limit per_move is None and `move_left` is empty. A seat's time left is
    the smaller of the two."""

    initial: float | None
    increment: float
    left: tuple[float, ...]
    per_move: float | None = None
    move_left: tuple[float, ...] = ()

    @classmethod
    def new(cls, initial: float | None, increment: float, seats: int, per_move: float | None = None) -> Clock:
        """A fresh clock for every seat; raise ClockError for values out of range (at least one of initial and
        per_move is needed; an increment needs a Fischer clock)."""
        if initial is None and per_move is None:
            raise ClockError("clock.initialSeconds or clock.perMoveSeconds is needed (or both)")
        if initial is not None and not _number(initial, 0, MAX_INITIAL, low_open=True):
            raise ClockError(f"clock.initialSeconds must be above 0 and at most {MAX_INITIAL:.0f}")
        if not _number(increment, 0, MAX_INCREMENT, low_open=False):
            raise ClockError(f"clock.incrementSeconds must be 0 to {MAX_INCREMENT:.0f}")
        if initial is None and increment:
            raise ClockError("clock.incrementSeconds needs clock.initialSeconds (a Fischer clock)")
        if per_move is not None and not _number(per_move, 0, MAX_PER_MOVE, low_open=True):
            raise ClockError(f"clock.perMoveSeconds must be above 0 and at most {MAX_PER_MOVE:.0f} (14 days)")
        fischer = math.inf if initial is None else float(initial)
        moves = () if per_move is None else (float(per_move),) * seats
        return cls(None if initial is None else float(initial), float(increment), (fischer,) * seats,
                   None if per_move is None else float(per_move), moves)

    @classmethod
    def from_json(cls, raw: str | None) -> Clock | None:
        """The clock stored in meta, or None for a match without one (a clock stored before per-move limits and
        controlled seats reads as a Fischer clock; its takenOver list is now in the seat records)."""
        if not raw:
            return None
        data = json.loads(raw)
        initial = data.get("initial")
        left = tuple(data["left"]) if initial is not None else (math.inf,) * len(data["moveLeft"])
        return cls(initial, data["increment"], left, data.get("perMove"), tuple(data.get("moveLeft", ())))

    def to_json(self) -> str:
        """The stored form."""
        out: dict[str, object] = {"initial": self.initial, "increment": self.increment}
        if self.initial is not None:
            out["left"] = list(self.left)
        if self.per_move is not None:
            out["perMove"] = self.per_move
            out["moveLeft"] = list(self.move_left)
        return json.dumps(out)

    def seconds(self, seat: int) -> float:
        """A seat's time left as of the last change: the smaller of its Fischer time and its per-move time."""
        return min(self.left[seat], self.move_left[seat]) if self.per_move is not None else self.left[seat]

    @staticmethod
    def running(to_act: Iterable[int], owned: set[int]) -> list[int]:
        """The seats whose clock runs: people owing a decision they play themselves (no bot plays for them)."""
        return [s for s in to_act if s in owned]

    def left_after(self, seat: int, running: list[int], elapsed: float) -> float:
        """A seat's time left once `elapsed` seconds have passed since the last change."""
        return max(0.0, self.seconds(seat) - elapsed) if seat in running else self.seconds(seat)

    def after_step(self, running: list[int], elapsed: float, owner: int | None) -> Clock:
        """The clock after a step: running seats lose `elapsed`; the owner who acted (None: the service did)
        gains the increment; a per-move limit starts afresh for every seat but those still owing the decision
        they owed (a running seat that did not act)."""
        left = [max(0.0, t - elapsed) if seat in running else t for seat, t in enumerate(self.left)]
        if owner is not None:
            left[owner] += self.increment
        moves = tuple(max(0.0, t - elapsed) if seat in running and seat != owner else (self.per_move or 0.0)
                      for seat, t in enumerate(self.move_left))
        return replace(self, left=tuple(left), move_left=moves)

    def take_over(self, seat: int) -> Clock:
        """The clock once a bot plays the seat (its time is up)."""
        left = list(self.left)
        left[seat] = 0.0 if self.initial is not None else math.inf
        return replace(self, left=tuple(left))

    def reclaimed(self, seat: int) -> Clock:
        """The clock once the seat's owner reclaims it: its Fischer time restarts at 0 + the increment and its
        per-move limit in full."""
        left = list(self.left)
        if self.initial is not None:
            left[seat] = self.increment
        moves = list(self.move_left)
        if self.per_move is not None:
            moves[seat] = self.per_move
        return replace(self, left=tuple(left), move_left=tuple(moves))


@dataclass(frozen=True)
class Timing:
    """When the match last changed, when a person last acted in it, its clock (if any), and the version a
    person's last step left (the service's steps since then run in a row: duties.duty_now caps the run)."""

    at: float
    last_human: float
    clock: Clock | None
    human_version: int = 0

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> Timing:
        """Read from the meta hash (matches stored before these fields fall back to their creation time)."""
        created = float(meta.get("created", 0.0))
        at = float(meta.get("at", created))
        return cls(at, float(meta.get("lastHuman", at)), Clock.from_json(meta.get("clock")),
                   int(meta.get("humanVersion", meta.get("version", 0))))

    def fields(self) -> dict[str, str]:
        """The meta fields to store (strings: Lua writes them as they are)."""
        out = {"at": repr(self.at), "lastHuman": repr(self.last_human), "humanVersion": str(self.human_version)}
        if self.clock is not None:
            out["clock"] = self.clock.to_json()
        return out
