"""The base class of a title's match: the Match protocol's public methods do every guard once and call the
title's hooks (OpenSpiel's Python games do the same: final public methods, `_legal_actions`/`_apply_action` hooks).

A title's match class derives from BaseMatch (BaseEncodedMatch for the encoded contract) and writes only the hooks:
the happy path of its rules. The guards are the same for every title, and so are their error messages; where a
title has its own words (why no seat owes a decision, why no automated step is due) a class attribute holds them.
When the match class also derives from a state class, the state class comes first (its to_dict, load...).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self, final

from firebreak.domain.contract import Action, Event, RawJSON, Result
from firebreak.domain.encoding import ActionIndex
from firebreak.domain.errors import GameOver, IllegalAction, MalformedAction, NoSystemStep, NotYourTurn, check_seat


def _seats(seats: list[int]) -> str:
    """"seat 2", "seats 0, 2" (who owes a decision, for an error message)."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats)


class BaseMatch(ABC):
    """A match whose public methods guard (game over, seat, shape, turn, legality, versions) and whose hooks play."""

    title_id: str
    seats: int
    version: int

    # The title's words for a refused act while no seat owes a decision, and for a refused automated step.
    no_decision_message: ClassVar[str] = "no seat owes a decision now"
    no_system_step_message: ClassVar[str] = "no automated step is due"

    # The legal actions of the current version by seat (the lists handed out are copies of these).
    _legal: tuple[int, dict[int, list[Action]]] | None = None

    # ----- the guards (final: a title writes the hooks below) -----------------------------------------
    @final
    def to_act(self) -> list[int]:
        """Return the seats owing a decision now ([] when the match is over or the next step is the service's)."""
        return [] if self._is_over() else self._to_act()

    @final
    def legal_actions(self, seat: int) -> list[Action]:
        """Return the JSON-able actions the seat may take now ([] for a seat not to act)."""
        return [dict(a) for a in self._listed_actions(seat)]

    @final
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a listed action and return its events stamped with the new version; raise a RulesError and
        change nothing otherwise."""
        listed = self._listed(seat, action)
        events: list[Event] = []
        self._apply(seat, listed, events)  # the cached list goes with this version: no copy needed
        return self._commit(events)

    @final
    def system_due(self) -> bool:
        """Return True when the next step is the service's (e.g. a non-player turn), not a seat's."""
        return not self._is_over() and self._system_due()

    @final
    def run_system_step(self) -> list[Event]:
        """Perform the next automated step and return its events; raise NoSystemStep when none is due."""
        if not self.system_due():
            waiting = self.to_act()
            why = ("the match is over" if self._is_over() else
                   f"{_seats(waiting)} {'owes' if len(waiting) == 1 else 'owe'} the decision")
            raise NoSystemStep(f"{self.no_system_step_message}: {why}")
        events: list[Event] = []
        self._run_system_step(events)
        return self._commit(events)

    @final
    def view(self, seat: int | None) -> dict[str, Any]:
        """Return what the seat (None: a spectator) may see; raise UnknownSeat for a seat the match lacks."""
        if seat is not None:
            check_seat(seat, self.seats)
        return self._view(seat)

    @final
    def json_view(self, seat: int | None, raw: Callable[[str], Any] = RawJSON) -> dict[str, Any]:
        """Return view(seat) with the parts the title keeps written as raw(JSON text) (the contract's optional
        json_view: the same JSON once matches.packing writes it); raise UnknownSeat as view does."""
        if seat is not None:
            check_seat(seat, self.seats)
        return self._json_view(seat, raw)

    @final
    def is_over(self) -> bool:
        """Return True once the match has ended."""
        return self._is_over()

    @final
    def result(self) -> Result | None:
        """Return the typed result once over, else None."""
        return self._result() if self._is_over() else None

    @final
    def resample(self, seat: int, rng: random.Random) -> Self:
        """Return a copy in which everything hidden from the seat is redrawn, consistently with what it has seen."""
        check_seat(seat, self.seats)
        return self._resample(seat, rng)

    @final
    def standing(self, among: Sequence[int], reason: str) -> Result | None:
        """Return every seat's score as the match stands and the winners among `among` by the title's own ranking
        (its tie-breaks included), with `reason` as the result's reason: how the service ranks a match it ends
        early (a resignation) or the seats that did not resign; None for a title that ranks only a finished
        match."""
        if not among:
            raise ValueError("a standing ranks at least one seat")
        for seat in among:
            check_seat(seat, self.seats)
        return self._standing(tuple(among), reason)

    @final
    def clone(self) -> Self:
        """Return an independent copy."""
        return self._clone()

    @final
    def _listed_actions(self, seat: int) -> list[Action]:
        """The seat's legal actions ([] for a seat not to act), computed once per version (the cached list itself:
        never hand it out)."""
        return self._cached_actions(seat) if seat in self.to_act() else []

    @final
    def _cached_actions(self, seat: int) -> list[Action]:
        """The legal actions of a seat known to owe a decision, computed once per version."""
        cache = self._legal
        if cache is None or cache[0] != self.version:
            cache = self._legal = (self.version, {})
        listed = cache[1].get(seat)
        if listed is None:
            listed = cache[1][seat] = self._legal_actions(seat)
        return listed

    @final
    def _listed(self, seat: int, action: object) -> Action:
        """Check every precondition in order; return the listed action equal to the one given."""
        if self._is_over():
            raise GameOver("the match is over")
        check_seat(seat, self.seats)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedAction('an action must be a JSON object with a string "type"')
        waiting = self.to_act()
        if seat not in waiting:
            if not waiting:
                raise NotYourTurn(self.no_decision_message)
            raise NotYourTurn(f"seat {seat} owes no decision; waiting for {_seats(waiting)}")
        legal = self._cached_actions(seat)
        for listed in legal:
            if listed == action and all(type(action[k]) is type(v) for k, v in listed.items()):
                return listed
        kinds = sorted({a["type"] for a in legal})
        raise IllegalAction(f"{action['type']!r} with these fields is not legal now; legal types: {', '.join(kinds)}")

    @final
    def _commit(self, events: list[Event]) -> list[Event]:
        """Count one more version and stamp it on the events of the step that made it."""
        self.version += 1
        self._legal = None
        for event in events:
            event["version"] = self.version
        return events

    # ----- the hooks a title writes -------------------------------------------------------------------
    @abstractmethod
    def _to_act(self) -> list[int]:
        """The seats owing a decision now, as a new list (asked only while the match is not over)."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of a seat owing a decision (the base caches the list per version and copies it out)."""

    @abstractmethod
    def _apply(self, seat: int, action: Action, events: list[Event]) -> None:
        """Apply a listed action of the seat (the listed dict itself: do not keep it), appending its events
        (unstamped)."""

    def _system_due(self) -> bool:
        """Whether the next step is the service's (asked only while the match is not over); False by default."""
        return False

    def _run_system_step(self, events: list[Event]) -> None:
        """Perform the automated step that _system_due() says is due, appending its events (unstamped)."""
        raise NotImplementedError("a title whose _system_due() can be True writes _run_system_step()")

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """What a seat of the match (None: a spectator) may see."""

    def _json_view(self, seat: int | None, raw: Callable[[str], Any]) -> dict[str, Any]:
        """The view with parts kept written as raw JSON; a title whose views are large and mostly unchanged from
        step to step writes it (the plain view otherwise)."""
        return self._view(seat)

    @abstractmethod
    def _is_over(self) -> bool:
        """Whether the match has ended."""

    @abstractmethod
    def _result(self) -> Result:
        """The typed result (asked only once the match is over)."""

    def _standing(self, among: tuple[int, ...], reason: str) -> Result | None:
        """The scores as the match stands and the winners among these seats (None by default: the title ranks
        only a finished match)."""
        return None

    @abstractmethod
    def _resample(self, seat: int, rng: random.Random) -> Self:
        """A copy with everything hidden from a seat of the match redrawn (as Match.resample)."""

    @abstractmethod
    def _clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def to_dict(self, copied: bool = True) -> dict[str, Any]:
        """Return the whole state as JSON-able data (secret parts included: never send it to a client); copied=False
        hands out the state's own containers instead of copies: encode it at once, never keep or change it."""


class BaseEncodedMatch(BaseMatch):
    """A BaseMatch of a title with the encoded contract: action ids through the title's action index."""

    @final
    def legal_action_ids(self, seat: int) -> list[int]:
        """Return the ids of the seat's legal actions in the title's action space, ascending."""
        return self._action_index().ids_of(self._listed_actions(seat))

    @final
    def apply_id(self, seat: int, action_id: int) -> list[Event]:
        """Apply the action with this id; raise a RulesError and change nothing if it is unknown or illegal."""
        return self.apply(seat, self._action_index().action(action_id))

    @final
    def observation(self, seat: int) -> list[int]:
        """Return the seat's observation; raise UnknownSeat for a seat the match lacks."""
        check_seat(seat, self.seats)
        return self._observation(seat)

    @abstractmethod
    def _action_index(self) -> ActionIndex:
        """The title's action index (its action space, ids are indices)."""

    @abstractmethod
    def _observation(self, seat: int) -> list[int]:
        """The observation of a seat of the match (Title.observation_size(seats) whole numbers 0-255)."""
