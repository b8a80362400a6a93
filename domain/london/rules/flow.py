"""The turn's frame ("Хід гри", "Кінець гри"): start, the draws owed, the hand limit, the last turns, the end."""

from __future__ import annotations

from firebreak.domain.contract import Event
from firebreak.domain.london.rules.drawing import can_draw
from firebreak.domain.london.state import Phase, State


def start_turn(s: State, events: list[Event]) -> None:
    """Open the current seat's turn: first repay loans if it likes, then draw one card."""
    s.activated, s.played = [], []
    s.borough_run = s.played_any = False
    s.draws_left, s.resume, s.pending = 0, "end", None
    s.phase = Phase.START
    events.append({"type": "turnStarted", "seat": s.turn})


def begin_draws(s: State, count: int, resume: str, events: list[Event]) -> None:
    """Owe `count` draws, one decision each, then go on with `resume` (a phase value, or "end")."""
    s.draws_left, s.resume = count, resume
    continue_draws(s, events)


def continue_draws(s: State, events: list[Event]) -> None:
    """Ask for the next draw owed, or (none owed or nothing left to draw: L4) go on."""
    if s.draws_left > 0 and can_draw(s):
        s.phase = Phase.DRAW
        return
    s.draws_left = 0
    if s.resume == "end":
        end_turn(s, events)
    else:
        s.phase = Phase(s.resume)


def end_turn(s: State, events: list[Event]) -> None:
    """The action is done: discard down to the hand limit, then pass the turn."""
    s.pending = None
    if len(s.hands[s.turn]) > s.hand_limit(s.turn):
        s.phase = Phase.HAND_LIMIT
        return
    finish_turn(s, events)


def finish_turn(s: State, events: list[Event]) -> None:
    """Pass the turn on; once the deck is empty at the end of a turn every other seat plays once more."""
    events.append({"type": "turnEnded", "seat": s.turn})
    if s.turns_left is None and not s.deck:
        s.turns_left = s.seats - 1
        events.append({"type": "lastTurns", "turns": s.turns_left})
    elif s.turns_left is not None:
        s.turns_left -= 1
    if s.turns_left == 0:
        s.phase = Phase.OVER
        s.pending = None
        events.append({"type": "gameOver"})
        return
    s.turn = (s.turn + 1) % s.seats
    start_turn(s, events)
