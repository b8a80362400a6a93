"""A Great Fire match behind the game-agnostic contract: the guards in domain/base.py, the rules in the modules."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Self

from firebreak.domain.base import BaseEncodedMatch
from firebreak.domain.contract import Action, Event, Result
from firebreak.domain.encoding import ActionIndex
from firebreak.domain.greatfire import encoding, views
from firebreak.domain.greatfire.actions import ACTIONS
from firebreak.domain.greatfire.hidden import Sampler
from firebreak.domain.greatfire.rules import npc, scoring, setup, turns
from firebreak.domain.greatfire.state import Phase, State
from firebreak.domain.rng import Rng

SETUP_PHASES = (Phase.REDEAL, Phase.PLACE_BANDS, Phase.PLACE_PAWNS)


class GreatFireMatch(State, BaseEncodedMatch):
    """A match of The Great Fire: London 1666."""

    title_id = "greatfire"
    no_decision_message = "the service is running the non-player turn; no seat owes a decision"

    def _to_act(self) -> list[int]:
        return [] if self.phase is Phase.NON_PLAYER else [self.turn]

    def _legal_actions(self, seat: int) -> list[Action]:
        return setup.setup_actions(self) if self.phase in SETUP_PHASES else turns.turn_actions(self)

    def _apply(self, seat: int, action: Action, events: list[Event]) -> None:
        ACTIONS.apply(self, seat, action, events)

    def _system_due(self) -> bool:
        return self.phase is Phase.NON_PLAYER

    def _run_system_step(self, events: list[Event]) -> None:
        npc.step(self, events)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self, seat)

    def _json_view(self, seat: int | None, raw: Callable[[str], Any]) -> dict[str, Any]:
        return views.json_view(self, seat, raw)  # the districts as one JSON object, from kept texts

    def _is_over(self) -> bool:
        return self.phase is Phase.OVER

    def _result(self) -> Result:
        return scoring.typed_result(self)

    def _standing(self, among: tuple[int, ...], reason: str) -> Result:
        return scoring.typed_result(self, among, reason)  # R17 scored on the board as it stands

    def _resample(self, seat: int, rng: random.Random) -> GreatFireMatch:
        """Every phase but the end is sampled from the seat's view alone (hidden.py): in a redeal (R15) the other
        hands, the undealt deck and the seats still to be offered a redeal are drawn (a redeal then draws from
        that sampled deck); in a non-player turn (R20) no seat decides but the decks it flips from are hidden, so
        they are drawn too. Once the match is over nothing is hidden any more (P5) and the copy is a clone."""
        if self.phase is Phase.OVER:
            return self.clone()
        return determinize(self.view(seat), seat, Rng(rng.getrandbits(64)))

    def _clone(self) -> Self:
        other = type(self)(self.geo, self.comps)
        self.copy_into(other)
        return other

    def _action_index(self) -> ActionIndex:
        return encoding.shipped_index()

    def _observation(self, seat: int) -> list[int]:
        return encoding.observation(self, seat)


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
