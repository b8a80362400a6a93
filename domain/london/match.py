"""A London match behind the game-agnostic contract: the guards in domain/base.py, the rules in the modules."""

from __future__ import annotations

import random
from typing import Any, Self

from firebreak.domain.base import BaseEncodedMatch
from firebreak.domain.contract import Action, Event, Result
from firebreak.domain.encoding import ActionIndex
from firebreak.domain.london import encoding, hidden, views
from firebreak.domain.london.actions import ACTIONS
from firebreak.domain.london.rules import scoring, turn
from firebreak.domain.london.state import Phase, State


class LondonMatch(State, BaseEncodedMatch):
    """A match of London (2nd edition)."""

    title_id = "london"
    no_system_step_message = "London has no automated steps"

    def _to_act(self) -> list[int]:
        return [self.turn]

    def _legal_actions(self, seat: int) -> list[Action]:
        return turn.turn_actions(self)

    def _apply(self, seat: int, action: Action, events: list[Event]) -> None:
        ACTIONS.apply(self, seat, action, events)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self, seat)

    def _is_over(self) -> bool:
        return self.phase is Phase.OVER

    def _result(self) -> Result:
        return scoring.result(self)

    def _standing(self, among: tuple[int, ...], reason: str) -> Result:
        return scoring.result(self, among, reason)  # the final scoring as if the game ended now

    def _resample(self, seat: int, rng: random.Random) -> Self:
        other = self.clone()
        hidden.resample_into(other, seat, rng)
        return other

    def _clone(self) -> Self:
        other = type(self)(self.cat)
        self.copy_into(other)
        return other

    def _action_index(self) -> ActionIndex:
        return encoding.shipped_index()

    def _observation(self, seat: int) -> list[int]:
        return encoding.observation(self, seat)
