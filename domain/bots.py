"""Bot levels: the generic "random" level plus each title's own (Title.bots()); each picks only legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable

from firebreak.domain.contract import Action, BotLevel, Budget, Match, Title

Bot = Callable[[Match, int, random.Random], Action]  # a level with its budget bound (benches, tests)


def listed(action: Action, legal: list[Action], level: str) -> Action:
    """The listed action equal to a bot's choice (the very object legal_actions gave); a choice that is not
    listed is the bot's defect, raised as AssertionError naming its level."""
    for candidate in legal:
        if candidate == action:
            return candidate
    raise AssertionError(f"{level} produced an unlisted action {action}")


def random_choice(match: Match, seat: int, rng: random.Random, budget: Budget | None = None) -> Action:
    """Pick uniformly among the seat's legal actions."""
    return rng.choice(match.legal_actions(seat))


def random_bot(match: Match, seat: int, rng: random.Random) -> Action:
    """Pick uniformly among the seat's legal actions (the random level as a plain bot)."""
    return random_choice(match, seat, rng)


RANDOM = BotLevel("random", "Picks uniformly among its legal actions.", random_choice)


def levels(title: Title) -> dict[str, BotLevel]:
    """Every bot level a seat of this title can be given, by name: random first, then the title's own."""
    return {RANDOM.name: RANDOM, **{level.name: level for level in title.bots()}}


def takeover_level(title: Title) -> str:
    """The level that plays a seat of this title whose turn clock ran out (the title's sensible bot)."""
    return title.takeover_level if title.takeover_level in levels(title) else RANDOM.name


def bound(title: Title, level: str, budget: Budget | None = None) -> Bot:
    """The level as a plain bot with its budget bound; raise KeyError for a level the title does not have."""
    choose = levels(title)[level].choose
    spent = Budget() if budget is None else budget

    def bot(match: Match, seat: int, rng: random.Random) -> Action:
        return choose(match, seat, rng, spent)

    return bot


def choose_action(title: Title, level: str, match: Match, seat: int, rng: random.Random,
                  budget: Budget | None = None) -> Action:
    """The action a bot of this level takes for the seat, within the budget (default: Budget())."""
    return levels(title)[level].choose(match, seat, rng, Budget() if budget is None else budget)
