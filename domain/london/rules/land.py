"""Action: buy land ("Купівля землі"): one of the three face-up boroughs, its immediate gain, a new one shown."""

from __future__ import annotations

from firebreak.domain.contract import Action, Event
from firebreak.domain.london.rules.effects import apply_gain
from firebreak.domain.london.rules.flow import begin_draws, end_turn
from firebreak.domain.london.rules.loans import affordable, begin_payment
from firebreak.domain.london.state import State


def price(s: State, seat: int, borough_id: str) -> int:
    """What the borough costs the seat now (ongoing land discounts taken off)."""
    return max(0, s.borough(borough_id).cost - s.ongoing(seat, "landDiscount"))


def land_actions(s: State, seat: int) -> list[Action]:
    """Buying any face-up borough the seat can pay for (with loans if need be)."""
    return [{"type": "buyLand", "borough": b} for b in s.borough_display if affordable(s, seat, price(s, seat, b))]


def choose(s: State, seat: int, borough_id: str, events: list[Event]) -> None:
    """The borough is chosen: pay for it (L8: a free one is bought at once)."""
    amount = price(s, seat, borough_id)
    pending = {"for": "land", "borough": borough_id, "amount": amount}
    if amount:
        begin_payment(s, pending)
    else:
        s.pending = pending
        commit(s, seat, events)


def commit(s: State, seat: int, events: list[Event]) -> None:
    """Take the paid borough on top of the seat's others, show the next one, apply its immediate gain."""
    assert s.pending is not None
    borough_id, paid = s.pending["borough"], s.pending["amount"]
    s.pending = None
    i = s.borough_display.index(borough_id)
    if s.borough_deck:
        s.borough_display[i] = s.borough_deck.pop()
    else:
        s.borough_display.pop(i)
    s.boroughs[seat].append(borough_id)
    events.append({"type": "landBought", "seat": seat, "borough": borough_id, "paid": paid,
                   "display": list(s.borough_display)})
    draws = apply_gain(s, seat, s.borough(borough_id).immediate, borough_id, events, land=True)
    if draws:
        begin_draws(s, draws, "end", events)
    else:
        end_turn(s, events)
