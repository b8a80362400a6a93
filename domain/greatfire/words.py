"""The Great Fire's words: each legal action as a button says it and each event as the match's log says it, with
the title's nouns (districts, fire cards, tokens, colours) named for the catalogues in `locale/` (the German
rulebook's terms: Bezirk, Brandschutztruppe, Grundbesitzer, Feuerzylinder, Sprengladung...)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from firebreak.domain.contract import Action, Event, Match
from firebreak.domain.greatfire.board import SHIPPED_BOARD
from firebreak.domain.greatfire.rules.scoring import END_REASON
from firebreak.domain.words import RESULT, Param, Phrase, Seat, listed, noun, said, said_n

DISTRICT = "district"
FIRE_CARD = "fire card"
TOKEN = "token"
COLOUR = "colour"
CARDS = {"N": "North \u2191", "E": "East \u2192", "S": "South \u2193", "W": "West \u2190"}
TOKENS = {"demolition": "demolition", "doubleMove": "double move", "victoryPoint": "victory point"}
COLOURS = ("blue", "green", "red", "yellow", "white", "purple")


@functools.cache
def district_names() -> dict[str, str]:
    """District id -> its name on the shipped board."""
    data = json.loads(SHIPPED_BOARD.read_text(encoding="utf-8"))
    return {str(d["id"]): str(d["name"]) for d in data["districts"]}


def district(district_id: Any) -> Param:
    """A district by its id (an unknown id as it is)."""
    name = district_names().get(str(district_id))
    return str(district_id) if name is None else noun(DISTRICT, name)


def card(card: Any) -> Param:
    """A fire card (N, E, S, W)."""
    name = CARDS.get(str(card))
    return str(card) if name is None else noun(FIRE_CARD, name)


def cards(hand: Any) -> Param:
    """Fire cards one after another."""
    return listed([card(c) for c in hand or []])


def token(kind: Any) -> Param:
    """A kind of token."""
    name = TOKENS.get(str(kind))
    return str(kind) if name is None else noun(TOKEN, name)


def colour(name: Any) -> Param:
    """A player colour."""
    return noun(COLOUR, str(name)) if name in COLOURS else str(name)


def houses(lost: Any) -> Param:
    """Houses by colour ("2 red, 1 blue"), or none."""
    parts: list[Param] = [said("{n} {colour}", n=int(n), colour=colour(c))
                          for c, n in (lost or {}).items()]
    return listed(parts) if parts else said("none")


def who(seat: Any) -> Param:
    """A seat, or the non-player when the event names none."""
    return said("The non-player") if seat is None else Seat(int(seat))


def _event(e: Event) -> Phrase:
    w = who(e.get("seat"))
    t = e["type"]
    if t == "handDealt":
        return said("{who} was dealt {cards}", who=w, cards=cards(e.get("hand")))
    if t == "handKept":
        return said("{who} kept their hand", who=w)
    if t == "handRedealt":
        return said("{who} showed {cards} and redealt", who=w, cards=cards(e.get("shown")))
    if t == "bandPlaced":
        return said("{who} placed a trained band in {district}", who=w, district=district(e.get("district")))
    if t == "pawnPlaced":
        return said("{who} placed their pawn in {district}", who=w, district=district(e.get("district")))
    if t == "turnStarted":
        return said("Turn of {who}", who=w)
    if t == "handRevealed":
        return said("{who} cannot move the fire and shows {cards}", who=w, cards=cards(e.get("hand")))
    if t == "cardPlayed":
        return said("{who} played the fire card {card}", who=w, card=card(e.get("card")))
    if t == "sourceChosen":
        return said("{who} spreads the fire from {district}", who=w, district=district(e.get("district")))
    if t == "fireSpread":
        if e.get("contained"):
            return said("The fire spread from {source} to {target} and is under control",
                        source=district(e.get("from")), target=district(e.get("to")))
        return said("The fire spread from {source} to {target}", source=district(e.get("from")),
                    target=district(e.get("to")))
    if t == "housesBurnt":
        return said("Houses burnt in {district}: {houses}", district=district(e.get("district")),
                    houses=houses(e.get("houses")))
    if t == "fireGrew":
        return said_n("The fire grew in {district} by {n} fire cone", "The fire grew in {district} by {n} fire cones",
                      "n", district=district(e.get("district")), n=int(e.get("cones", 0)))
    if t == "tokenRemoved":
        return said("The token in {district} burnt", district=district(e.get("district")))
    if t == "tokenTaken":
        return said("{who} took the token in {district}", who=w, district=district(e.get("district")))
    if t == "tokenRevealed":
        return said("{who}: the token from {district} is a {token} token", who=w,
                    district=district(e.get("district")), token=token(e.get("token")))
    if t == "tokenPlayed":
        return said("{who} played a {token} token", who=w, token=token(e.get("token")))
    if t == "tokenDestroyed":
        return said("The token in {district} was destroyed", district=district(e.get("district")))
    if t == "actionsStarted":
        return said_n("{who} has {n} action point", "{who} has {n} action points", "n", who=w,
                      n=int(e.get("actionPoints", 0)))
    if t == "pawnMoved":
        return said("{who} moved their pawn to {district}", who=w, district=district(e.get("to")))
    if t == "bandMoved":
        if e.get("pinned"):
            return said("{who} moved a trained band from {source} to {target}, where it fights the fire", who=w,
                        source=district(e.get("from")), target=district(e.get("to")))
        return said("{who} moved a trained band from {source} to {target}", who=w, source=district(e.get("from")),
                    target=district(e.get("to")))
    if t == "firePutOut":
        return said_n("{who} put out fire in {district} ({n} fire cone put out in all)",
                      "{who} put out fire in {district} ({n} fire cones put out in all)", "n", who=w,
                      district=district(e.get("district")), n=int(e.get("putOut", 0)))
    if t == "heroOfLondon":
        return said("{who} is now the Hero of London", who=w)
    if t == "demolished":
        return said("{who} demolished {district} (houses: {houses})", who=w, district=district(e.get("district")),
                    houses=houses(e.get("houses")))
    if t == "actionsEnded":
        return said("{who} ended their actions", who=w)
    if t == "cardDrawn":
        return said_n("{who} drew a fire card ({n} card left)", "{who} drew a fire card ({n} cards left)", "n",
                      who=w, n=int(e.get("deckSize", 0)))
    if t == "cardSeen":
        return said("{who} drew {card}", who=w, card=card(e.get("card")))
    if t == "turnEnded":
        return said("End of the turn of {who}", who=w)
    if t == "stackRevealed":
        return said("The fire stack card {stack} was revealed: the fire intensifies", stack=str(e.get("stack")))
    if t == "conePlaced":
        return said("{who} placed a fire cone in {district}", who=w, district=district(e.get("district")))
    if t == "conesLost":
        return said_n("{who} had nowhere to place {n} fire cone", "{who} had nowhere to place {n} fire cones", "n",
                      who=w, n=int(e.get("cones", 0)))
    if t == "conesReturned":
        return said("Fire cones put out went back to the supply ({seats})",
                    seats=listed([Seat(int(s)) for s in e.get("seats") or []]))
    if t == "puddingLaneRefilled":
        return said_n("Pudding Lane was refilled with {n} fire cone", "Pudding Lane was refilled with {n} fire cones",
                      "n", n=int(e.get("cones", 0)))
    if t == "cardDiscarded":
        return said("{who} discarded {card}", who=w, card=card(e.get("card")))
    if t == "finalRounds":
        return said_n("Final rounds: {n} turn left", "Final rounds: {n} turns left", "n", n=int(e.get("turns", 0)))
    if t == "gameOver":
        return said("The game is over")
    if t == "nonPlayerTurnStarted":
        return said("Non-player turn, conducted by {who}", who=who(e.get("conductor")))
    if t == "nonPlayerTurnEnded":
        return said("The non-player turn ended")
    if t == "fireCardFlipped":
        return said("Non-player fire card: {card}", card=card(e.get("card")))
    if t == "priorityCardFlipped":
        return said("Colour priority: {colours}", colours=listed([colour(c) for c in e.get("colours") or []]))
    if t == "priorityDeckShuffled":
        return said("The priority deck was shuffled")
    if t == "movementCardFlipped":
        return said("Movement card: {district}", district=district(e.get("objective")))
    if t == "movementDeckShuffled":
        return said("The movement deck was shuffled")
    if t == "noFireMove":
        return said("The non-player fire does not move")
    if t == "noBandMove":
        return said("No trained band moves")
    if t == "tieToBreak":
        return said("{who} must break a tie of the non-player", who=w)
    if t == "tieBroken":
        by = e.get("by")
        if by == "seed" or by is None:
            return said("Tie broken by lot: {district}", district=district(e.get("district")))
        return said("{who} broke the tie: {district}", who=who(by), district=district(e.get("district")))
    return said("Event: {type}", type=str(t))


def _action(a: Action) -> Phrase:
    t = a["type"]
    if t == "keepHand":
        return said("Keep your hand")
    if t == "redeal":
        return said("Redeal")
    if t == "placeBand":
        return said("Place a trained band in {district}", district=district(a.get("district")))
    if t == "placePawn":
        return said("Place your pawn in {district}", district=district(a.get("district")))
    if t == "playCard":
        return said("Play the fire card {card}", card=card(a.get("card")))
    if t == "chooseSource":
        return said("Spread the fire from {district}", district=district(a.get("district")))
    if t == "spreadFire":
        return said("Spread the fire to {district}", district=district(a.get("district")))
    if t == "playDoubleMove":
        return said("Play a {token} token", token=token("doubleMove"))
    if t == "endFire":
        return said("End spreading the fire")
    if t == "discard":
        return said("Discard {card}", card=card(a.get("card")))
    if t == "placeCone":
        return said("Place a fire cone in {district}", district=district(a.get("district")))
    if t == "movePawn":
        return said("Move your pawn to {district}", district=district(a.get("to")))
    if t == "moveBand":
        return said("Move a trained band from {source} to {target}", source=district(a.get("from")),
                    target=district(a.get("to")))
    if t == "putOut":
        return said("Put out fire in {district}", district=district(a.get("district")))
    if t == "demolish":
        return said("Demolish {district}", district=district(a.get("district")))
    if t == "endActions":
        return said("End your actions")
    if t == "breakTie":
        return said("Choose {district}", district=district(a.get("district")))
    return said("Action: {type}", type=str(t))


class GreatFireWords:
    """The Great Fire's phrases and its catalogues."""

    domain = "greatfire"
    locale = Path(__file__).parent / "locale"

    def action(self, match: Match, seat: int, action: Action) -> Phrase:
        """What a legal action does."""
        return _action(action)

    def event(self, event: Event) -> Phrase:
        """What an event says happened."""
        return _event(event)

    def nouns(self) -> list[tuple[str, str]]:
        """Every district, fire card, token kind and colour name, and why a match played out ends."""
        return ([(DISTRICT, name) for name in district_names().values()]
                + [(FIRE_CARD, name) for name in CARDS.values()] + [(TOKEN, name) for name in TOKENS.values()]
                + [(COLOUR, name) for name in COLOURS] + [(RESULT, END_REASON)])


WORDS = GreatFireWords()
