"""What the service owes an active match now (a step of its own, a bot seat, a seat it plays for a person: taken
over or resigned, ending it as abandoned) and when it must look at the match next: the score of the match in the
due-set."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from firebreak.domain.contract import Match
from firebreak.matches.clocks import Timing
from firebreak.matches.config import Settings
from firebreak.matches.lifecycle import SeatKind, Seats
from firebreak.matches.scheduler import automated_next


class DutyKind(StrEnum):
    """What the service must do."""

    SYSTEM = "system"  # a non-player step
    BOT = "bot"  # a bot seat's decision
    TAKEOVER = "takeover"  # a decision of a person's seat the service plays (its clock ran out, or it resigned)
    ABANDON = "abandon"  # end the match as abandoned


@dataclass(frozen=True)
class Duty:
    """One thing the service must do now; expired is set when a seat's clock has just run out; reason is why a
    match ends abandoned."""

    kind: DutyKind
    seat: int | None = None
    expired: bool = False
    reason: str = ""


def humans(seats: Seats) -> set[int]:
    """The seats people play themselves now (not a bot's, nor one the service plays for a person)."""
    return {seat for seat, record in seats.items() if record.kind is SeatKind.HUMAN and record.control is None}


def duty_now(match: Match, seats: Seats, timing: Timing, now: float,
             settings: Settings) -> Duty | None:
    """The service's duty in an active match at time `now`, or None while a person is to act in time.

    A match no person has acted in for settings.abandoned_ttl ends abandoned; so does one where the service's
    next step would run its steps in a row (bots, non-player steps, taken-over seats, since a person's last
    step) to settings.automated_run_max: a bot level of some title going round in circles must not hold a
    match, and a worker with it, until the TTL (every title's random playouts end well within that many steps).
    """
    if match.is_over():
        return None
    if now >= timing.last_human + settings.abandoned_ttl:
        return Duty(DutyKind.ABANDON)
    duty = _owed(match, seats, timing, now, settings)
    if duty is not None and match.version - timing.human_version >= settings.automated_run_max:
        return Duty(DutyKind.ABANDON, reason=f"the service's seats took {settings.automated_run_max} steps in a row "
                                    "without ending the match or reaching a person's decision")
    return duty


def _owed(match: Match, seats: Seats, timing: Timing, now: float,
          settings: Settings) -> Duty | None:
    if match.system_due():
        return Duty(DutyKind.SYSTEM)
    to_act = match.to_act()
    for seat in to_act:
        record = seats.get(seat)
        if record is not None and record.kind is SeatKind.BOT:
            return Duty(DutyKind.BOT, seat)
        if record is not None and record.automated:  # taken over or resigned: played at bot speed
            return Duty(DutyKind.TAKEOVER, seat)
    clock = timing.clock
    if clock is None:
        return None
    running = clock.running(to_act, humans(seats))
    for seat in running:
        if clock.left_after(seat, running, now - timing.at) <= 0:
            return Duty(DutyKind.TAKEOVER, seat, expired=True)
    return None


def due_at(match: Match, seats: Seats, timing: Timing, settings: Settings) -> float | None:
    """When the service must look at the match next (None once it is over): the watchdog of a pending service
    step (a bot's, or a seat the service plays for a person), the deadline of a running clock, or the
    abandonment time."""
    if match.is_over():
        return None
    times = [timing.last_human + settings.abandoned_ttl]
    if automated_next(match, seats):
        times.append(timing.at + settings.stall_seconds)
    elif timing.clock is not None:
        clock = timing.clock
        running = clock.running(match.to_act(), humans(seats))
        times.extend(timing.at + clock.seconds(seat) for seat in running)
    return min(times)
