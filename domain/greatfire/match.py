"""A Great Fire match behind the game-agnostic contract: preconditions in one place, rules in the modules."""

from __future__ import annotations

import random
from typing import Any

from domain.contract import Action, Event, Result
from domain.errors import GameOver, IllegalAction, MalformedAction, NoSystemStep, NotYourTurn, check_seat
from domain.greatfire import encoding, views
from domain.greatfire.components import Components
from domain.greatfire.encoding import shipped_index
from domain.greatfire.geometry import Geometry
from domain.greatfire.hidden import Sampler
from domain.greatfire.rules import npc, scoring, setup, turns
from domain.greatfire.state import Phase, State
from domain.rng import Rng

SETUP_PHASES = (Phase.REDEAL, Phase.PLACE_BANDS, Phase.PLACE_PAWNS)


class GreatFireMatch(State):
    """A match of The Great Fire: London 1666."""

    title_id = "greatfire"

    def __init__(self, geo: Geometry, comps: Components) -> None:
        super().__init__(geo, comps)
        self._legal: tuple[int, list[Action]] | None = None

    def to_act(self) -> list[int]:
        """Return the seats owing a decision now ([] when over)."""
        return [] if self.phase in (Phase.OVER, Phase.NON_PLAYER) else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        """Return every legal action of the seat now; [] for a seat not to act."""
        return [dict(a) for a in self._actions(seat)]

    def _actions(self, seat: int) -> list[Action]:
        """The seat's legal actions, computed once per version (the cached list itself: do not change it)."""
        if self.phase in (Phase.OVER, Phase.NON_PLAYER) or seat != self.turn:
            return []
        cached = self._legal
        if cached is not None and cached[0] == self.version:
            return cached[1]
        actions = setup.setup_actions(self) if self.phase in SETUP_PHASES else turns.turn_actions(self)
        self._legal = (self.version, actions)
        return actions

    def legal_action_ids(self, seat: int) -> list[int]:
        """Return the ids of the seat's legal actions in the title's action space, ascending."""
        return shipped_index().ids_of(self._actions(seat))

    def apply_id(self, seat: int, action_id: int) -> list[Event]:
        """Apply the action with this id (encoding.py); raise a RulesError and change nothing otherwise."""
        return self.apply(seat, shipped_index().action(action_id))

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
        if self.phase is Phase.NON_PLAYER:
            raise NotYourTurn("the service is running the non-player turn; no seat owes a decision")
        if seat != self.turn:
            raise NotYourTurn(f"seat {seat} owes no decision; waiting for seat {self.turn}")
        legal = self._actions(seat)
        for listed in legal:
            if listed == action and all(type(action[k]) is type(v) for k, v in listed.items()):
                return listed
        kinds = sorted({a["type"] for a in legal})
        raise IllegalAction(f"{action['type']!r} with these fields is not legal now; legal types: {', '.join(kinds)}")

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action and return its events; raise a RulesError and change nothing otherwise."""
        listed = self._listed(seat, action)
        events: list[Event] = []
        if self.phase in SETUP_PHASES:
            setup.apply_setup(self, seat, listed, events)
        else:
            turns.apply_turn(self, seat, listed, events)
        return self._commit(events)

    def _commit(self, events: list[Event]) -> list[Event]:
        """Count one more version and stamp it on the events of the step that made it."""
        self.version += 1
        self._legal = None
        for event in events:
            event["version"] = self.version
        return events

    def system_due(self) -> bool:
        """Return True when the next step is the service's (a 2-player non-player turn), not a seat's."""
        return self.phase is Phase.NON_PLAYER

    def run_system_step(self) -> list[Event]:
        """Perform the next automated step and return its events; raise NoSystemStep when none is due."""
        if self.phase is not Phase.NON_PLAYER:
            raise NoSystemStep("no automated step is due: " + ("the match is over" if self.is_over()
                                                               else f"seat {self.turn} owes the decision"))
        events: list[Event] = []
        npc.step(self, events)
        return self._commit(events)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Return what the seat (None: a spectator) may see."""
        if seat is not None:
            check_seat(seat, self.seats)
        return views.view(self, seat)

    def is_over(self) -> bool:
        """Return True once the match has ended."""
        return self.phase is Phase.OVER

    def result(self) -> Result | None:
        """Return the typed result once over (R17), else None."""
        return scoring.typed_result(self) if self.phase is Phase.OVER else None

    def resample(self, seat: int, rng: random.Random) -> GreatFireMatch:
        """Return a copy with everything hidden from the seat redrawn from its view alone (hidden.py).

        Every phase but the end is sampled: in a redeal (R15) the other hands, the undealt deck and the seats still
        to be offered a redeal are drawn (a redeal then draws from that sampled deck); in a non-player turn (R20)
        no seat decides but the decks it flips from are hidden, so they are drawn too. Once the match is over
        nothing is hidden any more (P5) and the copy is a clone.
        """
        if self.phase is Phase.OVER:
            return self.clone()
        return determinize(self.view(seat), seat, Rng(rng.getrandbits(64)))

    def clone(self) -> GreatFireMatch:
        """Return an independent copy."""
        other = GreatFireMatch(self.geo, self.comps)
        self.copy_into(other)
        return other


class Determinizer(Sampler):
    """Reads a seat's view once; each sample() is a fresh, independent match consistent with it (hidden.py)."""

    def sample(self, rng: Rng) -> GreatFireMatch:
        """Return a full match consistent with the view, the unknowns drawn with rng."""
        s = GreatFireMatch(self.geo, self.comps)
        self.fill(s, rng)
        return s


def determinize(view: dict[str, Any], seat: int, rng: Rng) -> GreatFireMatch:
    """Return one full match consistent with the seat's view (unknowns sampled with rng)."""
    return Determinizer(view, seat).sample(rng)
