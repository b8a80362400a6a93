"""How good a position is for a seat, in estimated final prestige (the greedy bot's yardstick)."""

from __future__ import annotations

from dataclasses import dataclass

from firebreak.domain.london.data import Card, Gain
from firebreak.domain.london.rules.poverty import prestige_lost
from firebreak.domain.london.rules.scoring import MONEY_PER_PRESTIGE, final_scores, repaid
from firebreak.domain.london.state import LOAN_REPAY, UNPAID_LOAN_PRESTIGE, Phase, State

CARDS_PER_TURN = 2.5


@dataclass(frozen=True)
class Weights:
    """The tunable weights of the rating (prestige per unit)."""

    stack_run: float = 1.0       # poverty a stack (or a loan) is expected to cost per future run
    hand_run: float = 0.25       # poverty a card in hand is expected to cost per future run
    hand_end: float = 0.7        # poverty a card in hand is expected to cost at the end (step 1 counts the hand)
    flip_engine: float = 0.7     # worth kept of a face-up card that flips when run
    lasting_engine: float = 0.5  # worth per future run of a face-up card that does not flip
    money_use: float = 0.12      # worth of £1 per turn left (up to 4) while it can still buy things
    hand_card: float = 0.35      # worth of a good card in hand (up to 6 cards)
    spent_slot: float = 0.8      # worth of a face-down top card: a stack to build on without more poverty
    runs_divisor: float = 3.0    # turns per run of the city


WEIGHTS = Weights()


def gain_worth(g: Gain) -> float:
    """A rough worth of a gain in prestige (money a third to a half, poverty a little under one)."""
    return g.money * 0.45 + g.prestige + g.poverty_down * 0.8 - g.poverty_up * 0.9 + g.draw * 0.6


def card_worth(card: Card) -> float:
    """A rough worth of holding a card: what it scores plus what it does, less its cost; beggars are a burden."""
    if card.kind == "beggar":
        return -3.0
    worth = card.prestige - card.cost * 0.3
    if card.activation is not None:
        worth += 1.5 * gain_worth(card.activation.gain) - card.activation.money * 0.45 - card.activation.card * 0.6
    if card.ongoing is not None:
        worth += 1.5
    if card.action is not None:
        worth += gain_worth(card.action)
    return worth


def turns_left(s: State) -> float:
    """Roughly how many more turns each seat plays."""
    if s.turns_left is not None:
        return 0.5
    return len(s.deck) / (CARDS_PER_TURN * s.seats)


def earned(s: State, seat: int) -> int:
    """Prestige the seat holds now: from land, from play, and the city cards in its stacks."""
    return s.prestige_land[seat] + s.prestige_play[seat] + sum(
        s.card(c).prestige for stack in s.stacks[seat] for c in stack)


def money_score(s: State, seat: int) -> float:
    """What the seat's money and loans would score now: loans repaid from money, £3 a prestige, -7 an unpaid loan."""
    money, unpaid = repaid(s.money[seat], s.loans[seat])
    return money / MONEY_PER_PRESTIGE - UNPAID_LOAN_PRESTIGE * unpaid


def income(s: State, seat: int) -> float:
    """The money one run of the seat's city makes as it stands (face-up cards and the top borough)."""
    total = 0.0
    for c in s.face_up_tops(seat):
        act = s.card(c).activation
        if act is not None:
            total += s.scaled(seat, act.gain).money - act.money
    top = s.top_borough(seat)
    if top is not None and top.run is not None:
        total += top.run.money
    return total


def expected_poverty(s: State, seat: int, runs: float, w: Weights) -> float:
    """The seat's poverty at the end if it runs its city `runs` more times as it stands (a hand costs at each run)."""
    return s.poverty[seat] + (len(s.stacks[seat]) + s.loans[seat]) * runs * w.stack_run + len(s.hands[seat]) * (
        w.hand_end + runs * w.hand_run)


def rate(s: State, seat: int, ran: bool = False, weights: Weights | None = None) -> float:
    """The seat's estimated final prestige, relative to the best other seat's when the match is over.

    ran: the seat ran its city in the turn just rated (that run's poverty is one of the runs already expected).
    """
    w = weights or WEIGHTS
    if s.phase is Phase.OVER:
        scores = final_scores(s)
        mine = scores[seat].total
        return mine - max(f.total for f in scores if f.seat != seat) + 1000
    left = turns_left(s)
    runs = min(left / w.runs_divisor, 4.0)  # how many more times the city will run
    prestige = earned(s, seat)
    money, loans = s.money[seat], s.loans[seat]
    final_money = money_score(s, seat)
    free = max(money - LOAN_REPAY * loans, 0)  # a loan's £10 is owed back as £15: only what is left buys things
    use = min(left, 4.0) * w.money_use * min(free, 20)  # money buys cards and land while there is time
    playable = sorted((card_worth(s.card(c)) for c in s.hands[seat] if s.card(c).kind != "beggar"), reverse=True)
    hand_worth = sum(min(x, 3.0) * w.hand_card for x in playable[:6]) if left > 1 else 0.0
    expected = [expected_poverty(s, o, runs, w) for o in range(s.seats)]
    if ran:
        expected[seat] -= min(len(s.stacks[seat]) + s.loans[seat], (len(s.stacks[seat]) + s.loans[seat]) * runs)
    over = expected[seat] - min(expected)
    poverty_cost = prestige_lost(int(over)) + (over - int(over)) * 2 + expected[seat] * 0.15
    engine = 0.0
    for c in s.face_up_tops(seat):
        card = s.card(c)
        if card.activation is not None:
            per_run = gain_worth(s.scaled(seat, card.activation.gain)) - card.activation.money * 0.45
            engine += max(per_run, 0.0) * (w.flip_engine if card.activation.flip else runs * w.lasting_engine)
        if card.ongoing is not None:
            engine += min(left, 3.0) * 0.4
    engine += sum(w.spent_slot for c in s.face_down[seat] if any(st[-1] == c for st in s.stacks[seat])) * min(left, 2.0)
    top = s.top_borough(seat)
    if top is not None and top.run is not None:
        engine += gain_worth(top.run) * runs * 0.8
    return prestige + final_money + use + hand_worth + engine - poverty_cost
