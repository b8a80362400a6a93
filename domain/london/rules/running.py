"""Action: run your city ("Керування своїм містом"): activate face-up cards one by one, the top borough's run
effect, then poverty."""

from __future__ import annotations

from firebreak.domain.contract import Action, Event
from firebreak.domain.london.rules.drawing import discard_to_board, leave_hand
from firebreak.domain.london.rules.effects import apply_gain
from firebreak.domain.london.rules.flow import begin_draws, end_turn
from firebreak.domain.london.rules.loans import affordable, begin_payment, loan_actions
from firebreak.domain.london.rules.poverty import running_poverty
from firebreak.domain.london.state import Phase, State

BOROUGH = "borough"


def runnable(s: State, seat: int) -> list[str]:
    """Face-up cards with an activation not used this turn whose cost the seat can meet."""
    out = []
    for c in s.face_up_tops(seat):
        act = s.card(c).activation
        if act is None or c in s.activated:
            continue
        if act.card and len(s.hands[seat]) == 0:
            continue
        if affordable(s, seat, act.money):
            out.append(c)
    return out


def run_actions(s: State, seat: int) -> list[Action]:
    """Activate a card, apply the top borough's run effect, take a loan, or finish (the borough's effect is
    applied then if it was not yet)."""
    out: list[Action] = [{"type": "activate", "card": c} for c in runnable(s, seat)]
    top = s.top_borough(seat)
    if top is not None and top.run is not None and not s.borough_run:
        out.append({"type": "runBorough"})
    return [*out, *loan_actions(s, seat), {"type": "endRun"}]


def activation_discard_actions(s: State, seat: int) -> list[Action]:
    """Any card of the hand (beggars too) to pay an activation, or cancel."""
    return [*({"type": "discard", "card": c} for c in s.hands[seat]), {"type": "cancel"}]


def flip_actions(s: State, seat: int) -> list[Action]:
    """The activated card flips, or a face-up card with the flip-instead ongoing effect flips in its place."""
    assert s.pending is not None
    card_id = s.pending["card"]
    return [{"type": "flip", "card": c} for c in [card_id, *_stand_ins(s, seat, card_id)]]


def _stand_ins(s: State, seat: int, card_id: str) -> list[str]:
    out = []
    for c in s.face_up_tops(seat):
        effect = s.card(c).ongoing
        if c != card_id and effect is not None and effect.kind == "flipInstead":
            out.append(c)
    return out


def choose(s: State, seat: int, card_id: str, events: list[Event]) -> None:
    """A card to activate is chosen: pay its cost (money or a card), then resolve it."""
    act = s.card(card_id).activation
    assert act is not None
    if act.money:
        begin_payment(s, {"for": "activate", "card": card_id, "amount": act.money})
    elif act.card:
        s.pending = {"for": "activate", "card": card_id, "amount": 0}
        s.phase = Phase.ACTIVATION_DISCARD
    else:
        s.pending = {"for": "activate", "card": card_id, "amount": 0}
        resolve(s, seat, events)


def pay_with_card(s: State, seat: int, card_id: str, events: list[Event]) -> None:
    """The activation's extra card is chosen: discard it to the board, then resolve."""
    assert s.pending is not None
    leave_hand(s, seat, card_id)
    discard_to_board(s, seat, card_id, events)
    s.pending["discarded"] = card_id
    resolve(s, seat, events)


def resolve(s: State, seat: int, events: list[Event]) -> None:
    """Apply the paid activation in full, then flip (or ask which card flips), then the draws it gives."""
    assert s.pending is not None
    card_id = s.pending["card"]
    act = s.card(card_id).activation
    assert act is not None
    s.activated.append(card_id)
    events.append({"type": "activated", "seat": seat, "card": card_id, "paid": s.pending["amount"],
                   "discarded": s.pending.get("discarded")})
    draws = apply_gain(s, seat, act.gain, card_id, events)
    if act.flip and _stand_ins(s, seat, card_id):
        s.pending = {"for": "flip", "card": card_id, "draws": draws}
        s.phase = Phase.FLIP
        return
    if act.flip:
        flip(s, seat, card_id, events)
    _after(s, draws, events)


def choose_flip(s: State, seat: int, card_id: str, events: list[Event]) -> None:
    """The card to flip is chosen."""
    assert s.pending is not None
    draws = s.pending["draws"]
    flip(s, seat, card_id, events)
    _after(s, draws, events)


def flip(s: State, seat: int, card_id: str, events: list[Event]) -> None:
    """Turn a card face down: it no longer runs nor gives its ongoing effect."""
    s.face_down[seat].append(card_id)
    events.append({"type": "flipped", "seat": seat, "card": card_id})


def _after(s: State, draws: int, events: list[Event]) -> None:
    s.pending = None
    s.phase = Phase.RUN
    if draws:
        begin_draws(s, draws, Phase.RUN.value, events)


def run_borough(s: State, seat: int, events: list[Event]) -> None:
    """Apply the top borough's run effect (once per run, compulsory)."""
    top = s.top_borough(seat)
    assert top is not None and top.run is not None
    s.borough_run = True
    s.activated.append(BOROUGH)
    apply_gain(s, seat, top.run, top.id, events)


def end_run(s: State, seat: int, events: list[Event]) -> None:
    """Finish running: the top borough's run effect if still owed, then poverty, then the turn ends."""
    top = s.top_borough(seat)
    if top is not None and top.run is not None and not s.borough_run:
        run_borough(s, seat, events)
    running_poverty(s, seat, events)
    end_turn(s, events)
