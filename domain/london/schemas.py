"""The published JSON Schemas of London's view, actions and events (domain/schemas.py for the shared parts).

Card and borough ids are enumerated from the shipped data, so a client generated from these schemas knows every
name the engine can send.
"""

from __future__ import annotations

from typing import Any

from domain.london.data import DECKS, shipped_catalogue
from domain.london.state import Phase
from domain.london.views import PAY_STEP, PUBLIC_STEP
from domain.schemas import COUNT, SEAT, Schema, document, event_envelope, nullable, service_events, strict, tagged

ID = "london"
CARD: Schema = {"$ref": "#/$defs/card"}
BOROUGH: Schema = {"$ref": "#/$defs/borough"}
CARDS: Schema = {"type": "array", "items": CARD}
MONEY: Schema = {"type": "integer", "description": "Pounds (may go below 0 only in a score)."}


def _defs() -> Schema:
    cat = shipped_catalogue()
    return {
        "card": {"enum": list(cat.cards), "description": "A city card id (Title.board: cards)."},
        "borough": {"enum": list(cat.boroughs), "description": "A borough id (Title.board: boroughs)."},
    }


def _published(part: str, description: str, schema: Schema) -> Schema:
    published = document(ID, part, description, schema)
    return {**published, "$defs": {**published.get("$defs", {}), **_defs()}}


def action_schema() -> Schema:
    """One action as legalActions lists it and act takes it."""
    card = {"card": CARD}
    return _published("action", "One London action (send it back as listed in legalActions).", tagged({
        "repayLoan": ("Start of the turn: repay one loan with £15.", {}),
        "takeLoan": ("Take a loan: £10 and a loan token.", {}),
        "drawDeck": ("Draw the deck's top card.", {}),
        "drawBoard": ("Draw this card from the development board.", card),
        "skipDraw": ("Nothing is left to draw: go on.", {}),
        "develop": ("Action: develop your city.", {}),
        "buyLand": ("Action: buy this face-up borough.", {"borough": BOROUGH}),
        "run": ("Action: run your city.", {}),
        "drawThree": ("Action: draw three more cards.", {}),
        "play": ("Develop: play this card from your hand.", card),
        "discard": ("Discard this card (to play a card, to pay an activation, or down to the hand limit).", card),
        "newStack": ("Develop: start a new building stack with the card.", {}),
        "placeOn": ("Develop: put the card on top of this stack.", {"stack": COUNT}),
        "pay": ("Pay the staged cost.", {}),
        "cancel": ("Drop the staged choice (nothing of it happens).", {}),
        "endDevelop": ("Develop: stop playing cards.", {}),
        "activate": ("Run: activate this face-up card.", card),
        "runBorough": ("Run: apply your top borough's run effect now.", {}),
        "flip": ("Run: this card turns face down (the activated one, or a Hospital in its place).", card),
        "endRun": ("Run: finish (the borough's effect if still owed, then poverty).", {}),
    }, suffix="Action"))


def event_schema() -> Schema:
    """One event of a step (act's events, matchEvents)."""
    seat = {"seat": SEAT}
    card = {"card": CARD}
    source = {"anyOf": [CARD, BOROUGH], "description": "The card or borough the gain came from."}
    loan = {**seat, "loans": COUNT, "money": MONEY}
    return _published("event", "One London event.", tagged({
        "setUp": ("The match was set up.", {"seats": COUNT, "start": SEAT, "deck": COUNT,
                                            "boroughs": {"type": "array", "items": BOROUGH}}),
        "handDealt": ("Your starting hand (private).", {**seat, "hand": CARDS}),
        "turnStarted": ("A seat's turn began.", seat),
        "turnEnded": ("A seat's turn ended.", seat),
        "lastTurns": ("The deck ran out: every other seat plays this many last turns.", {"turns": COUNT}),
        "gameOver": ("The match ended.", {}),
        "drew": ("A seat drew a card (from the board: which one; from the deck: private cardDrawn).",
                 {**seat, "from": {"enum": ["deck", "board"]}, "count": COUNT, "deckLeft": COUNT, "card": CARD}),
        "cardDrawn": ("The card you drew from the deck (private).", {**seat, **card}),
        "discarded": ("A card went to the development board.",
                      {**seat, **card, "row": {"enum": ["top", "bottom"]}, "column": COUNT}),
        "boardCleared": ("The board was full: its bottom row left the game, the top row moved down.",
                         {"cards": CARDS}),
        "gained": ("An effect's gains (povertyGained: poverty added).",
                   {**seat, "source": source, "money": COUNT, "prestige": COUNT, "povertyReturned": COUNT,
                    "povertyGained": COUNT, "draws": COUNT}),
        "loanTaken": ("A seat took a loan.", loan),
        "loanRepaid": ("A seat repaid a loan.", loan),
        "actionChosen": ("A seat chose its action.",
                         {**seat, "action": {"enum": ["develop", "buyLand", "run", "drawThree"]}}),
        "actionPlayed": ("An action card was played (it leaves the game).", {**seat, **card, "paid": COUNT}),
        "cardPlayed": ("A card was built.", {**seat, **card, "stack": COUNT, "covered": {"type": "boolean"},
                                             "paid": COUNT}),
        "landBought": ("A borough was bought.", {**seat, "borough": BOROUGH, "paid": COUNT,
                                                 "display": {"type": "array", "items": BOROUGH}}),
        "activated": ("A card was activated.", {**seat, **card, "paid": COUNT, "discarded": nullable(CARD)}),
        "flipped": ("A card turned face down.", {**seat, **card}),
        "povertyGained": ("Running the city ended: poverty for stacks, loans and cards in hand.",
                          {**seat, "stacks": COUNT, "loans": COUNT, "hand": COUNT, "total": COUNT,
                           "poverty": COUNT}),
        **service_events(),
    }, common=event_envelope(), optional={"drew": ("deckLeft", "card")}, suffix="Event"))


