"""The published JSON Schemas of Great Fire's view and events (domain/schemas.py for the shared parts; the action
schema derives from the action table, actions.py).

District ids, colours, fire cards and token kinds are enumerated from the shipped board and component data, so a
client generated from these schemas knows every name the engine can send.
"""

from __future__ import annotations

from typing import Any

from firebreak.domain.greatfire.board import load_board
from firebreak.domain.greatfire.components import CARDS, TOKEN_KINDS, shipped_components
from firebreak.domain.greatfire.state import Phase
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

ID = "greatfire"
DISTRICT: Schema = {"$ref": "#/$defs/district"}
COLOUR: Schema = {"$ref": "#/$defs/colour"}
CARD: Schema = {"$ref": "#/$defs/card"}
TOKEN: Schema = {"$ref": "#/$defs/token"}


def _defs() -> Schema:
    return {
        "district": {"enum": [d.id for d in load_board().districts], "description": "A district id (Title.board)."},
        "colour": {"enum": list(shipped_components().colours), "description": "A player colour."},
        "card": {"enum": list(CARDS), "description": "A fire card: the direction the fire spreads."},
        "token": {"enum": list(TOKEN_KINDS), "description": "A token kind."},
    }


def published(part: str, description: str, schema: Schema) -> Schema:
    """A published Great Fire schema: the document with the district, colour, card and token names among its
    definitions."""
    out = document(ID, part, description, schema)
    return {**out, "$defs": {**out.get("$defs", {}), **_defs()}}


def event_schema() -> Schema:
    """One event of a step (Match.events, act's events, matchEvents)."""
    houses = {"type": "object", "propertyNames": COLOUR, "additionalProperties": COUNT,
              "description": "Houses by colour."}
    seat = {"seat": SEAT}
    at = {"district": DISTRICT}
    cards = {"type": "array", "items": CARD}
    return published("event", "One Great Fire event.", tagged({
        "handDealt": ("Your hand (private).", {**seat, "hand": cards}),
        "handKept": ("R15: the seat kept its hand.", seat),
        "handRedealt": ("R15: the seat's hand was redealt (the old one shown).", {**seat, "shown": cards}),
        "handRevealed": ("R8: the seat shows a hand with no legal move.", {**seat, "hand": cards}),
        "bandPlaced": ("Setup: a band was placed.", {**seat, **at}),
        "pawnPlaced": ("Setup: a pawn was placed.", {**seat, "pawn": COUNT, **at}),
        "turnStarted": ("A seat's turn began.", seat),
        "turnEnded": ("A seat's turn ended.", seat),
        "cardPlayed": ("A fire card was played.", {**seat, "card": CARD}),
        "sourceChosen": ("The fire spreads from here.", {**seat, **at}),
        "fireSpread": ("The fire moved.", {"from": DISTRICT, "to": DISTRICT, "contained": {"type": "boolean"}}),
        "fireGrew": ("Cones were added to a district.", {**at, "cones": COUNT}),
        "housesBurnt": ("Houses burnt down.", {**at, "houses": houses}),
        "tokenPlayed": ("A token was played.", {**seat, "token": TOKEN}),
        "tokenTaken": ("A seat took a board token (kind hidden).", {**seat, **at}),
        "tokenRevealed": ("The kind of the token you took (private).", {**seat, **at, "token": TOKEN}),
        "tokenDestroyed": ("The fire destroyed a board token.", at),
        "tokenRemoved": ("R20: the non-player fire removed a board token.", at),
        "cardDiscarded": ("R8: a card was discarded.", {**seat, "card": CARD}),
        "conePlaced": ("A cone was placed.", {**seat, **at}),
        "conesLost": ("Cones the supply could not give.", {**seat, "cones": COUNT}),
        "conesReturned": ("Cones went back to the supply.", {"seats": {"type": "array", "items": SEAT}}),
        "actionsStarted": ("The actions phase began.", {**seat, "actionPoints": COUNT}),
        "actionsEnded": ("The actions phase ended.", seat),
        "pawnMoved": ("A pawn moved.", {**seat, "pawn": COUNT, "to": DISTRICT}),
        "bandMoved": ("A band moved (seat null: the non-player turn).",
                      {"seat": nullable(SEAT), "from": DISTRICT, "to": DISTRICT, "pinned": {"type": "boolean"}}),
        "firePutOut": ("A cone was put out.", {**seat, **at, "putOut": COUNT}),
        "demolished": ("A district was demolished.", {**seat, **at, "houses": houses}),
        "heroOfLondon": ("The Hero of London changed hands.", {**seat, "from": nullable(SEAT)}),
        "cardDrawn": ("A seat drew a card (which: private cardSeen).", {**seat, "deckSize": COUNT}),
        "cardSeen": ("The card you drew (private).", {**seat, "card": CARD}),
        "stackRevealed": ("A stack card came up: the fire intensifies.",
                          {**seat, "stack": {"type": "string"}, "byNonPlayer": {"type": "boolean"}}),
        "puddingLaneRefilled": ("Pudding Lane was refilled.", {"cones": COUNT}),
        "finalRounds": ("The last rounds began.", {"turns": COUNT}),
        "gameOver": ("The match ended.", {}),
        "nonPlayerTurnStarted": ("2 players: a non-player turn began.", {"conductor": SEAT}),
        "nonPlayerTurnEnded": ("2 players: a non-player turn ended.", {"conductor": SEAT}),
        "fireCardFlipped": ("2 players: the non-player fire card.", {"card": CARD}),
        "priorityCardFlipped": ("2 players: the colour priority card.",
                                {"colours": {"type": "array", "items": COLOUR}}),
        "movementCardFlipped": ("2 players: the movement card.", {"objective": DISTRICT}),
        "priorityDeckShuffled": ("2 players: the priority deck was reshuffled.", {}),
        "movementDeckShuffled": ("2 players: the movement deck was reshuffled.", {}),
        "noFireMove": ("2 players: the non-player fire could not move.", {}),
        "noBandMove": ("2 players: no band could move.", {}),
        "tieToBreak": ("2 players (R21): the conductor must break a tie.",
                       {**seat, "kind": {"type": "string"}, "options": {"type": "array", "items": DISTRICT},
                        "band": DISTRICT, "tied": {"type": "array"}, "wanted": COUNT}),
        "tieBroken": ("2 players (R21): a tie was broken (by a seat, or by the seed).",
                      {"kind": {"type": "string"}, **at, "by": {"anyOf": [SEAT, {"const": "seed"}]}}),
        **service_events(),
    }, common=event_envelope(), optional={"tieToBreak": ("band", "tied", "wanted")}, suffix="Event"))


