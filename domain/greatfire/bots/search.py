"""The search bot: information-set Monte Carlo from one seat's view, with greedy rollouts, within a time or
iteration budget.

The root moves are the legal actions, except in the fire phase, where a root move is a whole fire move (card,
source, target; or the double-move token and a move), and in the actions phase, where it is one of the PLANS
best plans of plans.py for the action points left, or ending the phase; the bot returns its first, currently
legal, step and searches again at the next step. Each move gets a prior: PRIOR times how much worse the greedy
rating (rating.py) rates its immediate outcome than the best move's. The search compares the KEEP moves the
prior rates best, and passing (ending the phase). Setup placements use a heuristic (opening.py); a redeal is
always taken.

The search runs in passes. A pass samples a fresh determinization of the view (hidden.py: the unknowns
drawn consistently with what the seat sees) and plays every compared move in its own copy of that world, then
plays on with greedy's choices for every seat (rollout.py) to the end of the turn the move leaves: after a fire
move, the seat's own actions to its turn's end; after an action plan (which ends the seat's turn), the rivals'
turns to the start of the seat's next one. It scores the outcome from the seat's side by its outlook
(outlook.py: a fitted estimate of its final score against the rivals', which prices the houses the
fire can still reach by how much of the deck is left). Every move sees the same worlds (common random numbers), so
moves are compared on the same guesses. A move's score is its mean outcome plus its prior, which settles what a
few noisy rollouts cannot tell apart; the best-scored move wins, and passing wins when it scores about as well (no
aimless moves). How far a rollout runs and what scores it is a Judge: the service's search uses FITTED (stopping
everywhere at the turn's end or everywhere at the next turn's start played no better: bench/horizons.py); the
earlier HAND_WEIGHTED (every seat plays on with greedy's choices until the seat's next turn ends, scored by
lookahead.evaluate) costs several times as much a rollout, so 0.4 s bought one or two worlds a decision
instead of a median of 28 (a fire move) or 3 (an action plan), and it won fewer games at that budget
(docs/benchmarks.md, "A fitted outlook and a one-turn look-ahead"); it stays as the bench's `hand-weighted` level.

With an iteration budget (rollouts, in whole passes, at least one; a budget smaller than the moves compares only
that many of those the prior rates best) the decision depends only on the view and the rng (same seed, same
action); with a time budget a pass starts only when it should end before the deadline
(at least one pass), so the decision depends on the machine's speed too. The budget (contract.Budget) is
passed in: the service's workers read theirs from their settings (workers/budget.py). search_bot_with(...)
binds one for benches and tests.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from firebreak.domain.bots import Bot, listed
from firebreak.domain.contract import Action, Budget, Match
from firebreak.domain.greatfire.bots.lookahead import FireMove, apply, evaluate, fire_moves
from firebreak.domain.greatfire.bots.opening import setup_choice
from firebreak.domain.greatfire.bots.outlook import lead
from firebreak.domain.greatfire.bots.plans import END, best_plans
from firebreak.domain.greatfire.bots.rating import UNKNOWN_TOKEN, rating
from firebreak.domain.greatfire.bots.rollout import rollout
from firebreak.domain.greatfire.match import Determinizer, GreatFireMatch
from firebreak.domain.greatfire.rules import fire
from firebreak.domain.greatfire.state import Phase
from firebreak.domain.rng import Rng

DEFAULT_SECONDS = Budget().seconds
PASSES = ("endActions", "endFire")
PASS_MARGIN = 0.05     # VP by which a move must beat passing to be preferred to it
PRIOR = 0.5            # weight of the greedy rating of a root move's immediate outcome (rating.rating)
KEEP = 6               # root moves searched: the best by prior (and passing)
PLANS = 8              # actions phase: the best-rated plans searched as root moves (ending the phase among them)
Move = tuple[Action, ...]
Playout = Callable[[GreatFireMatch, int, random.Random, int], None]  # state, seat, rng, horizon


@dataclass(frozen=True)
class Judge:
    """How a rollout runs and what scores its outcome: the horizon (rollout.rollout's: 1 stops when the seat's
    turn ends, 3 when its next turn ends) and the seat's score of the state reached."""

    horizon: int
    score: Callable[[GreatFireMatch, int], float]
    play: Playout = rollout  # how the rollout plays on to the horizon (bench/horizons.py holds others)


