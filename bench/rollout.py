"""Bench-only levels that play greedy rollouts, to measure what such a player wins and what each kind of hidden
fact is worth to it (issue 10: the ladder's target for `search`).

A rollout player takes the search bot's shortlist of root moves (domain/greatfire/search.py: whole fire moves or
action plans, ranked by greedy's rating), plays each in a world, then lets every seat play on with greedy's own
choices (greedy.decide on the world) until the seat's next turn ends; it takes the move whose outcome
(playout.evaluate) has the best mean over the worlds, each world shared by every move (common random numbers).
Against three `greedy` bots its model of the opponents is exact, except for what it cannot see. The levels
differ only in where the worlds come from:

- `rollout`: from the seat's view (determinize.py), as a service level would have to;
- `rollout-oracle`: the true state (bench/oracle.py's Truth): every hand, the deck order, objectives, tokens;
- `rollout-knows-cards`, `-objectives`, `-tokens`: from the view, with one kind of hidden fact set to the truth
  (cards: every hand, the deck and the box; objectives: every seat's objectives and colours; tokens: held and
  face-down tokens).

None is a service level (all but `rollout` read the whole match, and `rollout` is not stronger than `search`:
see the README's "Bot strength"). --iterations counts rollouts; a decision plays whole passes of its moves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from bench.oracle import Truth
from domain.bots import Bot
from domain.contract import Action, Budget, Match
from domain.greatfire import greedy, npc
from domain.greatfire.determinize import Determinizer
from domain.greatfire.match import GreatFireMatch
from domain.greatfire.opening import setup_choice
from domain.greatfire.plans import END, best_plans
from domain.greatfire.playout import apply, evaluate, play_fire_move
from domain.greatfire.search import PASS_MARGIN, PASSES, Arm, Worlds, root_moves, set_priors, shortlist
from domain.greatfire.state import Phase
from domain.rng import Rng

HORIZON = 3        # rollouts stop when the seat's next turn ends (as playout.playout counts)
MAX_STEPS = 2000   # safety cap on the steps of one rollout
FACTS = ("cards", "objectives", "tokens")


def greedy_step(s: GreatFireMatch, rng: random.Random) -> None:
    """Greedy's next decision for the seat to act, played at once (a whole fire move or action plan), or a
    non-player step."""
    seat = s.turn
    if s.phase is Phase.NON_PLAYER:
        npc.step(s, [])
        s.version += 1
    elif s.phase is Phase.FIRE and s.source is None and not (s.card is not None and s.moves_left == 0):
        best = greedy.best_move(s, seat, rng)
        assert best is not None, "the fire phase always offers a move"
        play_fire_move(s, seat, best[1])
    elif s.phase is Phase.ACTIONS:
        steps = best_plans(s, seat)[0].steps
        for action in steps or (END,):
            apply(s, seat, action)
        if steps and s.phase is Phase.ACTIONS and not s.ap and "demolition" not in s.tokens[seat]:
            apply(s, seat, END)  # nothing is left to do: greedy's next plan would end the phase
    else:
        apply(s, seat, greedy.decide(s, seat, s.legal_actions(seat), rng))


def rollout(s: GreatFireMatch, seat: int, rng: random.Random, horizon: int = HORIZON) -> None:
    """Play greedy for every seat until the seat's turn has begun or ended horizon times, or the game ends."""
    flips = 0
    was_own = s.turn == seat and s.phase is not Phase.NON_PLAYER
    for _ in range(MAX_STEPS):
        if s.phase is Phase.OVER:
            return
        own = s.turn == seat and s.phase is not Phase.NON_PLAYER
        if own != was_own:
            flips += 1
            if flips >= horizon:
                return
        was_own = own
        greedy_step(s, rng)


def choose(worlds: Worlds, seat: int, rng: random.Random, budget: Budget) -> Action:
    """The seat's action: the shortlisted move with the best mean rollout outcome within the budget (whole passes
    over the moves, at least one); ending the phase when it does about as well."""
    master = Rng(rng.getrandbits(64))
    first = worlds.sample(Rng(master.next_u64()))
    legal = first.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if first.phase in (Phase.PLACE_BANDS, Phase.PLACE_PAWNS):
        return setup_choice(first, seat)
    arms = [Arm(move) for move in root_moves(first, seat)]
    if len(arms) > 1:
        set_priors(first, seat, arms)
        arms = shortlist(arms)
        _search(worlds, seat, arms, master, budget)
    best = max(arms, key=lambda a: a.mean)
    best = next((a for a in arms if a.move[0]["type"] in PASSES and a.mean >= best.mean - PASS_MARGIN), best)
    return next(action for action in legal if action == best.move[0])


def _search(worlds: Worlds, seat: int, arms: list[Arm], master: Rng, budget: Budget) -> None:
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    done = 0
    while True:
        seed = master.next_u64()
        base = worlds.sample(Rng(seed))
        for arm in arms:
            s = base.clone()
            for action in arm.move:
                apply(s, seat, action)
            rollout(s, seat, random.Random(seed))
            arm.visits += 1
            arm.total += evaluate(s, seat)
            done += 1
        if (budget.iterations is not None and done >= budget.iterations) or (
                deadline is not None and time.perf_counter() >= deadline):
            return


class Partial:
    """Worlds drawn from the seat's view, with the named kinds of hidden facts (FACTS) set to the truth."""

    def __init__(self, match: GreatFireMatch, seat: int, knows: tuple[str, ...]) -> None:
        self.match, self.knows = match, knows
        self.guess = Determinizer(match.view(seat), seat)

    def sample(self, rng: Rng) -> GreatFireMatch:
        """A guess at the state, true in the facts known."""
        s, true = self.guess.sample(rng), self.match
        if "cards" in self.knows:
            s.hands, s.deck, s.box = [list(h) for h in true.hands], list(true.deck), list(true.box)
        if "objectives" in self.knows:
            s.objectives, s.colours = [list(o) for o in true.objectives], [list(c) for c in true.colours]
        if "tokens" in self.knows:
            s.tokens, s.board_tokens = [list(t) for t in true.tokens], list(true.board_tokens)
        return s


def _level(budget: Budget, worlds: Callable[[GreatFireMatch, int], Worlds]) -> Bot:
    def bot(match: Match, seat: int, rng: random.Random) -> Action:
        assert isinstance(match, GreatFireMatch)
        if match.phase is Phase.REDEAL:
            return {"type": "redeal"}  # as the search bot (R15)
        return choose(worlds(match, seat), seat, rng, budget)

    return bot


def levels(budget: Budget) -> dict[str, Bot]:
    """The rollout levels by name, within the budget."""
    def knowing(*facts: str) -> Callable[[GreatFireMatch, int], Worlds]:
        return lambda match, seat: Partial(match, seat, facts)

    out = {"rollout": _level(budget, knowing()), "rollout-oracle": _level(budget, lambda match, seat: Truth(match))}
    out.update({f"rollout-knows-{fact}": _level(budget, knowing(fact)) for fact in FACTS})
    return out
