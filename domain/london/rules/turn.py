"""The turn ("Хід гри"): draw one card, then one of develop, buy land, run the city or draw three; every staged
decision of the turn is listed here (by the step of the turn), and the action types that span the parts of the
rulebook are applied here (actions.py is the table of every type); the parts of the rulebook do the work."""

from __future__ import annotations

from firebreak.domain.contract import Action, Event
from firebreak.domain.london.rules import develop, land, running
from firebreak.domain.london.rules.drawing import discard_to_board, draw, draw_actions, leave_hand
from firebreak.domain.london.rules.flow import begin_draws, continue_draws, finish_turn
from firebreak.domain.london.rules.loans import loan_actions, pay_actions, repay_actions
from firebreak.domain.london.state import DRAW_THREE, Phase, State

BACK_TO = {"play": Phase.DEVELOP, "land": Phase.ACTION, "activate": Phase.RUN}  # where cancel returns


def turn_actions(s: State) -> list[Action]:
    """Every legal action of the seat whose decision is pending."""
    seat, phase = s.turn, s.phase
    if phase is Phase.START:
        draws = draw_actions(s) or [{"type": "skipDraw"}]
        return [*repay_actions(s, seat), *loan_actions(s, seat), *draws]
    if phase is Phase.ACTION:
        out: list[Action] = [{"type": "develop"}] if develop.playable(s, seat) else []
        out.extend(land.land_actions(s, seat))
        return [*out, {"type": "run"}, {"type": "drawThree"}, *loan_actions(s, seat)]
    if phase is Phase.DRAW:
        return draw_actions(s)
    if phase is Phase.DEVELOP:
        return develop.develop_actions(s, seat)
    if phase is Phase.DISCARD_FOR:
        return develop.discard_actions(s, seat)
    if phase is Phase.PLACE:
        return develop.place_actions(s, seat)
    if phase is Phase.PAY:
        return pay_actions(s, seat)
    if phase is Phase.RUN:
        return running.run_actions(s, seat)
    if phase is Phase.ACTIVATION_DISCARD:
        return running.activation_discard_actions(s, seat)
    if phase is Phase.FLIP:
        return running.flip_actions(s, seat)
    if phase is Phase.HAND_LIMIT:
        return [{"type": "discard", "card": c} for c in s.hands[seat]]
    return []


def cancel(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Drop the staged choice: back to where it was chosen."""
    s.phase = Phase.ACTION if s.pending is None else BACK_TO[s.pending["for"]]
    s.pending = None


def draw_one(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Draw a card (drawDeck, drawBoard): the turn's first one (then an action is chosen), or one owed."""
    draw(s, seat, action, events)
    if s.phase is Phase.START:
        s.phase = Phase.ACTION
        return
    s.draws_left -= 1
    continue_draws(s, events)


def skip_draw(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Nothing is left to draw at the start of the turn: choose an action."""
    s.phase = Phase.ACTION


def choose_action(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """One of the four actions is chosen (develop, buyLand, run, drawThree)."""
    kind = action["type"]
    events.append({"type": "actionChosen", "seat": seat, "action": kind})
    if kind == "develop":
        s.played_any = False
        s.phase = Phase.DEVELOP
    elif kind == "buyLand":
        land.choose(s, seat, action["borough"], events)
    elif kind == "run":
        s.borough_run = False
        s.phase = Phase.RUN
    else:
        begin_draws(s, DRAW_THREE, "end", events)


def discard(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Discard a card: the one the chosen card costs, the one an activation costs, or one over the hand limit."""
    card = action["card"]
    if s.phase is Phase.DISCARD_FOR:
        develop.choose_discard(s, seat, card, events)
    elif s.phase is Phase.ACTIVATION_DISCARD:
        running.pay_with_card(s, seat, card, events)
    else:
        leave_hand(s, seat, card)
        discard_to_board(s, seat, card, events)
        if len(s.hands[seat]) <= s.hand_limit(seat):
            finish_turn(s, events)


def pay(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Pay the staged cost, then carry out what it was for."""
    assert s.pending is not None
    s.money[seat] -= s.pending["amount"]
    kind = s.pending["for"]
    if kind == "play":
        develop.commit(s, seat, events)
    elif kind == "land":
        land.commit(s, seat, events)
    else:
        running.resolve(s, seat, events)
