"""Action: develop your city ("Розвиток вашого міста"), staged: the card, the discard, where it goes, the payment."""

from __future__ import annotations

from collections import Counter
from typing import Any

from firebreak.domain.contract import Action, Event
from firebreak.domain.london.data import Card
from firebreak.domain.london.rules.drawing import discard_to_board, leave_hand
from firebreak.domain.london.rules.effects import apply_gain
from firebreak.domain.london.rules.flow import begin_draws
from firebreak.domain.london.rules.loans import affordable, begin_payment, loan_actions
from firebreak.domain.london.state import Phase, State


def cost_of(s: State, seat: int, card_id: str) -> int:
    """The money a card costs the seat to play now (ongoing discounts taken off)."""
    return _discounted(s.card(card_id).cost, s.ongoing(seat, "cardDiscount"))


def _discounted(cost: int, discount: int) -> int:
    return max(0, cost - discount)


def discards_for(s: State, seat: int, card_id: str) -> list[str]:
    """The cards the seat may discard to play this one: the same colour, not beggars (L6: unless a Workhouse-like
    ongoing effect lets beggars stand in for any colour)."""
    beggars = s.ongoing(seat, "beggarsAnyColour") > 0
    colour = s.card(card_id).colour
    return [c for c, card in _hand(s, seat)
            if c != card_id and (card.colour == colour or (beggars and card.kind == "beggar"))]


def playable(s: State, seat: int) -> list[str]:
    """The cards of the seat's hand it can play now (an action card needs no discard; beggars never)."""
    discount = s.ongoing(seat, "cardDiscount")  # cost_of's, looked up once for the whole hand
    beggars = s.ongoing(seat, "beggarsAnyColour") > 0  # discards_for's, likewise
    hand = _hand(s, seat)
    colours = Counter(card.colour for _, card in hand)
    stand_ins = beggars and any(card.kind == "beggar" for _, card in hand)  # a beggar is never the card played
    out = []
    for c, card in hand:
        if card.kind == "beggar" or not affordable(s, seat, _discounted(card.cost, discount)):
            continue
        if card.kind == "action" or colours[card.colour] > 1 or stand_ins:  # discards_for(c) is not empty
            out.append(c)
    return out


def _hand(s: State, seat: int) -> list[tuple[str, Card]]:
    return [(c, s.card(c)) for c in s.hands[seat]]


def open_stacks(s: State, seat: int) -> list[int]:
    """The stacks a card may be put on: any not played on this turn."""
    return [i for i in range(len(s.stacks[seat])) if i not in s.played]


def develop_actions(s: State, seat: int) -> list[Action]:
    """Play a card, take a loan, or stop (cancel before the first card: L7)."""
    out: list[Action] = [{"type": "play", "card": c} for c in playable(s, seat)]
    out.extend(loan_actions(s, seat))
    out.append({"type": "endDevelop"} if s.played_any else {"type": "cancel"})
    return out


def discard_actions(s: State, seat: int) -> list[Action]:
    """The card to discard for the chosen one, or cancel."""
    assert s.pending is not None
    out: list[Action] = [{"type": "discard", "card": c} for c in discards_for(s, seat, s.pending["card"])]
    return [*out, {"type": "cancel"}]


def place_actions(s: State, seat: int) -> list[Action]:
    """A new building stack or on top of an older stack, or cancel."""
    out: list[Action] = [{"type": "newStack"}]
    out.extend({"type": "placeOn", "stack": i} for i in open_stacks(s, seat))
    return [*out, {"type": "cancel"}]


def choose_card(s: State, seat: int, card_id: str, events: list[Event]) -> None:
    """The card to play is chosen: an action card goes to payment, a city card to its discard."""
    s.pending = {"for": "play", "card": card_id}
    if s.card(card_id).kind == "action":
        _to_payment(s, seat, events)
    else:
        s.phase = Phase.DISCARD_FOR


def choose_discard(s: State, seat: int, card_id: str, events: list[Event]) -> None:
    """The discard is chosen: ask where the card goes (a new stack when there is no older one)."""
    assert s.pending is not None
    s.pending["discard"] = card_id
    if open_stacks(s, seat):
        s.phase = Phase.PLACE
    else:
        s.pending["stack"] = None
        _to_payment(s, seat, events)


def choose_place(s: State, seat: int, stack: int | None, events: list[Event]) -> None:
    """Where the card goes is chosen (None: a new stack): pay next."""
    assert s.pending is not None
    s.pending["stack"] = stack
    _to_payment(s, seat, events)


def _to_payment(s: State, seat: int, events: list[Event]) -> None:
    assert s.pending is not None
    amount = cost_of(s, seat, s.pending["card"])
    s.pending["amount"] = amount
    if amount:
        begin_payment(s, s.pending)
    else:
        commit(s, seat, events)


def commit(s: State, seat: int, events: list[Event]) -> None:
    """Play the staged card (its cost already paid): discard, place (or resolve an action card), go on."""
    pending: dict[str, Any] = s.pending or {}
    card_id = pending["card"]
    s.pending = None
    s.played_any = True
    s.phase = Phase.DEVELOP
    leave_hand(s, seat, card_id)
    card = s.card(card_id)
    if card.action is not None:
        s.discard.append(card_id)
        events.append({"type": "actionPlayed", "seat": seat, "card": card_id, "paid": pending["amount"]})
        draws = apply_gain(s, seat, card.action, card_id, events)
        if draws:
            begin_draws(s, draws, Phase.DEVELOP.value, events)
        return
    leave_hand(s, seat, pending["discard"])
    stack = pending["stack"]
    if stack is None:
        s.stacks[seat].append([card_id])
        stack = len(s.stacks[seat]) - 1
    else:
        s.stacks[seat][stack].append(card_id)
    s.played.append(stack)
    events.append({"type": "cardPlayed", "seat": seat, "card": card_id, "stack": stack,
                   "covered": len(s.stacks[seat][stack]) > 1, "paid": pending["amount"]})
    discard_to_board(s, seat, pending["discard"], events)
