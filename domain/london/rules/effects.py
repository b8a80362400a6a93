"""The symbols on the cards ("Символи на картах"): gaining money, prestige, cards, and poverty up or down."""

from __future__ import annotations

from firebreak.domain.contract import Event
from firebreak.domain.london.data import Gain
from firebreak.domain.london.state import State


def reduce_poverty(s: State, seat: int, amount: int) -> int:
    """Return up to `amount` poverty tokens (symbols beyond the seat's poverty are wasted); return how many."""
    returned = min(amount, s.poverty[seat])
    s.poverty[seat] -= returned
    return returned


def apply_gain(s: State, seat: int, gain: Gain, source: str, events: list[Event], *, land: bool = False) -> int:
    """Apply a gain's money, prestige and poverty (its `per` counted now); return the cards it lets the seat draw.

    land: the prestige is the immediate prestige of buying a borough (kept apart for the score breakdown).
    """
    g = s.scaled(seat, gain)
    s.money[seat] += g.money
    if land:
        s.prestige_land[seat] += g.prestige
    else:
        s.prestige_play[seat] += g.prestige
    returned = reduce_poverty(s, seat, g.poverty_down)
    s.poverty[seat] += g.poverty_up
    if g.money or g.prestige or returned or g.poverty_up or g.draw:
        events.append({"type": "gained", "seat": seat, "source": source, "money": g.money, "prestige": g.prestige,
                       "povertyReturned": returned, "povertyGained": g.poverty_up, "draws": g.draw})
    return g.draw
