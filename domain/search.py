"""A title-agnostic search bot: determinized (information-set) Monte Carlo over the contract alone.

Each iteration draws a world with match.resample(seat, ...) (everything hidden from the seat redrawn, consistently
with what it has seen), plays one of the seat's root actions in it, then lets a cheap policy (uniformly random
unless the title passes its own) decide for every seat owing a decision, running the service's automated steps
(system_due / run_system_step) as they fall due, until the match ends or MAX_STEPS steps have been played. An
unfinished playout is scored by the title's leaf hook when it gives one, else as a draw.

Reward, from the seat's side, in [-1, 1]: 0.8 times the pairwise rank (the mean over rivals of +1 for a higher
total, -1 for a lower one, 0 for a tie) plus 0.2 times the margin over the best rival relative to the size of the
two totals. Rank, not raw points, because titles score on different scales and UCB1 needs a bounded reward; with
two seats it is plain win / loss / draw. The margin term separates a safe win from a narrow one and a near loss
from a rout, which gives the search a signal when every playout is a win or every one a loss. A draw is 0, as
is an unfinished playout without a leaf hook.

The root actions are the seat's legal actions, or those a title's root hook keeps (it must keep at least one,
and read only what the seat sees): a title whose legal actions include an undo (a staged decision cancelled back
to the one before) drops it there, or a search that rates the two decisions differently goes round between them
for ever. Root selection is UCB1 over the root actions after one visit of each. The n-th visit of every root action uses
the n-th world and the same playout random stream (common random numbers), so actions are compared on the same
guesses. The decision is the most visited action (then the best mean, then list order). With an iteration budget
alone the decision depends only on the rng and on what resample shows the seat; with seconds it depends on the
machine's speed too. The match itself is never read: root actions come from the first world (resample keeps
the seat's own legal actions), and twins that differ only in facts hidden from the seat choose alike.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from firebreak.domain.contract import Action, BotLevel, Budget, Match
from firebreak.domain.errors import NotYourTurn, RulesError

Policy = Callable[[Match, int, random.Random], Action]  # the playout's choice for a seat owing a decision
LeafScore = Callable[[Match, int], float]  # a playout stopped before the end, scored for the seat in [-1, 1]
Moves = Callable[[Match, int], list[Action]]  # the root actions worth searching, from the seat's legal ones

MAX_STEPS = 400        # playout steps (decisions and automated steps) before the leaf is scored
EXPLORATION = 1.0      # UCB1 constant for rewards in [-1, 1]
RANK_WEIGHT = 0.8      # the rest of the reward is the relative margin over the best rival


def random_policy(match: Match, seat: int, rng: random.Random) -> Action:
    """Pick uniformly among the seat's legal actions."""
    return rng.choice(match.legal_actions(seat))


def reward(match: Match, seat: int) -> float:
    """The finished match's reward for the seat in [-1, 1] (see the module docstring); 0 when not over."""
    result = match.result()
    if result is None:
        return 0.0
    totals = {s.seat: s.total for s in result.scores}
    own = totals[seat]
    rivals = [total for other, total in totals.items() if other != seat]
    if not rivals:
        return 0.0
    rank = sum((own > r) - (own < r) for r in rivals) / len(rivals)
    best = max(rivals)
    margin = (own - best) / (abs(own) + abs(best) + 1)
    return RANK_WEIGHT * rank + (1 - RANK_WEIGHT) * margin


def playout(world: Match, seat: int, rng: random.Random, policy: Policy = random_policy,
            leaf: LeafScore | None = None, max_steps: int = MAX_STEPS) -> float:
    """Play the world on with the policy for every seat (automated steps included) and score it for the seat."""
    for _ in range(max_steps):
        if world.is_over():
            return reward(world, seat)
        if world.system_due():
            world.run_system_step()
            continue
        acting = world.to_act()
        if not acting:
            break  # neither a seat nor the service owes a step: score what there is
        world.apply(acting[0], policy(world, acting[0], rng))
    if world.is_over():
        return reward(world, seat)
    return 0.0 if leaf is None else max(-1.0, min(1.0, leaf(world, seat)))


class _Worlds:
    """The seeds of the n-th world and playout stream, drawn from the bot's rng in order of first need; each world
    is resampled once and handed out as clones (every root action's n-th visit plays in the same world)."""

    def __init__(self, match: Match, seat: int, rng: random.Random) -> None:
        self.match, self.seat, self.rng = match, seat, rng
        self.seeds: list[int] = []
        self.drawn: list[Match] = []

    def seed(self, n: int) -> int:
        """The seed of the n-th visit."""
        while len(self.seeds) <= n:
            self.seeds.append(self.rng.getrandbits(62))
        return self.seeds[n]

    def world(self, n: int) -> Match:
        """A copy of the n-th world: the seat's resample drawn from the n-th seed (once: a clone costs less)."""
        while len(self.drawn) <= n:
            k = len(self.drawn)
            self.drawn.append(self.match.resample(self.seat, random.Random(2 * self.seed(k))))
        return self.drawn[n].clone()

    def stream(self, n: int) -> random.Random:
        """The playout random stream of the n-th visit."""
        return random.Random(2 * self.seed(n) + 1)


def choose(match: Match, seat: int, rng: random.Random, budget: Budget, policy: Policy | None = None,
           leaf: LeafScore | None = None, max_steps: int = MAX_STEPS, root: Moves | None = None) -> Action:
    """Return the seat's action chosen by information-set Monte Carlo within the budget."""
    pick = policy or random_policy
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    worlds = _Worlds(match, seat, rng)
    first = worlds.world(0)
    legal = first.legal_actions(seat)
    if not legal:
        raise NotYourTurn(f"seat {seat} owes no decision")
    moves = legal if root is None else root(first, seat)
    assert moves, "a root hook kept no action"
    if len(moves) == 1:
        return moves[0]
    visits = [0] * len(moves)
    totals = [0.0] * len(moves)
    done = 0
    while (budget.iterations is None or done < budget.iterations) and (
            deadline is None or done == 0 or time.perf_counter() < deadline):
        arm = done if done < len(moves) else _ucb(visits, totals, done)
        n = visits[arm]
        world = worlds.world(n)
        value = 0.0
        try:
            world.apply(seat, moves[arm])
        except RulesError:
            value = -1.0  # a title whose resample breaks the seat's own choices: never prefer the move there
        else:
            value = playout(world, seat, worlds.stream(n), pick, leaf, max_steps)
        visits[arm] += 1
        totals[arm] += value
        done += 1
    best = max(range(len(moves)), key=lambda k: (visits[k], totals[k] / visits[k] if visits[k] else -2.0, -k))
    return moves[best]


def _ucb(visits: list[int], totals: list[float], done: int) -> int:
    """The root action UCB1 visits next (every action has been visited once)."""
    log_n = math.log(done)
    return max(range(len(visits)),
               key=lambda k: (totals[k] / visits[k] + EXPLORATION * math.sqrt(log_n / visits[k]), -k))


def search_level(policy: Policy | None = None, leaf: LeafScore | None = None,
                 max_steps: int = MAX_STEPS, root: Moves | None = None) -> BotLevel:
    """The generic "search" bot level, for a title to list in its bots() (with its own playout policy, leaf or
    root moves)."""

    def run(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
        return choose(match, seat, rng, budget, policy, leaf, max_steps, root)

    return BotLevel(name="search", description="Information-set Monte Carlo search over random playouts "
                    "(generic: knows nothing of the title's rules beyond its legal actions and scores).",
                    choose=run)
