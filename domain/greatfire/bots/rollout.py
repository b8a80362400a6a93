"""Greedy rollouts for the search bot: every seat plays on with greedy's own choices, in a world the searching
seat sampled itself (a determinization), until the searching seat's turn has begun or ended a number of times.

Greedy (greedy.py) is what the search's opponents most likely are, and a model of people who play the obvious
move; a rollout that plays it for every seat predicts their answers better than a cheaper policy (against
three greedy bots the search won 33.5% of 100 games with cheap playouts, 41.0% with greedy rollouts: README,
"Bot strength").
A decision is played at once: a whole fire move, or a whole action plan and, when no action point is left,
the end of the phase; the 2-player non-player turn runs as the service runs it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from firebreak.domain.greatfire.bots import greedy
from firebreak.domain.greatfire.bots.lookahead import apply, play_fire_move
from firebreak.domain.greatfire.bots.plans import END, best_plans
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules import npc
from firebreak.domain.greatfire.state import Phase

MAX_STEPS = 2000   # safety cap on the steps of one rollout


def greedy_step(s: GreatFireMatch, rng: random.Random) -> None:
    """Greedy's next decision for the seat to act, played at once, or a non-player step."""
    seat = s.turn
    if s.phase is Phase.NON_PLAYER:
        npc.step(s, [])
        s.version += 1
    elif s.phase is Phase.FIRE and s.source is None and not (s.card is not None and s.moves_left == 0):
        best = greedy.best_move(s, seat, rng)
        assert best is not None, "the fire phase always offers a move (R8 opens the discard phase instead)"
        play_fire_move(s, seat, best[1])
    elif s.phase is Phase.ACTIONS:
        steps = best_plans(s, seat)[0].steps
        for action in steps or (END,):
            apply(s, seat, action)
        if steps and s.phase is Phase.ACTIONS and not s.ap and "demolition" not in s.tokens[seat]:
            apply(s, seat, END)  # nothing is left to do: greedy's next plan would end the phase
    else:
        apply(s, seat, greedy.decide(s, seat, s.legal_actions(seat), rng))


def rollout(s: GreatFireMatch, seat: int, rng: random.Random, horizon: int,
            step: Callable[[GreatFireMatch, random.Random], None] = greedy_step) -> None:
    """Play greedy (or step) for every seat until the seat's turn has begun or ended horizon times, or the game
    ends.

    Counting from inside the seat's turn: 1 stops when it ends, 2 when the seat's next turn begins, 3 when
    that turn ends. Counting from outside it (a move that ended the turn, such as an action plan, which ends
    with endActions): 1 stops when the seat's next turn begins, 2 when it ends.
    """
    flips = 0
    was_own = own_turn(s, seat)
    for _ in range(MAX_STEPS):
        if s.phase is Phase.OVER:
            return
        own = own_turn(s, seat)
        if own != was_own:
            flips += 1
            if flips >= horizon:
                return
        was_own = own
        step(s, rng)


def own_turn(s: GreatFireMatch, seat: int) -> bool:
    """Whether the seat is playing its turn (the 2-player non-player turn is nobody's)."""
    return s.turn == seat and s.phase is not Phase.NON_PLAYER