def view_schema() -> Schema:
    """What a seat (or a spectator) sees (Match.view)."""
    shown = strict({"card": CARD, "faceUp": {"type": "boolean"}})
    face_down = strict({"hidden": {"const": True}, "faceUp": {"const": False}},
                       description="Another seat's face-down top card.")
    covered = strict({"hidden": {"const": True}, "covered": {"const": True}},
                     description="Another seat's covered card.")
    stack = {"type": "array", "items": {"oneOf": [shown, face_down, covered]}, "description": "Bottom first."}
    player = strict({
        "seat": SEAT, "money": COUNT, "loans": COUNT, "poverty": COUNT, "prestige": COUNT, "handSize": COUNT,
        "knownHand": {**CARDS, "description": "Cards everyone saw the seat take from the board."},
        "boroughs": {"type": "array", "items": BOROUGH, "description": "Bought boroughs, the top one last."},
        "stacks": {"type": "array", "items": stack}, "hand": CARDS,
    }, optional=("hand",), description="A player; once over, also its hand.")
    pending = {"type": "object", "description": "Your staged choice.", "additionalProperties": False,
               "properties": {"for": {"enum": ["play", "land", "activate", "flip"]}, "card": CARD,
                              "discard": CARD, "stack": nullable(COUNT), "amount": COUNT, "borough": BOROUGH,
                              "draws": COUNT, "discarded": CARD}}
    row = {"type": "array", "items": nullable(CARD)}
    steps = sorted({*PUBLIC_STEP.values(), *PAY_STEP.values()})
    score = strict({"seat": SEAT, "total": {"type": "integer"},
                    "parts": {"type": "object", "additionalProperties": {"type": "integer"}}})
    props: dict[str, Any] = {
        "title": {"const": ID}, "seats": COUNT, "version": COUNT,
        "options": strict({"startSeat": nullable(SEAT)}, description="The options in force."),
        "phase": {"enum": steps, "description": "The step of the turn as every seat sees it."},
        "toAct": {"type": "array", "items": SEAT}, "turn": nullable(SEAT), "start": SEAT,
        "turnsLeft": nullable(COUNT), "drawsLeft": COUNT,
        "played": {"type": "array", "items": COUNT, "description": "Stacks built on this turn."},
        "activated": {"type": "array", "items": {"anyOf": [CARD, {"const": "borough"}]},
                      "description": "Face-up cards (and the borough) run this turn."},
        "deck": strict({"count": COUNT, "byDeck": strict({letter: COUNT for letter in DECKS})}),
        "board": strict({"columns": COUNT, "top": row, "bottom": row}),
        "discardPile": CARDS, "boroughDisplay": {"type": "array", "items": BOROUGH}, "boroughDeck": COUNT,
        "players": {"type": "array", "items": player},
        "you": strict({"seat": SEAT, "hand": CARDS, "step": nullable({"enum": [p.value for p in Phase]}),
                       "pending": nullable(pending)}, description="Your own (absent for a spectator)."),
        "result": strict({"scores": {"type": "array", "items": score}, "winners": {"type": "array", "items": SEAT},
                          "reason": {"type": "string"}}, description="Once over: the typed result."),
    }
    return _published("view", "What one seat (or a spectator) sees of a London match.",
                      strict(props, optional=("you", "result")))
