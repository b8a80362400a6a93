"""The deliberate bot (bench-only, issue 51): the plan a good player follows, without search or look-ahead.

Borrow early, build income and activation cards, run the city once enough fresh cards lie face up, buy the best
borough the money (and early on one more loan) pays for, repay late. It is the bench's check of how far the
catalogue lets a city grow, and a source of games that build for fitting. It reads one copy of the match
resampled from its seat's view (LondonMatch.resample), so it sees nothing its seat cannot.

Every choice it makes at one step agrees with the next step's (it chooses develop only when it will play a card it
can pay for under its loan rule, and pays or borrows for every card it chose), so it never cancels a staged choice
and never goes round develop, cancel, develop.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from firebreak.domain.contract import Action, BotLevel, Budget, Match
from firebreak.domain.london.bots.rating import card_worth, turns_left
from firebreak.domain.london.data import Card, Gain
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.rules import develop, land, running
from firebreak.domain.london.rules.poverty import prestige_lost
from firebreak.domain.london.state import LOAN, LOAN_REPAY, Phase


@dataclass(frozen=True)
class Plan:
    """The plan's thresholds."""

    max_loans: int = 2            # loans out at once
    borrow_turns: float = 4.0     # borrow only with at least this many turns left
    repay_turns: float = 2.5      # repay at the start of a turn once this few turns are left (or with spare money)
    spare: int = 12               # money kept after a repayment made before the end is near
    run_ratio: float = 0.3        # run once the fresh activations are worth this share of what the run's poverty
                                  # costs at the end (the table's steps from the seat's lead in poverty on the
                                  # least poor seat, all public)
    run_hand: int = 4             # ...and the hand is this small (else develop first when it can)
    money_worth: float = 0.8      # prestige a £ is worth while it can still buy cards and land
    land_loan: bool = False       # whether land may be bought with a loan
    play_worth: float = 0.0       # play a card worth more than this (play_worth)
    board_worth: float = 1.0      # draw a board card worth at least this instead of the deck...
    board_hand: int = 6           # ...while the hand is smaller than this (the deck must run out: board draws
                                  # alone could go round for ever between seats that cannot play)
    shed_hand: int = 8            # with this many cards in hand, play any card it can pay for (so too once this
    shed_turns: float = 1.0       # few turns are left: a card in hand is a poverty at the end)
    draw_worth: float = 0.2       # worth of a card an activation draws (less one per card with a big hand)
    max_stacks: int = 4           # start a new stack only below this many
    land_worth: float = 2.0       # buy a borough whose worth is at least this
    draw_hand: int = 3            # draw three only with a hand smaller than this


PLAN = Plan()