FITTED = Judge(1, lead)             # the service's: to the turn's end (a plan: the rivals' turns), the outlook
HAND_WEIGHTED = Judge(3, evaluate)  # the bench's `hand-weighted` level: the rivals' turns played out, evaluate


def root_moves(s: GreatFireMatch, seat: int) -> list[Move]:
    """The moves searched at the root; the first action of each is legal now."""
    if s.phase is Phase.ACTIONS:
        # The rest of the turn as one plan (plans.py): the best-rated ones, each ended by endActions.
        plans = best_plans(s, seat)
        kept = plans[:PLANS] + [p for p in plans[PLANS:] if not p.steps]  # ending the phase is always a move
        return [(*plan.steps, END) for plan in kept]
    if s.phase is not Phase.FIRE:
        return [(a,) for a in s.legal_actions(seat)]
    ids = s.geo.ids
    if s.source is not None:
        assert s.card is not None
        return [({"type": "spreadFire", "district": ids[t]},) for t in fire.targets(s, s.card, s.source)]
    if s.card is not None and s.moves_left == 0:
        offer: list[Move] = [({"type": "endFire"},)]
        if "doubleMove" not in s.tokens[seat]:
            return offer  # R18b: the pause without the token
        return offer + [({"type": "playDoubleMove"}, *_steps(s, m)) for m in fire_moves(s, seat, s.card)]
    return [_steps(s, m) for m in fire_moves(s, seat, s.card)]


def _steps(s: GreatFireMatch, move: FireMove) -> Move:
    ids = s.geo.ids
    card: Move = () if move.card is None else ({"type": "playCard", "card": move.card},)
    return (*card, {"type": "chooseSource", "district": ids[move.source]},
            {"type": "spreadFire", "district": ids[move.target]})


@dataclass
class Arm:
    """A root move and its statistics."""

    move: Move
    visits: int = 0
    total: float = 0.0
    prior: float = 0.0  # PRIOR x (the move's outcome rated by rating.rating less the best move's): <= 0

    @property
    def mean(self) -> float:
        """Mean reward so far."""
        return self.total / self.visits if self.visits else float("-inf")

    @property
    def score(self) -> float:
        """Mean reward with the prior added: what the search ranks moves by."""
        return self.mean + self.prior


def set_priors(world: GreatFireMatch, seat: int, arms: list[Arm]) -> None:
    """Rate each root move's immediate outcome as the greedy bot would (tokens of unknown kind)."""
    base = world.clone()
    base.board_tokens = [None if t is None else UNKNOWN_TOKEN for t in base.board_tokens]
    values = []
    for arm in arms:
        trial = base.clone()
        steps = arm.move[:-1] if len(arm.move) > 1 and arm.move[-1] == END else arm.move
        for action in steps:
            apply(trial, seat, action)
        values.append(rating(trial, seat))
    top = max(values)
    for arm, value in zip(arms, values, strict=True):
        arm.prior = PRIOR * (value - top)


class Worlds(Protocol):
    """Where the search's worlds come from: sample(rng) is a full state to play on (a Determinizer's guess at
    what the seat cannot see; bench/oracle.py's is the true state, to measure what knowing it is worth)."""

    def sample(self, rng: Rng) -> GreatFireMatch:
        """A full state, consistent with what the seat sees."""
        ...


