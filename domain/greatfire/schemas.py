"""The published JSON Schemas of Great Fire's view, actions and events (domain/schemas.py for the shared parts).

District ids, colours, fire cards and token kinds are enumerated from the shipped board and component data, so a
client generated from these schemas knows every name the engine can send.
"""

from __future__ import annotations

from typing import Any

from domain.greatfire.board import load_board
from domain.greatfire.components import CARDS, TOKEN_KINDS, shipped_components
from domain.greatfire.state import Phase
from domain.schemas import (
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


def _names() -> tuple[Schema, Schema, Schema, Schema]:
    """References to the shared definitions: district, colour, fire card, token kind."""
    district, colour, card, token = ({"$ref": f"#/$defs/{name}"} for name in ("district", "colour", "card", "token"))
    return district, colour, card, token


def _defs() -> Schema:
    return {
        "district": {"enum": [d.id for d in load_board().districts], "description": "A district id (Title.board)."},
        "colour": {"enum": list(shipped_components().colours), "description": "A player colour."},
        "card": {"enum": list(CARDS), "description": "A fire card: the direction the fire spreads."},
        "token": {"enum": list(TOKEN_KINDS), "description": "A token kind."},
    }


def _published(part: str, description: str, schema: Schema) -> Schema:
    published = document(ID, part, description, schema)
    return {**published, "$defs": {**published.get("$defs", {}), **_defs()}}


def action_schema() -> Schema:
    """One action as legalActions lists it and act takes it."""
    district, _colour, card, _token = _names()
    at = {"district": district}
    return _published("action", "One Great Fire action (send it back as listed in legalActions).", tagged({
        "keepHand": ("R15: keep a hand of five identical cards.", {}),
        "redeal": ("R15: redeal a hand of five identical cards.", {}),
        "placeBand": ("Setup: place a trained band.", at),
        "placePawn": ("Setup: place your next landowner pawn.", at),
        "playCard": ("Fire phase: play a fire card from your hand.", {"card": card}),
        "chooseSource": ("Fire phase: the burning district the fire spreads from.", at),
        "spreadFire": ("Fire phase: the district the fire spreads into.", at),
        "playDoubleMove": ("Fire phase pause: play your double-move token (R7).", {}),
        "endFire": ("Fire phase pause: end the fire phase.", {}),
        "discard": ("R8: no fire move possible: discard a card.", {"card": card}),
        "placeCone": ("Place a fire cone (intensify, R8, R12).", at),
        "movePawn": ("Actions: move a pawn one step.", {"pawn": COUNT, "to": district}),
        "moveBand": ("Actions: move a free trained band one step.", {"from": district, "to": district}),
        "putOut": ("Actions: put out one cone where your pawn stands.", at),
        "demolish": ("Actions: demolish a district next to your pawn.", at),
        "endActions": ("Actions: end the phase (R18b: also at 0 points).", {}),
        "breakTie": ("2 players (R21): break the non-player turn's tie.", at),
    }, suffix="Action"))


def event_schema() -> Schema:
    """One event of a step (Match.events, act's events, matchEvents)."""
    district, colour, card, token = _names()
    houses = {"type": "object", "propertyNames": colour, "additionalProperties": COUNT,
              "description": "Houses by colour."}
    seat = {"seat": SEAT}
    at = {"district": district}
    cards = {"type": "array", "items": card}
    return _published("event", "One Great Fire event.", tagged({
        "handDealt": ("Your hand (private).", {**seat, "hand": cards}),
        "handKept": ("R15: the seat kept its hand.", seat),
        "handRedealt": ("R15: the seat's hand was redealt (the old one shown).", {**seat, "shown": cards}),
        "handRevealed": ("R8: the seat shows a hand with no legal move.", {**seat, "hand": cards}),
        "bandPlaced": ("Setup: a band was placed.", {**seat, **at}),
        "pawnPlaced": ("Setup: a pawn was placed.", {**seat, "pawn": COUNT, **at}),
        "turnStarted": ("A seat's turn began.", seat),
        "turnEnded": ("A seat's turn ended.", seat),
        "cardPlayed": ("A fire card was played.", {**seat, "card": card}),
        "sourceChosen": ("The fire spreads from here.", {**seat, **at}),
        "fireSpread": ("The fire moved.", {"from": district, "to": district, "contained": {"type": "boolean"}}),
        "fireGrew": ("Cones were added to a district.", {**at, "cones": COUNT}),
        "housesBurnt": ("Houses burnt down.", {**at, "houses": houses}),
        "tokenPlayed": ("A token was played.", {**seat, "token": token}),
        "tokenTaken": ("A seat took a board token (kind hidden).", {**seat, **at}),
        "tokenRevealed": ("The kind of the token you took (private).", {**seat, **at, "token": token}),
        "tokenDestroyed": ("The fire destroyed a board token.", at),
        "tokenRemoved": ("R20: the non-player fire removed a board token.", at),
        "cardDiscarded": ("R8: a card was discarded.", {**seat, "card": card}),
        "conePlaced": ("A cone was placed.", {**seat, **at}),
        "conesLost": ("Cones the supply could not give.", {**seat, "cones": COUNT}),
        "conesReturned": ("Cones went back to the supply.", {"seats": {"type": "array", "items": SEAT}}),
        "actionsStarted": ("The actions phase began.", {**seat, "actionPoints": COUNT}),
        "actionsEnded": ("The actions phase ended.", seat),
        "pawnMoved": ("A pawn moved.", {**seat, "pawn": COUNT, "to": district}),
        "bandMoved": ("A band moved (seat null: the non-player turn).",
                      {"seat": nullable(SEAT), "from": district, "to": district, "pinned": {"type": "boolean"}}),
        "firePutOut": ("A cone was put out.", {**seat, **at, "putOut": COUNT}),
        "demolished": ("A district was demolished.", {**seat, **at, "houses": houses}),
        "heroOfLondon": ("The Hero of London changed hands.", {**seat, "from": nullable(SEAT)}),
        "cardDrawn": ("A seat drew a card (which: private cardSeen).", {**seat, "deckSize": COUNT}),
        "cardSeen": ("The card you drew (private).", {**seat, "card": card}),
        "stackRevealed": ("A stack card came up: the fire intensifies.",
                          {**seat, "stack": {"type": "string"}, "byNonPlayer": {"type": "boolean"}}),
        "puddingLaneRefilled": ("Pudding Lane was refilled.", {"cones": COUNT}),
        "finalRounds": ("The last rounds began.", {"turns": COUNT}),
        "gameOver": ("The match ended.", {}),
        "nonPlayerTurnStarted": ("2 players: a non-player turn began.", {"conductor": SEAT}),
        "nonPlayerTurnEnded": ("2 players: a non-player turn ended.", {"conductor": SEAT}),
        "fireCardFlipped": ("2 players: the non-player fire card.", {"card": card}),
        "priorityCardFlipped": ("2 players: the colour priority card.",
                                {"colours": {"type": "array", "items": colour}}),
        "movementCardFlipped": ("2 players: the movement card.", {"objective": district}),
        "priorityDeckShuffled": ("2 players: the priority deck was reshuffled.", {}),
        "movementDeckShuffled": ("2 players: the movement deck was reshuffled.", {}),
        "noFireMove": ("2 players: the non-player fire could not move.", {}),
        "noBandMove": ("2 players: no band could move.", {}),
        "tieToBreak": ("2 players (R21): the conductor must break a tie.",
                       {**seat, "kind": {"type": "string"}, "options": {"type": "array", "items": district},
                        "band": district, "tied": {"type": "array"}, "wanted": COUNT}),
        "tieBroken": ("2 players (R21): a tie was broken (by a seat, or by the seed).",
                      {"kind": {"type": "string"}, **at, "by": {"anyOf": [SEAT, {"const": "seed"}]}}),
        **service_events(),
    }, common=event_envelope(), optional={"tieToBreak": ("band", "tied", "wanted")}, suffix="Event"))


def view_schema() -> Schema:
    """What a seat (or a spectator) sees (Match.view)."""
    district, colour, card, token = _names()
    houses = {"type": "object", "propertyNames": colour, "additionalProperties": COUNT}
    pawn = strict({"seat": SEAT, "pawn": COUNT, "colour": colour})
    place = strict({"houses": houses, "fire": COUNT, "bands": COUNT, "pinnedBands": COUNT,
                    "burning": {"type": "boolean"}, "demolished": {"type": "boolean"},
                    "token": {"type": "boolean", "description": "A face-down token lies here."},
                    "pawns": {"type": "array", "items": pawn}})
    objective = strict({"district": district, "vp": COUNT, "deck": {"type": "string"}})
    secrets = {"colours": {"type": "array", "items": colour}, "hand": {"type": "array", "items": card},
               "objectives": {"type": "array", "items": objective},
               "tokens": {"type": "array", "items": token}}
    player = strict({
        "seat": SEAT, "colours": nullable({"type": "array", "items": colour}),
        "pawnColours": {"type": "array", "items": colour}, "handSize": COUNT, "putOut": COUNT,
        "housesLost": nullable(COUNT), "tokens": {**COUNT, "description": "Tokens held: a count at every phase."},
        "hero": {"type": "boolean"}, "hand": secrets["hand"], "objectives": secrets["objectives"],
        "tokenKinds": {"type": "array", "items": token, "description": "Once over: the kinds of tokens held."},
    }, optional=("hand", "objectives", "tokenKinds"), description="A player; once over, also its secrets.")
    score_row = {"type": "object", "additionalProperties": {"type": "integer"}}
    stage = {"type": "object", "description": "Where the pending decision stands inside its phase.",
             "properties": {"card": nullable(card), "source": nullable(district), "movesLeft": COUNT,
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
        "districts": {"type": "object", "propertyNames": district, "additionalProperties": place},
        "supply": COUNT, "deckSize": COUNT, "stacksLeft": COUNT, "untilIntensify": nullable(COUNT),
        "discardPile": COUNT, "discardCards": {"type": "object", "propertyNames": card, "additionalProperties": COUNT},
        "turnsLeft": nullable(COUNT), "scoreTrack": {"type": "object", "propertyNames": colour,
                                                     "additionalProperties": COUNT},
        "hero": nullable(SEAT), "players": {"type": "array", "items": player}, "stage": stage,
        "nonPlayer": non_player,
        "you": strict({"seat": SEAT, **secrets}, description="Your own secrets (absent for a spectator)."),
        "result": strict({"scores": {"type": "array", "items": score_row},
                          "winners": {"type": "array", "items": SEAT}},
                         description="Once over: every seat's score breakdown and the winners."),
    }
    return _published("view", "What one seat (or a spectator) sees of a Great Fire match.",
                    strict(props, optional=("nonPlayer", "you", "result")))
