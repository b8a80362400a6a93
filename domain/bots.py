"""Bots: pure functions from a match and a seat to an action; each level picks only among legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.contract import Action, Match

Bot = Callable[[Match, int, random.Random], Action]


def random_bot(match: Match, seat: int, rng: random.Random) -> Action:
    """Pick uniformly among the seat's legal actions."""
    return rng.choice(match.legal_actions(seat))


def greedy_bot(match: Match, seat: int, rng: random.Random) -> Action:
    """Pick the action whose outcome the title's heuristic rates best from the seat's own view."""
    from domain.greatfire.greedy import greedy

    return greedy(match, seat, rng)


def search_bot(match: Match, seat: int, rng: random.Random) -> Action:
    """Search from the seat's view alone (information-set Monte Carlo); budget: domain.greatfire.search."""
    from domain.greatfire.search import budget_from_env, search_from_view

    return search_from_view(match.view(seat), seat, rng, budget_from_env())


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}
LEVELS = tuple(BOTS)
TAKEOVER_LEVELS: dict[str, str] = {"greatfire": "greedy"}  # title id -> the level that plays a timed-out seat


def takeover_level(title_id: str) -> str:
    """The bot level that plays a seat of this title whose turn clock ran out (the title's sensible bot)."""
    return TAKEOVER_LEVELS.get(title_id, "random")


def check_environment() -> None:
    """Raise ValueError when a level's settings in the environment are unusable (workers call it at start)."""
    from domain.greatfire.search import budget_from_env

    budget_from_env()


def choose_action(level: str, match: Match, seat: int, rng: random.Random) -> Action:
    """The action a bot of this level takes for the seat."""
    return BOTS[level](match, seat, rng)
