"""Bots: pure functions from what a seat may know to an action."""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.contract import Action, Match

Bot = Callable[[Match, int, random.Random], Action]


def random_bot(match: Match, seat: int, rng: random.Random) -> Action:
    """Pick uniformly among the seat's legal actions."""
    return rng.choice(match.legal_actions(seat))


BOTS: dict[str, Bot] = {"random": random_bot}
