"""London's search level: the generic information-set search (domain/search.py) over London's resample, with the
greedy bot's rules of thumb as the playout policy, playouts cut short scored by the fitted outlook (outlook.py) at 2
seats and by greedy's rating with more, and greedy's actions worth trying as the root moves (never an undo: a
search that may cancel a staged decision can go round develop, cancel, develop... for ever)."""

from __future__ import annotations

import math
import random

from firebreak.domain import search
from firebreak.domain.contract import Action, BotLevel, Budget, Match
from firebreak.domain.london.bots.greedy import policy, worth_trying
from firebreak.domain.london.bots.outlook import SPREAD, lead
from firebreak.domain.london.bots.rating import rate
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.rules import land

STEPS_PER_SEAT = 20  # playout decisions per seat before the leaf is scored (about two rounds whatever the seats)
SCALE = 1.2 * SPREAD  # 2 seats: an outlook lead scored tanh(1) ~ 0.76, near 2 P(win) - 1 for a normal error
RATING_SCALE = 10.0   # more seats: the rating lead scored tanh(1)


def _policy(match: Match, seat: int, rng: random.Random) -> Action:
    assert isinstance(match, LondonMatch)
    return policy(match, seat)


def _leaf(match: Match, seat: int) -> float:
    """The seat's estimated final lead over the best rival, squashed into [-1, 1]: by the fitted outlook at 2 seats,
    by greedy's rating with more (where the outlook, fitted to 4-seat games, played worse)."""
    assert isinstance(match, LondonMatch)
    if match.seats == 2:
        return math.tanh(lead(match, seat) / SCALE)
    best = max(rate(match, other) for other in range(match.seats) if other != seat)
    return math.tanh((rate(match, seat) - best) / RATING_SCALE)


def _root(match: Match, seat: int) -> list[Action]:
    """Greedy's actions worth trying, less land bought with a loan: playouts of two rounds rarely reach the
    repayment, so a borrowed borough looks better than it is (measured: 12% of 2-seat games ended in debt)."""
    assert isinstance(match, LondonMatch)
    moves = worth_trying(match, seat, match.legal_actions(seat))
    cash = [a for a in moves if a["type"] != "buyLand" or land.price(match, seat, a["borough"]) <= match.money[seat]]
    return cash or moves


def choose(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    """The generic search with London's hooks, its playouts cut after STEPS_PER_SEAT steps a seat (the same
    number of rounds with 2 seats as with 4: longer playouts of the rule-of-thumb policy only add noise)."""
    return search.choose(match, seat, rng, budget, _policy, _leaf, STEPS_PER_SEAT * match.seats, _root)


LEVEL = BotLevel(name="search", description=search.search_level().description, choose=choose)