def choose(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    """The plan's action for the seat, from a copy of the match resampled from the seat's view."""
    legal = match.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    assert isinstance(match, LondonMatch)
    return decide(match.resample(seat, rng), seat, legal, PLAN)


def decide(m: LondonMatch, seat: int, legal: list[Action], plan: Plan) -> Action:
    """The plan's action among the legal ones (m: what the seat may know)."""
    kinds = {a["type"]: a for a in legal}
    phase = m.phase
    if phase is Phase.START:
        return _start(m, seat, legal, kinds, plan)
    if phase is Phase.ACTION:
        return _action(m, seat, legal, kinds, plan)
    if phase is Phase.DRAW:
        return _draw(m, seat, legal, kinds, plan)
    if phase is Phase.DEVELOP:
        wanted = _wanted_plays(m, seat, plan)
        if wanted:
            return {"type": "play", "card": wanted[0]}
        return kinds.get("endDevelop") or kinds["cancel"]
    if phase is Phase.DISCARD_FOR:
        return _worst_discard(m, legal, kinds)
    if phase is Phase.ACTIVATION_DISCARD:
        return _worst_discard(m, legal, kinds)
    if phase is Phase.HAND_LIMIT:
        return _worst_discard(m, legal, kinds)
    if phase is Phase.PLACE:
        return _place(m, seat, legal, kinds, plan)
    if phase is Phase.PAY:
        if "pay" in kinds:
            return kinds["pay"]
        return kinds["takeLoan"] if "takeLoan" in kinds else kinds["cancel"]
    if phase is Phase.RUN:
        fresh = _fresh(m, seat)
        for c in fresh:
            return {"type": "activate", "card": c}
        return kinds["endRun"]
    # FLIP: keep the better card face up
    return min(legal, key=lambda a: card_worth(m.card(a["card"])))


def _start(m: LondonMatch, seat: int, legal: list[Action], kinds: dict[str, Action], plan: Plan) -> Action:
    """Repay late (or from money to spare), then draw: a good board card, else the deck."""
    if "repayLoan" in kinds:
        late = m.turns_left is not None or turns_left(m) <= plan.repay_turns
        if late or m.money[seat] - LOAN_REPAY >= plan.spare:
            return kinds["repayLoan"]
    return _draw(m, seat, legal, kinds, plan)


def _draw(m: LondonMatch, seat: int, legal: list[Action], kinds: dict[str, Action], plan: Plan) -> Action:
    board = [a for a in legal if a["type"] == "drawBoard"]
    best = max(board, key=lambda a: (card_worth(m.card(a["card"])), a["card"]), default=None)
    good = best is not None and card_worth(m.card(best["card"])) >= plan.board_worth
    if best is not None and ((good and len(m.hands[seat]) < plan.board_hand) or "drawDeck" not in kinds):
        return best
    return kinds.get("drawDeck") or kinds.get("skipDraw") or legal[0]


def may_borrow(m: LondonMatch, seat: int, plan: Plan) -> bool:
    """Whether the plan takes another loan now: few out, and time left to make the money back."""
    return (m.loans[seat] < plan.max_loans and m.turns_left is None and turns_left(m) >= plan.borrow_turns
            and m.loan_tokens() > 0)


def _reach(m: LondonMatch, seat: int, plan: Plan) -> int:
    """The money the seat may spend under the loan rule (one more loan at most for any one payment)."""
    return m.money[seat] + (LOAN if may_borrow(m, seat, plan) else 0)


def _land_reach(m: LondonMatch, seat: int, plan: Plan) -> int:
    return _reach(m, seat, plan) if plan.land_loan else m.money[seat]


def _wanted_plays(m: LondonMatch, seat: int, plan: Plan) -> list[str]:
    """The cards of the hand worth playing now that the seat can pay for under its loan rule, best first."""
    reach = _reach(m, seat, plan)
    late = m.turns_left is not None or turns_left(m) <= plan.shed_turns
    shed = late or len(m.hands[seat]) >= plan.shed_hand  # every card played is two fewer in hand
    out = []
    for c in develop.playable(m, seat):
        card = m.card(c)
        if develop.cost_of(m, seat, c) > (m.money[seat] if shed else reach):
            continue
        if shed or play_worth(m, seat, card, plan) > plan.play_worth:
            out.append(c)
    return sorted(out, key=lambda c: (-play_worth(m, seat, m.card(c), plan), c))


def money_worth(m: LondonMatch, plan: Plan) -> float:
    """Prestige a £ is worth: more while it can still buy cards and land, a third (the end's rate) at the end."""
    return plan.money_worth if turns_left(m) > plan.repay_turns else 1 / 3


def play_worth(m: LondonMatch, seat: int, card: Card, plan: Plan) -> float:
    """What playing the card gives, in prestige: its end-game prestige, one activation (a lasting one more often
    while time is left), its action, less its cost; an ongoing effect a little."""
    pound = money_worth(m, plan)
    worth = card.prestige - develop.cost_of(m, seat, card.id) * pound
    runs_left = turns_left(m) / 3
    if card.activation is not None and runs_left >= 1:
        act = card.activation
        g = m.scaled(seat, act.gain)
        once = (g.money - act.money) * pound + g.prestige + 0.8 * g.poverty_down - 0.9 * g.poverty_up \
            + 0.3 * g.draw - 0.5 * act.card
        worth += max(once, 0.0) * (1.0 if act.flip else min(runs_left, 3.0))
    if card.action is not None:
        a = card.action
        worth += a.money * pound + a.prestige + 0.8 * a.poverty_down + 0.3 * a.draw
    if card.ongoing is not None:
        worth += 1.0
    return worth


def _worst_discard(m: LondonMatch, legal: list[Action], kinds: dict[str, Action]) -> Action:
    options = [a for a in legal if a["type"] == "discard"]
    if not options:
        return kinds["cancel"]
    return min(options, key=lambda a: (card_worth(m.card(a["card"])), a["card"]))


def _place(m: LondonMatch, seat: int, legal: list[Action], kinds: dict[str, Action], plan: Plan) -> Action:
    """On a spent (face-down) top, else on a top that neither runs nor lasts (its prestige counts covered), else a
    new stack while there are few, else on the weakest top."""
    stacks = m.stacks[seat]
    down = m.face_down[seat]
    ons = [a for a in legal if a["type"] == "placeOn"]
    spent = [a for a in ons if stacks[a["stack"]][-1] in down]
    if spent:
        return spent[0]
    idle = [a for a in ons if _idle(m.card(stacks[a["stack"]][-1]))]
    if idle:
        return idle[0]
    if len(stacks) < plan.max_stacks or not ons:
        return kinds["newStack"]
    return min(ons, key=lambda a: card_worth(m.card(stacks[a["stack"]][-1])))


def _idle(card: Card) -> bool:
    return card.activation is None and card.ongoing is None


def activation_worth(m: LondonMatch, seat: int, card_id: str, plan: Plan | None = None) -> float:
    """What activating the card now gives, roughly in prestige (money while it buys things, poverty cut while
    there is any to cut once the run's own poverty is counted, a card drawn a poverty at the run's end with a big
    hand)."""
    plan = PLAN if plan is None else plan
    act = m.card(card_id).activation
    assert act is not None
    g: Gain = m.scaled(seat, act.gain)
    poverty_cut = min(g.poverty_down, m.poverty[seat] + len(m.stacks[seat]) + len(m.hands[seat]))
    drawn = plan.draw_worth - (len(m.hands[seat]) >= plan.run_hand)
    paid_card = 0.4 if act.card else 0.0  # a card paid is a card less in hand at the run's poverty
    return ((g.money - act.money) * money_worth(m, plan) + g.prestige + poverty_cut * 0.8 - g.poverty_up * 0.9
            + g.draw * drawn + paid_card)


def _fresh(m: LondonMatch, seat: int) -> list[str]:
    """Face-up cards the seat can activate now and that are worth it, best first (a card cost paid from the
    worst card of the hand)."""
    out = []
    for c in running.runnable(m, seat):
        act = m.card(c).activation
        assert act is not None
        if act.money > m.money[seat]:
            continue
        if activation_worth(m, seat, c) > 0:
            out.append(c)
    return sorted(out, key=lambda c: (-activation_worth(m, seat, c), c))


def borough_worth(m: LondonMatch, seat: int, borough_id: str) -> float:
    """A borough's worth to the seat now: its prestige, poverty cut, draws and run effect while time is left."""
    b = m.borough(borough_id)
    g = b.immediate
    runs = min(turns_left(m) / 3, 3.0)
    worth = g.prestige + min(g.poverty_down, m.poverty[seat] + len(m.stacks[seat])) * 0.9 + g.draw * 0.3
    if b.run is not None:
        worth += runs * (b.run.money / 3 + b.run.prestige + 0.8 * b.run.poverty_down - 0.9 * b.run.poverty_up)
    return worth


def run_gain(m: LondonMatch, seat: int, plan: Plan) -> float:
    """What running now would give, in prestige: the fresh activations and the top borough's run effect."""
    gain = sum(activation_worth(m, seat, c, plan) for c in _fresh(m, seat))
    top = m.top_borough(seat)
    if top is not None and top.run is not None:
        r = top.run
        gain += r.money * money_worth(m, plan) + r.prestige + 0.8 * r.poverty_down - 0.9 * r.poverty_up
    return gain


def run_poverty(m: LondonMatch, seat: int) -> int:
    """The poverty a run now would cost (its cards paid for activations left out of the hand)."""
    acts = [m.card(c).activation for c in _fresh(m, seat)]
    paid = sum(1 for act in acts if act is not None and act.card)
    return len(m.stacks[seat]) + m.loans[seat] + max(0, len(m.hands[seat]) - paid)


def poverty_lead(m: LondonMatch, seat: int) -> int:
    """How far the seat's poverty (its hand counted, as the end does) is above the least poor other seat's."""
    own = m.poverty[seat] + len(m.hands[seat])
    return max(0, own - min(m.poverty[o] + len(m.hands[o]) for o in range(m.seats) if o != seat))


def run_cost(m: LondonMatch, seat: int) -> float:
    """What a run's poverty would cost at the end, in prestige, from the seat's lead in poverty now (at least one
    a poverty: the others may catch up, or fall behind)."""
    lead, added = poverty_lead(m, seat), run_poverty(m, seat)
    return max(float(added), float(prestige_lost(lead + added) - prestige_lost(lead)))


def _action(m: LondonMatch, seat: int, legal: list[Action], kinds: dict[str, Action], plan: Plan) -> Action:
    """Develop down to a small hand, run a city whose run pays for its poverty, buy the best borough the cash
    pays for, else draw three (or run what there is)."""
    ready = len(_fresh(m, seat)) >= 2 and run_gain(m, seat, plan) >= plan.run_ratio * run_cost(m, seat)
    wanted = "develop" in kinds and bool(_wanted_plays(m, seat, plan))
    if ready and (len(m.hands[seat]) <= plan.run_hand or not wanted):
        return kinds["run"]
    if wanted:
        return kinds["develop"]
    reach = _land_reach(m, seat, plan)
    lands = [a for a in legal if a["type"] == "buyLand" and land.price(m, seat, a["borough"]) <= reach
             and borough_worth(m, seat, a["borough"]) >= plan.land_worth]
    if lands:
        return max(lands, key=lambda a: (borough_worth(m, seat, a["borough"]), a["borough"]))
    hand = len(m.hands[seat])
    if hand < plan.draw_hand or hand >= m.hand_limit(seat) or not _fresh(m, seat):
        return kinds["drawThree"]  # (a full hand discards the three again: no more poverty)
    return kinds["run"]


LEVEL = BotLevel("deliberate", "Bench only: a good player's plan without look-ahead (borrow early, build, run every "
                 "few turns, buy land, repay late).", choose)
