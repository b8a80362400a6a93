"""The greedy bot: a sensible economy with one cheap look-ahead from the seat's own view.

For each legal action it plays the action in a few copies of the match resampled from the seat's view
(LondonMatch.resample), finishes the turn with a plain rule-of-thumb policy, and rates the seat's position when
the turn has passed; it takes the action with the best mean rating. It does not search, so it ignores the budget.

The economy it keeps to (measured with bench/bots.py --title london): every card in hand and every stack is a
poverty each time the city runs, and poverty is compared at the end on a steep table, so it runs the city only
when the run makes money (RUN_INCOME) or the hand is small (RUN_HAND); it borrows only for land, one loan at a
time, with turns left, and when one run of its city as it stands would repay it; it repays at the start of a turn.
"""

from __future__ import annotations

import random

from firebreak.domain.contract import Action, BotLevel, Budget, Event, Match
from firebreak.domain.london.bots.rating import card_worth, gain_worth, income, rate, turns_left
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.rules import develop, land, running
from firebreak.domain.london.state import LOAN, LOAN_REPAY, Phase

MAX_STEPS = 80
SAMPLES = 3  # resampled copies each action is tried in (what the seat cannot see differs between them)
BOARD_PICK = 3.0
RUN_INCOME = 4.0  # the playout policy runs a city that makes at least this much...
RUN_HAND = 3      # ...or whose hand is this small (each card in hand is a poverty at the run)
LOAN_TURNS = 3.0  # a loan for land only with at least this many turns left to repay it


