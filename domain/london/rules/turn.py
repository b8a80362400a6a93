"""The turn ("Хід гри"): draw one card, then one of develop, buy land, run the city or draw three; every staged
decision of the turn is listed and applied here, the parts of the rulebook do the work."""

from __future__ import annotations

from domain.contract import Action, Event
from domain.london.rules import develop, land, running
from domain.london.rules.drawing import discard_to_board, draw, draw_actions, leave_hand
from domain.london.rules.flow import begin_draws, continue_draws, end_turn, finish_turn
from domain.london.rules.loans import loan_actions, pay_actions, repay_actions, repay_loan, take_loan
from domain.london.state import DRAW_THREE, Phase, State

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


def apply_turn(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Apply a listed action of the seat."""
    kind, phase = action["type"], s.phase
    if kind == "takeLoan":
        take_loan(s, seat, events)
    elif kind == "cancel":
        s.phase = Phase.ACTION if s.pending is None else BACK_TO[s.pending["for"]]
        s.pending = None
    elif phase is Phase.START:
        _start(s, seat, action, events)
    elif phase is Phase.ACTION:
        _choose_action(s, seat, action, events)
    elif phase is Phase.DRAW:
        draw(s, seat, action, events)
        s.draws_left -= 1
        continue_draws(s, events)
    elif phase is Phase.HAND_LIMIT:
        leave_hand(s, seat, action["card"])
        discard_to_board(s, seat, action["card"], events)
        if len(s.hands[seat]) <= s.hand_limit(seat):
            finish_turn(s, events)
    elif phase is Phase.PAY:
        _pay(s, seat, events)
    else:
        _staged(s, seat, action, events)


def _start(s: State, seat: int, action: Action, events: list[Event]) -> None:
    if action["type"] == "repayLoan":
        repay_loan(s, seat, events)
        return
    if action["type"] != "skipDraw":
        draw(s, seat, action, events)
    s.phase = Phase.ACTION


def _choose_action(s: State, seat: int, action: Action, events: list[Event]) -> None:
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


def _pay(s: State, seat: int, events: list[Event]) -> None:
    assert s.pending is not None
    s.money[seat] -= s.pending["amount"]
    kind = s.pending["for"]
    if kind == "play":
        develop.commit(s, seat, events)
    elif kind == "land":
        land.commit(s, seat, events)
    else:
        running.resolve(s, seat, events)


def _staged(s: State, seat: int, action: Action, events: list[Event]) -> None:
    kind, phase = action["type"], s.phase
    if phase is Phase.DEVELOP:
        if kind == "play":
            develop.choose_card(s, seat, action["card"], events)
        else:
            end_turn(s, events)
    elif phase is Phase.DISCARD_FOR:
        develop.choose_discard(s, seat, action["card"], events)
    elif phase is Phase.PLACE:
        develop.choose_place(s, seat, action.get("stack"), events)
    elif phase is Phase.RUN:
        if kind == "activate":
            running.choose(s, seat, action["card"], events)
        elif kind == "runBorough":
            running.run_borough(s, seat, events)
        else:
            running.end_run(s, seat, events)
    elif phase is Phase.ACTIVATION_DISCARD:
        running.pay_with_card(s, seat, action["card"], events)
    else:
        running.choose_flip(s, seat, action["card"], events)
