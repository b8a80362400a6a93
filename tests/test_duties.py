"""Turn clocks and the service's duties, as pure functions over a real Great Fire match (no Redis)."""

from __future__ import annotations

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import Match, Result, SeatScore
from firebreak.matches.clocks import Clock, ClockError, Timing
from firebreak.matches.config import Settings
from firebreak.matches.duties import Duty, DutyKind, due_at, duty_now
from firebreak.matches.lifecycle import SeatControl, SeatKind, SeatRecord, Seats
from firebreak.matches.reading import ranked_winners

SETTINGS = Settings(stall_seconds=10, abandoned_ttl=1000)
T0 = 1_000_000.0


def match_and_seats(bot_seats: set[int]) -> tuple[Match, Seats]:
    match = titles.get("greatfire").new_match(seats=3, seed=5, options={})
    seats = {s: SeatRecord("bot", SeatKind.BOT, "random") if s in bot_seats else SeatRecord("ann", SeatKind.HUMAN)
             for s in range(3)}
    return match, seats


def test_a_clock_checks_its_input() -> None:
    assert Clock.new(60, 5, 3).left == (60.0, 60.0, 60.0)
    for initial, increment in [(0, 0), (-1, 0), (1e9, 0), (60, -1), (60, 1e9), (float("nan"), 0),
                               (float("inf"), 0)]:
        with pytest.raises(ClockError):
            Clock.new(initial, increment, 3)


def test_running_seats_lose_time_and_the_owner_gains_the_increment() -> None:
    clock = Clock.new(60, 5, 3)
    assert clock.running([1], {0, 1}) == [1] and clock.running([2], {0, 1}) == []
    after = clock.after_step([1], 20, owner=1)
    assert after.left == (60.0, 45.0, 60.0)
    by_service = clock.after_step([1], 70, owner=None)
    assert by_service.left == (60.0, 0.0, 60.0), "time left never goes below 0, and the service gains nothing"
    taken = clock.take_over(1)
    assert taken.left[1] == 0 and taken.running([1], {0}) == [], "a taken-over seat is not its owner's"
    back = taken.reclaimed(1)
    assert back.left[1] == 5.0, "a reclaimed seat restarts at 0 + the increment"
    assert Clock.from_json(back.to_json()) == back


def test_a_per_move_limit_restarts_with_each_decision_and_checks_its_bounds() -> None:
    clock = Clock.new(None, 0, 3, per_move=100)
    assert clock.seconds(0) == 100 and Clock.from_json(clock.to_json()) == clock
    after = clock.after_step([1], 30, owner=None)
    assert after.seconds(1) == 70, "a seat still owing its decision keeps counting down"
    assert after.after_step([1], 10, owner=1).seconds(1) == 100, "acting starts the next decision afresh"
    both = Clock.new(50, 0, 3, per_move=100)
    assert both.seconds(0) == 50 and both.after_step([0], 10, owner=0).seconds(0) == 40, "the smaller one counts"
    assert Clock.new(None, 0, 3, per_move=14 * 24 * 3600).per_move == 14 * 24 * 3600
    for initial, increment, per_move in [(None, 0, None), (None, 0, 0), (None, 0, -1), (None, 0, 14 * 24 * 3600 + 1),
                                         (None, 5, 60), (60, 0, float("nan")), (60, 0, True)]:
        with pytest.raises(ClockError):
            Clock.new(initial, increment, 3, per_move=per_move)


def test_the_duty_of_a_seat_whose_clock_runs() -> None:
    match, seats = match_and_seats(set())
    seat = match.to_act()[0]
    timing = Timing(T0, T0, Clock.new(30, 0, 3))
    assert duty_now(match, seats, timing, T0 + 29, SETTINGS) is None
    assert duty_now(match, seats, timing, T0 + 30, SETTINGS) == Duty(DutyKind.TAKEOVER, seat, expired=True)
    assert due_at(match, seats, timing, SETTINGS) == T0 + 30