def choose(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    """Pick the legal action whose turn, finished by the rule-of-thumb policy, rates best for the seat."""
    legal = match.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    assert isinstance(match, LondonMatch)
    bases = [match.resample(seat, rng) for _ in range(SAMPLES)]
    candidates = worth_trying(bases[0], seat, legal)
    if len(candidates) == 1:
        return candidates[0]
    best: tuple[float, int] | None = None
    choice = candidates[0]
    for i, action in enumerate(candidates):
        total = 0.0
        for base in bases:
            copy = base.clone()
            events = copy.apply(seat, action)
            events += finish_turn(copy, seat)
            total += rate(copy, seat, any(e["type"] == "povertyGained" for e in events))
        score = (total / SAMPLES, -i)
        if best is None or score > best:
            best, choice = score, action
    return choice


def worth_trying(m: LondonMatch, seat: int, legal: list[Action]) -> list[Action]:
    """The actions worth trying (at least one): no voluntary loans, no cancelling, no card or land it cannot
    pay for without a loan (a borough may take one loan), so that the bot never goes round in circles (develop,
    cancel, develop...: L7 lets a seat go back). Reads only what the seat sees. The search level's root moves
    too."""
    money = m.money[seat]
    if m.phase is Phase.PAY:
        assert m.pending is not None
        kinds = {a["type"]: a for a in legal}
        if "pay" in kinds:
            return [kinds["pay"]]
        return [kinds["takeLoan"]] if m.pending["for"] == "land" and "takeLoan" in kinds else [kinds["cancel"]]
    out = []
    for a in legal:
        kind = a["type"]
        if kind in ("takeLoan", "cancel"):
            continue
        if kind == "drawBoard" and m.deck and card_worth(m.card(a["card"])) < BOARD_PICK:
            continue  # the deck keeps the game moving towards its end; only a good card is worth taking
        if kind == "run" and not _run_pays(m, seat):
            continue  # every card in hand and every stack is a poverty at the run: only a paying run is worth it
        if kind == "develop" and not any(develop.cost_of(m, seat, c) <= money for c in develop.playable(m, seat)):
            continue
        if kind == "play" and develop.cost_of(m, seat, a["card"]) > money:
            continue
        price = land.price(m, seat, a["borough"]) if kind == "buyLand" else 0
        if kind == "buyLand" and price > money and not (price <= money + LOAN and _loan_room(m, seat, price)):
            continue
        if kind == "activate" and _activation_money(m, a["card"]) > money:
            continue
        out.append(a)
    return out or [a for a in legal if a["type"] in ("endDevelop", "cancel")][:1] or legal[:1]


def _loan_room(m: LondonMatch, seat: int, price: int) -> bool:
    """Whether the seat may take a loan to buy land at this price: only one loan out at a time, only with turns
    left to repay it, and only when what is left after buying plus one run of its city as it stands makes the £15
    to repay it (a loan never repaid costs 7 prestige at the end)."""
    if m.loans[seat] or m.turns_left is not None or turns_left(m) < LOAN_TURNS:
        return False
    return m.money[seat] + LOAN - price + income(m, seat) >= LOAN_REPAY


def _run_pays(m: LondonMatch, seat: int) -> bool:
    """Whether running the city is worth its poverty: something to activate (or a paying borough), and either a
    good income or a small hand."""
    if not running.runnable(m, seat) and not _borough_pays(m, seat):
        return False
    return income(m, seat) >= RUN_INCOME or len(m.hands[seat]) <= RUN_HAND


def _borough_pays(m: LondonMatch, seat: int) -> bool:
    top = m.top_borough(seat)
    return top is not None and top.run is not None and gain_worth(top.run) > 0


def _activation_money(m: LondonMatch, card_id: str) -> int:
    act = m.card(card_id).activation
    return act.money if act is not None else 0


def finish_turn(m: LondonMatch, seat: int) -> list[Event]:
    """Play the seat's turn on to its end with the rule-of-thumb policy; return the events."""
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if m.is_over() or m.turn != seat:
            break
        events += m.apply(seat, policy(m, seat))
    return events


def policy(m: LondonMatch, seat: int) -> Action:
    """A quick rule-of-thumb action for the seat (it owes the decision)."""
    legal = m.legal_actions(seat)
    kinds = {a["type"]: a for a in legal}
    phase = m.phase
    if phase is Phase.START:
        if "repayLoan" in kinds:
            return kinds["repayLoan"]
        return kinds.get("drawDeck") or kinds.get("skipDraw") or _best_card(m, legal)
    if phase is Phase.ACTION:
        return _action(m, seat, legal, kinds)
    if phase is Phase.DRAW:
        return kinds.get("drawDeck") or _best_card(m, legal)
    if phase is Phase.DEVELOP:
        plays = [a for a in legal if a["type"] == "play" and develop.cost_of(m, seat, a["card"]) <= m.money[seat]]
        if plays:
            return max(plays, key=lambda a: card_worth(m.card(a["card"])))
        return kinds.get("endDevelop") or kinds["cancel"]
    if phase in (Phase.DISCARD_FOR, Phase.ACTIVATION_DISCARD, Phase.HAND_LIMIT):
        options = [a for a in legal if a["type"] == "discard"]
        return min(options, key=lambda a: card_worth(m.card(a["card"]))) if options else kinds["cancel"]
    if phase is Phase.PLACE:
        down = [a for a in legal if a["type"] == "placeOn"
                and m.stacks[seat][a["stack"]][-1] in m.face_down[seat]]
        return down[0] if down else kinds["newStack"]
    if phase is Phase.PAY:
        assert m.pending is not None
        if "pay" in kinds:
            return kinds["pay"]
        if m.pending["for"] == "land" and "takeLoan" in kinds:
            return kinds["takeLoan"]
        return kinds["cancel"]
    if phase is Phase.RUN:
        acts = [a for a in legal if a["type"] == "activate" and _worth_running(m, seat, a["card"])]
        if acts:
            return acts[0]
        return kinds.get("runBorough") or kinds["endRun"]
    return min(legal, key=lambda a: card_worth(m.card(a["card"])))  # FLIP: keep the better card face up


def _action(m: LondonMatch, seat: int, legal: list[Action], kinds: dict[str, Action]) -> Action:
    """The turn's action by rules of thumb: develop when a card can be paid for in cash, else buy the best land
    the cash pays for, else run a city that makes money or cuts poverty, else draw three."""
    money = m.money[seat]
    if "develop" in kinds and any(develop.cost_of(m, seat, c) <= money and card_worth(m.card(c)) > 0
                                  for c in develop.playable(m, seat)):
        return kinds["develop"]
    lands = [a for a in legal if a["type"] == "buyLand" and land.price(m, seat, a["borough"]) <= money]
    if lands:
        return max(lands, key=lambda a: m.borough(a["borough"]).cost)
    if _run_pays(m, seat):
        return kinds["run"]
    return kinds["drawThree"]


def _worth_running(m: LondonMatch, seat: int, card_id: str) -> bool:
    act = m.card(card_id).activation
    assert act is not None
    if act.money > m.money[seat]:
        return False
    return not act.card or any(m.card(c).kind == "beggar" for c in m.hands[seat]) or act.gain.money >= 5


def _best_card(m: LondonMatch, legal: list[Action]) -> Action:
    cards = [a for a in legal if a["type"] == "drawBoard"]
    return max(cards, key=lambda a: card_worth(m.card(a["card"])))


LEVEL = BotLevel("greedy", "Plays a sensible economy: tries each action, finishes the turn by rules of thumb "
                 "in copies resampled from its own view, and keeps the best-rated outcome.", choose)
