"""Fischer turn clocks and a match's timestamps, kept as plain fields of the match's meta hash.

A clock holds each seat's time left as of the match's last change ("at"). Between two changes the clocks of
the seats that run lose the time that passed; a seat that acts itself gains the increment. A seat whose time
runs out is taken over: the service plays it with the title's default bot until its owner acts again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

MAX_INITIAL = 7 * 24 * 3600.0
MAX_INCREMENT = 24 * 3600.0


class ClockError(ValueError):
    """Raised when a clock asked for at createMatch is unusable."""


@dataclass(frozen=True)
class Clock:
    """Seconds left per seat (as of the match's last change) and the seats a bot plays for now."""

    initial: float
    increment: float
    left: tuple[float, ...]
    taken_over: frozenset[int] = field(default_factory=frozenset)

    @classmethod
    def new(cls, initial: float, increment: float, seats: int) -> Clock:
        """A fresh clock for every seat; raise ClockError for values out of range."""
        if not (isinstance(initial, int | float) and math.isfinite(initial) and 0 < initial <= MAX_INITIAL):
            raise ClockError(f"clock.initialSeconds must be above 0 and at most {MAX_INITIAL:.0f}")
        if not (isinstance(increment, int | float) and math.isfinite(increment) and 0 <= increment <= MAX_INCREMENT):
            raise ClockError(f"clock.incrementSeconds must be 0 to {MAX_INCREMENT:.0f}")
        return cls(float(initial), float(increment), (float(initial),) * seats)

    @classmethod
    def from_json(cls, raw: str | None) -> Clock | None:
        """The clock stored in meta, or None for a match without one."""
        if not raw:
            return None
        data = json.loads(raw)
        return cls(data["initial"], data["increment"], tuple(data["left"]), frozenset(data["takenOver"]))

    def to_json(self) -> str:
        """The stored form."""
        return json.dumps({"initial": self.initial, "increment": self.increment, "left": list(self.left),
                           "takenOver": sorted(self.taken_over)})

    def running(self, to_act: Iterable[int], humans: set[int]) -> list[int]:
        """The seats whose clock runs: people owing a decision whom no bot plays for."""
        return [s for s in to_act if s in humans and s not in self.taken_over]

    def left_after(self, seat: int, running: list[int], elapsed: float) -> float:
        """A seat's time left once `elapsed` seconds have passed since the last change."""
        return max(0.0, self.left[seat] - elapsed) if seat in running else self.left[seat]

    def after_step(self, running: list[int], elapsed: float, owner: int | None) -> Clock:
        """The clock after a step: running seats lose `elapsed`; the owner who acted (None: the service did)
        gains the increment and gets the seat back if a bot was playing it."""
        left = [self.left_after(seat, running, elapsed) for seat in range(len(self.left))]
        taken = set(self.taken_over)
        if owner is not None:
            left[owner] += self.increment
            taken.discard(owner)
        return replace(self, left=tuple(left), taken_over=frozenset(taken))

    def take_over(self, seat: int) -> Clock:
        """The clock once a bot plays the seat (its time is up)."""
        left = list(self.left)
        left[seat] = 0.0
        return replace(self, left=tuple(left), taken_over=self.taken_over | {seat})


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
