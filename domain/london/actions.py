"""London's action table: every action type once, in the order of the published action schema and of the
action space (ids are indices: a stable public contract), with its fields, its instances over the catalogue
(cards and boroughs in data order, stacks 0..Catalogue.stack_cap-1) and what applying it does.

Which actions are legal now is listed by the step of the turn (rules/turn.py); applying a listed one is a lookup
in this table.
"""

from __future__ import annotations

from firebreak.domain.actions import ActionSpec, ActionTable, Fields
from firebreak.domain.london.data import Catalogue
from firebreak.domain.london.rules import develop, running, turn
from firebreak.domain.london.rules.flow import end_turn
from firebreak.domain.london.rules.loans import repay_loan, take_loan
from firebreak.domain.london.schemas import BOROUGH, CARD, published
from firebreak.domain.london.state import State
from firebreak.domain.schemas import COUNT, Schema

Spec = ActionSpec[State, Catalogue]
ON_CARD = {"card": CARD}


def per_card(cat: Catalogue) -> list[Fields]:
    """One instance per card of the catalogue."""
    return [{"card": c} for c in cat.cards]


def per_borough(cat: Catalogue) -> list[Fields]:
    """One instance per borough of the catalogue."""
    return [{"borough": b} for b in cat.boroughs]


def per_stack(cat: Catalogue) -> list[Fields]:
    """One instance per stack a seat can have."""
    return [{"stack": i} for i in range(cat.stack_cap)]


ACTIONS = ActionTable[State, Catalogue]([
    Spec("repayLoan", "Start of the turn: repay one loan with £15.", lambda s, seat, a, ev: repay_loan(s, seat, ev)),
    Spec("takeLoan", "Take a loan: £10 and a loan token.", lambda s, seat, a, ev: take_loan(s, seat, ev)),
    Spec("drawDeck", "Draw the deck's top card.", turn.draw_one),
    Spec("drawBoard", "Draw this card from the development board.", turn.draw_one, ON_CARD, per_card),
    Spec("skipDraw", "Nothing is left to draw: go on.", turn.skip_draw),
    Spec("develop", "Action: develop your city.", turn.choose_action),
    Spec("buyLand", "Action: buy this face-up borough.", turn.choose_action, {"borough": BOROUGH}, per_borough),
    Spec("run", "Action: run your city.", turn.choose_action),
    Spec("drawThree", "Action: draw three more cards.", turn.choose_action),
    Spec("play", "Develop: play this card from your hand.",
         lambda s, seat, a, ev: develop.choose_card(s, seat, a["card"], ev), ON_CARD, per_card),
    Spec("discard", "Discard this card (to play a card, to pay an activation, or down to the hand limit).",
         turn.discard, ON_CARD, per_card),
    Spec("newStack", "Develop: start a new building stack with the card.",
         lambda s, seat, a, ev: develop.choose_place(s, seat, None, ev)),
    Spec("placeOn", "Develop: put the card on top of this stack.",
         lambda s, seat, a, ev: develop.choose_place(s, seat, a["stack"], ev), {"stack": COUNT}, per_stack),
    Spec("pay", "Pay the staged cost.", turn.pay),
    Spec("cancel", "Drop the staged choice (nothing of it happens).", turn.cancel),
    Spec("endDevelop", "Develop: stop playing cards.", lambda s, seat, a, ev: end_turn(s, ev)),
    Spec("activate", "Run: activate this face-up card.",
         lambda s, seat, a, ev: running.choose(s, seat, a["card"], ev), ON_CARD, per_card),
    Spec("runBorough", "Run: apply your top borough's run effect now.",
         lambda s, seat, a, ev: running.run_borough(s, seat, ev)),
    Spec("flip", "Run: this card turns face down (the activated one, or a Hospital in its place).",
         lambda s, seat, a, ev: running.choose_flip(s, seat, a["card"], ev), ON_CARD, per_card),
    Spec("endRun", "Run: finish (the borough's effect if still owed, then poverty).",
         lambda s, seat, a, ev: running.end_run(s, seat, ev)),
])


def action_schema() -> Schema:
    """One action as legalActions lists it and act takes it (from the table)."""
    return published("action", "One London action (send it back as listed in legalActions).",
                     ACTIONS.schema(suffix="Action"))
