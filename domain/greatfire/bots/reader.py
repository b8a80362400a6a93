"""The reading search level: the search bot whose guessed worlds are weighted by what the rivals' fire moves
reveal of their hands (belief.py).

It must be fed every view its seat receives, in order (observe); it keeps one belief per seat it plays and
reads nothing of a match but the seat's views. The service hands a bot only the current view, so this level
is the bench's (bench/bots.py feeds it every view): it measures what reading the table is worth.
"""

from __future__ import annotations

import random
from typing import Any

from firebreak.domain.contract import Action, Budget, Match
from firebreak.domain.greatfire.bots.belief import Belief, BeliefWorlds
from firebreak.domain.greatfire.bots.search import choose
from firebreak.domain.greatfire.state import Phase


class ReadingBot:
    """A search bot with a fixed budget that keeps a belief per seat from the views it is fed."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.beliefs: dict[int, Belief] = {}

    def belief(self, seat: int) -> Belief:
        """The seat's belief (a fresh one for a seat not seen before)."""
        return self.beliefs.setdefault(seat, Belief(seat))

    def observe(self, view: dict[str, Any], seat: int) -> None:
        """Take in the seat's view of the match's next version."""
        self.belief(seat).observe(view)

    def __call__(self, match: Match, seat: int, rng: random.Random) -> Action:
        """Choose the seat's action from its view and its belief."""
        view = match.view(seat)
        belief = self.belief(seat)
        belief.observe(view)
        if view["phase"] == Phase.REDEAL.value:
            return {"type": "redeal"}  # as the search level (R15)
        return choose(BeliefWorlds(view, seat, belief), seat, rng, self.budget)
