"""A London match behind the game-agnostic contract: preconditions in one place, rules in the modules."""

from __future__ import annotations

import random
from typing import Any

from domain.contract import Action, Event, Result
from domain.errors import GameOver, IllegalAction, MalformedAction, NoSystemStep, NotYourTurn, check_seat
from domain.london import encoding, hidden, views
from domain.london.data import Catalogue
from domain.london.rules import scoring, turn
from domain.london.state import Phase, State


class LondonMatch(State):
    """A match of London (2nd edition)."""

    title_id = "london"

    def __init__(self, cat: Catalogue) -> None:
        super().__init__(cat)
        self._legal: tuple[int, list[Action]] | None = None

    def to_act(self) -> list[int]:
        """Return the seats owing a decision now ([] when over)."""
        return [] if self.phase is Phase.OVER else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        """Return every legal action of the seat now; [] for a seat not to act."""
        if self.phase is Phase.OVER or seat != self.turn:
            return []
        cached = self._legal
        if cached is None or cached[0] != self.version:
            cached = (self.version, turn.turn_actions(self))
            self._legal = cached
        return [dict(a) for a in cached[1]]

    def legal_action_ids(self, seat: int) -> list[int]:
        """Return the ids of the seat's legal actions in the title's action space, ascending (encoding.py)."""
        return encoding.shipped_index().ids_of(self.legal_actions(seat))

    def apply_id(self, seat: int, action_id: int) -> list[Event]:
        """Apply the action with this id (encoding.py); raise a RulesError and change nothing otherwise."""
        return self.apply(seat, encoding.shipped_index().action(action_id))

    def observation(self, seat: int) -> list[int]:
        """Return the seat's observation (encoding.py), computed from the state; nothing its view hides."""
        check_seat(seat, self.seats)
        return encoding.observation(self, seat)

    def _listed(self, seat: int, action: object) -> Action:
        """Check every precondition; return the listed action equal to the one given."""
        if self.phase is Phase.OVER:
            raise GameOver("the match is over")
        check_seat(seat, self.seats)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedAction('an action must be a JSON object with a string "type"')
        if seat != self.turn:
            raise NotYourTurn(f"seat {seat} owes no decision; waiting for seat {self.turn}")
        self.legal_actions(seat)
        assert self._legal is not None
        for listed in self._legal[1]:
            if listed == action and all(type(action[k]) is type(v) for k, v in listed.items()):
                return listed
        kinds = sorted({a["type"] for a in self._legal[1]})
        raise IllegalAction(f"{action['type']!r} with these fields is not legal now; legal types: {', '.join(kinds)}")

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action and return its events; raise a RulesError and change nothing otherwise."""
        listed = self._listed(seat, action)
        events: list[Event] = []
        turn.apply_turn(self, seat, dict(listed), events)
        self.version += 1
        self._legal = None
        for event in events:
            event["version"] = self.version
        return events

    def system_due(self) -> bool:
        """Return False: London has no automated steps."""
        return False

    def run_system_step(self) -> list[Event]:
        """Raise NoSystemStep: every step of London is a seat's decision."""
        raise NoSystemStep("London has no automated steps: " + (
            "the match is over" if self.is_over() else f"seat {self.turn} owes the decision"))

    def view(self, seat: int | None) -> dict[str, Any]:
        """Return what the seat (None: a spectator) may see."""
        if seat is not None:
            check_seat(seat, self.seats)
        return views.view(self, seat)

    def is_over(self) -> bool:
        """Return True once the match has ended."""
        return self.phase is Phase.OVER

    def result(self) -> Result | None:
        """Return the typed result once over, else None."""
        return scoring.result(self) if self.phase is Phase.OVER else None

    def resample(self, seat: int, rng: random.Random) -> LondonMatch:
        """Return a copy in which everything hidden from the seat is redrawn, consistently with its view."""
        check_seat(seat, self.seats)
        other = self.clone()
        hidden.resample_into(other, seat, rng)
        return other

    def clone(self) -> LondonMatch:
        """Return an independent copy."""
        other = LondonMatch(self.cat)
        self.copy_into(other)
        return other