def view_schema() -> Schema:
    """What a seat (or a spectator) sees (Match.view)."""
    houses = {"type": "object", "propertyNames": COLOUR, "additionalProperties": COUNT}
    pawn = strict({"seat": SEAT, "pawn": COUNT, "colour": COLOUR})
    place = strict({"houses": houses, "fire": COUNT, "bands": COUNT, "pinnedBands": COUNT,
                    "burning": {"type": "boolean"}, "demolished": {"type": "boolean"},
                    "token": {"type": "boolean", "description": "A face-down token lies here."},
                    "pawns": {"type": "array", "items": pawn}})
    objective = strict({"district": DISTRICT, "vp": COUNT, "deck": {"type": "string"}})
    secrets = {"colours": {"type": "array", "items": COLOUR}, "hand": {"type": "array", "items": CARD},
               "objectives": {"type": "array", "items": objective},
               "tokens": {"type": "array", "items": TOKEN}}
    player = strict({
        "seat": SEAT, "colours": nullable({"type": "array", "items": COLOUR}),
        "pawnColours": {"type": "array", "items": COLOUR}, "handSize": COUNT, "putOut": COUNT,
        "housesLost": nullable(COUNT), "tokens": {**COUNT, "description": "Tokens held: a count at every phase."},
        "hero": {"type": "boolean"}, "hand": secrets["hand"], "objectives": secrets["objectives"],
        "tokenKinds": {"type": "array", "items": TOKEN, "description": "Once over: the kinds of tokens held."},
    }, optional=("hand", "objectives", "tokenKinds"), description="A player; once over, also its secrets.")
    score_row = {"type": "object", "additionalProperties": {"type": "integer"}}
    stage = {"type": "object", "description": "Where the pending decision stands inside its phase.",
             "properties": {"card": nullable(CARD), "source": nullable(DISTRICT), "movesLeft": COUNT,
                            "doubleMovePlayed": {"type": "boolean"}, "actionPoints": COUNT,
                            "conesToPlace": COUNT, "reason": {"type": "string"}},
             "additionalProperties": False}
    non_player = {"type": "object", "description": "2 players: the non-player turn's public state.",
                  "additionalProperties": True}
    options = {"type": "object", "description": "The options in force (Title.options)."}
    props: dict[str, Any] = {
        "title": {"const": ID}, "seats": COUNT, "version": COUNT, "options": options,
        "phase": {"enum": [p.value for p in Phase]}, "toAct": {"type": "array", "items": SEAT},
        "turn": nullable(SEAT), "startSeat": SEAT,
        "districts": {"type": "object", "propertyNames": DISTRICT, "additionalProperties": place},
        "supply": COUNT, "deckSize": COUNT, "stacksLeft": COUNT, "untilIntensify": nullable(COUNT),
        "discardPile": COUNT, "discardCards": {"type": "object", "propertyNames": CARD, "additionalProperties": COUNT},
        "turnsLeft": nullable(COUNT), "scoreTrack": {"type": "object", "propertyNames": COLOUR,
                                                     "additionalProperties": COUNT},
        "hero": nullable(SEAT), "players": {"type": "array", "items": player}, "stage": stage,
        "nonPlayer": non_player,
        "you": strict({"seat": SEAT, **secrets}, description="Your own secrets (absent for a spectator)."),
        "result": strict({"scores": {"type": "array", "items": score_row},
                          "winners": {"type": "array", "items": SEAT}},
                         description="Once over: every seat's score breakdown and the winners."),
    }
    return published("view", "What one seat (or a spectator) sees of a Great Fire match.",
                     strict(props, optional=("nonPlayer", "you", "result")))