def search_from_view(view: dict[str, Any], seat: int, rng: random.Random, budget: Budget,
                     judge: Judge = FITTED) -> Action:
    """Choose the seat's action from its view alone."""
    if view["phase"] == Phase.REDEAL.value:
        return {"type": "redeal"}  # R15: five identical cards; any fresh hand is better
    return choose(Determinizer(view, seat), seat, rng, budget, judge)


def choose(det: Worlds, seat: int, rng: random.Random, budget: Budget, judge: Judge = FITTED) -> Action:
    """Choose the seat's action by searching the worlds det samples."""
    master = Rng(rng.getrandbits(64))
    world = det.sample(Rng(master.next_u64()))
    legal = world.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if world.phase in (Phase.PLACE_BANDS, Phase.PLACE_PAWNS):
        return setup_choice(world, seat)
    arms = [Arm(move) for move in root_moves(world, seat)]
    if len(arms) == 1:
        return listed(arms[0].move[0], legal, "search")
    set_priors(world, seat, arms)
    compared = shortlist(arms)
    if budget.iterations is not None and budget.iterations < len(compared):
        # Fewer rollouts than moves: compare only as many of those the prior rates best (one: the prior's pick).
        compared = sorted(compared, key=lambda a: -a.prior)[:max(1, budget.iterations)]
        if len(compared) == 1:
            return listed(compared[0].move[0], legal, "search")
    best = _search(det, seat, compared, master, budget, judge)
    return listed(best.move[0], legal, "search")


def shortlist(arms: list[Arm]) -> list[Arm]:
    """The KEEP moves the prior rates best, and passing (ending the phase) when it is a move.

    A few visits each to 30-40 moves leave means too noisy to rank (the best-looking is the luckiest), so the
    search spends its budget on the moves worth comparing.
    """
    ranked = sorted(arms, key=lambda a: -a.prior)
    kept = ranked[:KEEP]
    return kept + [a for a in ranked[KEEP:] if a.move[0]["type"] in PASSES]


def _search(det: Worlds, seat: int, arms: list[Arm], master: Rng, budget: Budget, judge: Judge) -> Arm:
    """Passes over the moves, each on a fresh world, until the budget runs out (at least one)."""
    started = time.perf_counter()
    passes = 0
    while True:
        seed = master.next_u64()
        world = det.sample(Rng(seed))
        for arm in arms:
            arm.visits += 1
            arm.total += _simulate(world.clone(), seat, arm.move, seed, judge)
        passes += 1
        if budget.iterations is not None and passes * len(arms) >= budget.iterations:
            break
        if budget.seconds is not None:
            spent = time.perf_counter() - started
            if spent + spent / passes > budget.seconds:
                break  # the next pass would end after the deadline
    return _final(arms)


def _final(arms: list[Arm]) -> Arm:
    """The best-scored move; a pass (ending the phase) that does about as well wins (no aimless moves)."""
    best = max(arms, key=lambda a: a.score)
    for arm in arms:
        if arm.move[0]["type"] in PASSES and arm.score >= best.score - PASS_MARGIN:
            return arm
    return best


def _simulate(world: GreatFireMatch, seat: int, move: Move, seed: int, judge: Judge = FITTED) -> float:
    """One rollout: the move, then the judge's playout to its horizon; its outcome for the seat."""
    for action in move:
        apply(world, seat, action)
    judge.play(world, seat, random.Random(seed), judge.horizon)
    return judge.score(world, seat)


def search(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    """The search level: choose from match.view(seat) alone within the budget."""
    return search_from_view(match.view(seat), seat, rng, budget)


def search_bot_with(budget_seconds: float | None = DEFAULT_SECONDS, iterations: int | None = None,
                    judge: Judge = FITTED) -> Bot:
    """A search bot with a fixed budget (and judge); it reads nothing of the match but the seat's view."""
    budget = Budget(seconds=budget_seconds, iterations=iterations)

    def bot(match: Match, seat: int, rng: random.Random) -> Action:
        return search_from_view(match.view(seat), seat, rng, budget, judge)

    return bot

