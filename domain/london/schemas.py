"""The published JSON Schemas of London's view and events (domain/schemas.py for the shared parts; the action
schema derives from the action table, actions.py).

Card and borough ids are enumerated from the shipped data, so a client generated from these schemas knows every
name the engine can send.
"""

from __future__ import annotations

from typing import Any

from firebreak.domain.london.data import DECKS, shipped_catalogue
from firebreak.domain.london.state import Phase
from firebreak.domain.london.views import PAY_STEP, PUBLIC_STEP
from firebreak.domain.schemas import (
    COUNT,
    SEAT,
    Schema,
    document,
    event_envelope,
    nullable,
    service_events,
    strict,
    tagged,
)

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


def published(part: str, description: str, schema: Schema) -> Schema:
    """A published London schema: the document with the card and borough ids among its definitions."""
    out = document(ID, part, description, schema)
    return {**out, "$defs": {**out.get("$defs", {}), **_defs()}}


def event_schema() -> Schema:
    """One event of a step (act's events, matchEvents)."""
    seat = {"seat": SEAT}
    card = {"card": CARD}
    source = {"anyOf": [CARD, BOROUGH], "description": "The card or borough the gain came from."}
    loan = {**seat, "loans": COUNT, "money": MONEY}
    return published("event", "One London event.", tagged({
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
    return published("view", "What one seat (or a spectator) sees of a London match.",
                      strict(props, optional=("you", "result")))
