"""Placeholder greedy bot."""

from __future__ import annotations

import random

from domain.contract import Action, BotLevel, Budget, Match


def choose(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    """Pick the first legal action."""
    return match.legal_actions(seat)[0]


LEVEL = BotLevel("greedy", "placeholder", choose)
