"""Bench-only Great Fire search levels whose rollouts stop elsewhere than the service's, to measure where a
look-ahead should stop (docs/benchmarks.md, "Where the look-ahead stops").

The service's search (search.FITTED) rolls out to the end of the turn its move leaves: a fire move is followed
by the seat's own actions, an action plan (which ends the seat's turn) by the rivals' turns up to the seat's
next one. These levels use the same outlook and budget and stop the same way after every move:

- `turn-end`: at the end of the seat's turn (a plan is scored as it ends the turn, no rival plays);
- `next-turn`: at the start of the seat's next turn (a fire move is followed by the seat's actions and then the
  rivals' turns);
- `rivals-fire`: the service's stops, the rivals' actions phases ended at once (their fire moves played, their
  actions not): an action plan's rollouts, which play the rivals' turns, cost a fraction;
- `rivals-fire-2`: the same rivals, two flips of the turn as rollout.rollout counts them (after a fire move, to
  the start of the seat's next turn; after a plan, to its end).

    python -m bench.bots --seats 4 --lineup next-turn,greedy,greedy,greedy --games 40 --seed 50000 --procs 2
"""

from __future__ import annotations

import random

from firebreak.domain.bots import Bot
from firebreak.domain.contract import Budget
from firebreak.domain.greatfire.bots.lookahead import apply
from firebreak.domain.greatfire.bots.outlook import lead
from firebreak.domain.greatfire.bots.plans import END
from firebreak.domain.greatfire.bots.rollout import greedy_step, own_turn, rollout
from firebreak.domain.greatfire.bots.search import Judge, search_bot_with
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import Phase


def from_own_turn(s: GreatFireMatch, seat: int, rng: random.Random, horizon: int) -> None:
    """rollout.rollout counted as if from inside the seat's turn, also after a move that ended it: 1 stops at
    the turn's end (at once when it has ended), 2 at the start of the seat's next turn."""
    left = horizon if own_turn(s, seat) else horizon - 1
    if left > 0:
        rollout(s, seat, rng, left)


def rivals_fire(s: GreatFireMatch, seat: int, rng: random.Random, horizon: int) -> None:
    """rollout.rollout with the rivals' actions phases ended at once (their fire moves still played)."""

    def step(state: GreatFireMatch, step_rng: random.Random) -> None:
        if state.phase is Phase.ACTIONS and state.turn != seat:
            apply(state, state.turn, END)
        else:
            greedy_step(state, step_rng)

    rollout(s, seat, rng, horizon, step)


JUDGES = {
    "turn-end": Judge(1, lead, from_own_turn),
    "next-turn": Judge(2, lead, from_own_turn),
    "rivals-fire": Judge(1, lead, rivals_fire),
    "rivals-fire-2": Judge(2, lead, rivals_fire),
}


def levels(budget: Budget) -> dict[str, Bot]:
    """The bench levels, bound to the budget."""
    return {name: search_bot_with(budget.seconds, budget.iterations, judge) for name, judge in JUDGES.items()}
