"""A bench-only level that cheats, to measure what hidden information is worth: `oracle` is the search bot
(domain/greatfire/search.py, same root moves, priors, playouts and budget) searching the true state instead of
guesses drawn from its view, so it knows every hidden token and the order of the fire deck and the stacks.

What it wins against three `greedy` bounds what a search of this kind could win by guessing better: run
python -m bench.bots --lineup oracle,greedy,greedy,greedy --budget 0 --iterations 200. It is never a
service level (it reads the whole match).
"""

from __future__ import annotations

import random

from domain.bots import Bot
from domain.contract import Action, Budget, Match
from domain.greatfire.match import GreatFireMatch
from domain.greatfire.search import choose
from domain.greatfire.state import Phase
from domain.rng import Rng

LEVEL = "oracle"


class Truth:
    """Every world is the true state (the search's Worlds)."""

    def __init__(self, match: GreatFireMatch) -> None:
        self.match = match

    def sample(self, rng: Rng) -> GreatFireMatch:
        """The true state, to play on."""
        return self.match.clone()


def oracle_bot(budget: Budget) -> Bot:
    """The search bot on the true state, within the budget."""
    def bot(match: Match, seat: int, rng: random.Random) -> Action:
        assert isinstance(match, GreatFireMatch)
        if match.phase is Phase.REDEAL:
            return {"type": "redeal"}  # as the search bot (R15)
        return choose(Truth(match), seat, rng, budget)

    return bot
