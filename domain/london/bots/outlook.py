"""A seat's outlook: its final prestige lead over the best rival, estimated from the position by a fitted sum.

The search scores a playout cut short with this (search.py's leaf). rating.py's rules of thumb guess the weights;
these were fitted (least squares: `python -m bench.london_fit --games 2000`) to the final margins of 2,000 seeded
2-seat games of two greedy bots, a quarter of their positions sampled. On the held-out fifth of those games the
fitted sum explains 52% of the final margin's variance and has its sign 74% of the time; rating.py's difference
explains 26% and has its sign 66% of the time. The weights are what predicted greedy's games, not what a card or a
pound is worth in itself: money late in the game goes with winning (an engine that pays), so it weighs more than its
£3 a prestige at the end.

Each seat's position is a handful of plain quantities (features()), some weighted by how much of the game is left
(runs still to come, turns to spend money in), and the prestige the end-game poverty comparison would take from it,
now and as expected; its standing is their weighted sum, and a pair's estimated final margin the difference of their
standings. The lead is the margin over the best rival. The search uses it at 2 seats only: weights fitted the same
way to 4-seat games (`--seats 4 --games 1000 --seed 310000`: 50% of the variance against rating.py's 34%) played
worse than rating.py there (docs/benchmarks.md, "A fitted outlook").
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from firebreak.domain.london.bots.rating import (
    WEIGHTS,
    card_worth,
    earned,
    expected_poverty,
    gain_worth,
    income,
    money_score,
    turns_left,
)
from firebreak.domain.london.rules.poverty import prestige_lost
from firebreak.domain.london.state import LOAN_REPAY, State


@dataclass(frozen=True)
class Features:
    """One seat's position as the fitted sum reads it (the names bench/london_fit.py fits weights to); as
    Coefficients, the prestige per unit of each."""

    prestige: float      # prestige already earned: land, play, and the city cards in its stacks
    final_money: float   # what its money and loans would score now (£3 a prestige, -7 an unpaid loan)
    free: float          # money not owed back on loans, up to £20
    free_left: float     # the same times the turns left to spend it (up to 4)
    hand: float          # cards in hand
    hand_runs: float     # the same times the runs of its city still expected
    stacks: float        # building stacks
    stacks_runs: float   # the same times the runs still expected
    raw_poverty: float   # poverty with the hand counted, as the end-game's step 1 does
    poverty_cost: float  # rating.py's expected poverty penalty (expected poverty over the lowest seat's)
    hand_worth: float    # the playable hand's worth by card_worth (six best, each up to 3)
    hand_worth_left: float
    beggars: float       # beggar cards in hand
    flip_engine: float   # what its face-up cards that flip when run make in one run
    lasting_engine: float  # what its face-up cards that stay up make, times the runs still expected
    ongoing: float       # face-up cards with an ongoing effect, times the turns left (up to 3)
    spent_slots: float   # face-down stack tops (to build on without a new stack), times the turns left (up to 2)
    borough_run: float   # what its top borough's run makes, times the runs still expected
    income_runs: float   # the money one run of its city makes, times the runs still expected
    boroughs: float      # boroughs bought
    to_move: float       # 1 when it is the seat's turn
    poverty_now: float   # the prestige the end-game comparison would take now (raw poverty over the lowest seat's)
    poverty_expected: float  # the same for the poverty each seat is expected to reach


Coefficients = Features

# Fitted by `python -m bench.london_fit --games 2000` (2 seats); SPREAD is the standard deviation of the held-out
# final margins about the estimate.
COEFFICIENTS = Coefficients(
    prestige=1.089, final_money=4.803, free=0.584, free_left=-0.462, hand=1.911, hand_runs=0.077, stacks=0.029,
    stacks_runs=0.327, raw_poverty=-0.794, poverty_cost=-0.34, hand_worth=-0.343, hand_worth_left=0.145,
    beggars=0.722, flip_engine=0.301, lasting_engine=0.249, ongoing=-0.13, spent_slots=0.104, borough_run=-0.517,
    income_runs=-0.241, boroughs=0.671, to_move=-0.886, poverty_now=-0.251, poverty_expected=-0.058)
SPREAD = 11.89
NAMES = tuple(f.name for f in fields(Features))


def features(s: State) -> list[Features]:
    """Every seat's features."""
    left = turns_left(s)
    runs = min(left / WEIGHTS.runs_divisor, 4.0)
    expected = [expected_poverty(s, o, runs, WEIGHTS) for o in range(s.seats)]
    raw = [s.poverty[o] + len(s.hands[o]) for o in range(s.seats)]
    return [_seat(s, seat, left, runs, expected, raw) for seat in range(s.seats)]


def _seat(s: State, seat: int, left: float, runs: float, expected: list[float], raw: list[int]) -> Features:
    free = min(max(s.money[seat] - LOAN_REPAY * s.loans[seat], 0), 20)
    hand_cards = [s.card(c) for c in s.hands[seat]]
    playable = sorted((card_worth(c) for c in hand_cards if c.kind != "beggar"), reverse=True)
    hand_worth = sum(min(x, 3.0) for x in playable[:6])
    over = expected[seat] - min(expected)
    flip = lasting = ongoing = 0.0
    for c in s.face_up_tops(seat):
        card = s.card(c)
        if card.activation is not None:
            worth = max(gain_worth(s.scaled(seat, card.activation.gain)) - card.activation.money * 0.45, 0.0)
            if card.activation.flip:
                flip += worth
            else:
                lasting += worth
        if card.ongoing is not None:
            ongoing += 1
    top = s.top_borough(seat)
    borough = gain_worth(top.run) if top is not None and top.run is not None else 0.0
    spent = sum(1 for c in s.face_down[seat] if any(st[-1] == c for st in s.stacks[seat]))
    hand, stacks = len(hand_cards), len(s.stacks[seat])
    return Features(
        prestige=earned(s, seat), final_money=money_score(s, seat),
        free=free, free_left=free * min(left, 4.0), hand=hand, hand_runs=hand * runs, stacks=stacks,
        stacks_runs=stacks * runs, raw_poverty=raw[seat],
        poverty_cost=prestige_lost(int(over)) + (over - int(over)) * 2,
        hand_worth=hand_worth, hand_worth_left=hand_worth * min(left, 4.0),
        beggars=sum(1 for c in hand_cards if c.kind == "beggar"), flip_engine=flip, lasting_engine=lasting * runs,
        ongoing=ongoing * min(left, 3.0), spent_slots=spent * min(left, 2.0), borough_run=borough * runs,
        income_runs=income(s, seat) * runs, boroughs=len(s.boroughs[seat]), to_move=1.0 if s.turn == seat else 0.0,
        poverty_now=prestige_lost(raw[seat] - min(raw)), poverty_expected=prestige_lost(int(over)))


def weighted(f: Features, k: Features = COEFFICIENTS) -> float:
    """A seat's estimated standing: its features times their weights (a margin is the difference of two)."""
    total = 0.0
    for name in NAMES:
        total += getattr(k, name) * getattr(f, name)
    return total


def lead(s: State, seat: int) -> float:
    """The seat's estimated final prestige lead over the best rival (negative: behind)."""
    standing = [weighted(f) for f in features(s)]
    mine = standing.pop(seat)
    return mine - max(standing)