@pytest.mark.parametrize("control", list(SeatControl))
def test_a_seat_the_service_plays_for_a_person_is_played_at_bot_speed(control: SeatControl) -> None:
    """Taken over or resigned: the seat's decisions are due at once, like a bot seat's (no owner's window)."""
    match, seats = match_and_seats(set())
    seat = match.to_act()[0]
    seats[seat] = seats[seat].controlled(control, "greedy")
    taken = Timing(T0, T0, Clock.new(30, 0, 3).take_over(seat))
    assert duty_now(match, seats, taken, T0, SETTINGS) == Duty(DutyKind.TAKEOVER, seat)
    assert due_at(match, seats, taken, SETTINGS) == T0 + SETTINGS.stall_seconds, "the watchdog, not a clock"
    unclocked = Timing(T0, T0, None)
    assert duty_now(match, seats, unclocked, T0, SETTINGS) == Duty(DutyKind.TAKEOVER, seat)


def test_no_clock_runs_while_the_service_acts() -> None:
    match, _ = match_and_seats(set())
    seat = match.to_act()[0]
    match, seats = match_and_seats({seat})
    timing = Timing(T0, T0, Clock.new(30, 0, 3))
    assert duty_now(match, seats, timing, T0, SETTINGS) == Duty(DutyKind.BOT, seat)
    assert due_at(match, seats, timing, SETTINGS) == T0 + SETTINGS.stall_seconds, "the watchdog, not a clock"


def test_abandonment_comes_first_and_bounds_every_due_time() -> None:
    match, _ = match_and_seats(set())
    match, seats = match_and_seats({match.to_act()[0]})
    timing = Timing(T0 + 995, T0, None)
    assert duty_now(match, seats, timing, T0 + 999, SETTINGS) == Duty(DutyKind.BOT, match.to_act()[0])
    assert duty_now(match, seats, timing, T0 + 1000, SETTINGS) == Duty(DutyKind.ABANDON)
    assert due_at(match, seats, timing, SETTINGS) == T0 + 1000
    humans, people = match_and_seats(set())
    assert duty_now(humans, people, Timing(T0, T0, None), T0 + 999, SETTINGS) is None
    assert due_at(humans, people, Timing(T0, T0, None), SETTINGS) == T0 + 1000


def test_a_run_of_service_steps_reaching_the_cap_ends_the_match_but_a_person_s_turn_waits() -> None:
    """The service's next step would make automated_run_max in a row: ABANDON (with the reason) instead; a person
    to act at that count is simply waited for (the count only grows by the service's steps)."""
    capped = Settings(stall_seconds=10, abandoned_ttl=1000, automated_run_max=40)
    match, _ = match_and_seats(set())
    seat = match.to_act()[0]
    match, seats = match_and_seats({seat})
    match.version = 100
    assert duty_now(match, seats, Timing(T0, T0, None, 61), T0, capped) == Duty(DutyKind.BOT, seat)
    ended = duty_now(match, seats, Timing(T0, T0, None, 60), T0, capped)
    assert ended is not None and ended.kind is DutyKind.ABANDON and "40 steps in a row" in ended.reason
    people, everyone = match_and_seats(set())
    people.version = 100
    assert duty_now(people, everyone, Timing(T0, T0, None, 0), T0, capped) is None


def test_a_resigned_seat_ranks_after_every_seat_that_did_not_resign() -> None:
    """The ruling of matches.reading.ranked_winners: resigned seats are never winners while another seat is;
    if the title's winners all resigned, the best total among the others wins."""
    scores = (SeatScore(0, 30), SeatScore(1, 20), SeatScore(2, 20), SeatScore(3, 5))
    result = Result(scores, winners=(0,), reason="")
    assert ranked_winners(result, ()) == (0,)
    assert ranked_winners(result, (3,)) == (0,)
    assert ranked_winners(result, (0,)) == (1, 2), "tied on the best total among those who did not resign"
    assert ranked_winners(Result(scores, winners=(0, 1), reason=""), (0,)) == (1,)
