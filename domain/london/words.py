"""London's words: each legal action as a button says it and each event as the match's log says it, with the
title's nouns (city cards, boroughs, rows of the development board) named for the catalogues in `locale/` (the
Ukrainian rulebook's terms for city card, borough, development board, loan, poverty and prestige)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firebreak.domain.contract import Action, Event, Match
from firebreak.domain.london.data import shipped_catalogue
from firebreak.domain.london.rules.scoring import REASON
from firebreak.domain.words import RESULT, Param, Phrase, Seat, listed, noun, said, said_n

CARD = "city card"
BOROUGH = "borough"


def card(card_id: Any) -> Param:
    """A city card by its id (an unknown id as it is)."""
    found = shipped_catalogue().cards.get(str(card_id))
    return str(card_id) if found is None else noun(CARD, found.name)


def borough(borough_id: Any) -> Param:
    """A borough by its id (an unknown id as it is)."""
    found = shipped_catalogue().boroughs.get(str(borough_id))
    return str(borough_id) if found is None else noun(BOROUGH, found.name)


def source(source_id: Any) -> Param:
    """What a gain came from: a city card or a borough."""
    catalogue = shipped_catalogue()
    return card(source_id) if str(source_id) in catalogue.cards else borough(source_id)


def _gains(e: Event) -> Param:
    parts: list[Param] = []
    if e.get("money"):
        parts.append(said("\u00a3{n}", n=int(e["money"])))
    if e.get("prestige"):
        parts.append(said_n("{n} prestige point", "{n} prestige points", "n", n=int(e["prestige"])))
    if e.get("draws"):
        parts.append(said_n("{n} card to draw", "{n} cards to draw", "n", n=int(e["draws"])))
    if e.get("povertyReturned"):
        parts.append(said_n("returned {n} poverty token", "returned {n} poverty tokens", "n",
                            n=int(e["povertyReturned"])))
    if e.get("povertyGained"):
        parts.append(said_n("took {n} poverty token", "took {n} poverty tokens", "n", n=int(e["povertyGained"])))
    return listed(parts) if parts else said("nothing")


def _chosen(kind: Any) -> Param:
    if kind == "develop":
        return said("develop their city")
    if kind == "buyLand":
        return said("buy land")
    if kind == "run":
        return said("run their city")
    if kind == "drawThree":
        return said("draw three cards")
    return str(kind)


def _event(e: Event) -> Phrase:
    t = e["type"]
    w: Param = Seat(int(e["seat"])) if e.get("seat") is not None else said("nobody")
    if t == "setUp":
        return said_n("The match was set up for {n} player: {who} starts",
                      "The match was set up for {n} players: {who} starts", "n", n=int(e.get("seats", 0)),
                      who=Seat(int(e.get("start", 0))))
    if t == "handDealt":
        return said("{who} was dealt {cards}", who=w, cards=listed([card(c) for c in e.get("hand") or []]))
    if t == "turnStarted":
        return said("Turn of {who}", who=w)
    if t == "turnEnded":
        return said("End of the turn of {who}", who=w)
    if t == "lastTurns":
        return said_n("The deck of city cards ran out: {n} last turn", "The deck of city cards ran out: {n} last turns",
                      "n", n=int(e.get("turns", 0)))
    if t == "gameOver":
        return said("The game is over")
    if t == "drew":
        if e.get("from") == "board" and e.get("card"):
            return said("{who} took {card} from the development board", who=w, card=card(e["card"]))
        if e.get("deckLeft") is not None:
            return said_n("{who} drew from the deck ({n} card left)", "{who} drew from the deck ({n} cards left)",
                          "n", who=w, n=int(e["deckLeft"]))
        return said("{who} drew from the deck", who=w)
    if t == "cardDrawn":
        return said("{who} drew {card}", who=w, card=card(e.get("card")))
    if t == "discarded":
        if e.get("row") == "bottom":
            return said("{who} discarded {card} to the bottom row of the development board", who=w,
                        card=card(e.get("card")))
        return said("{who} discarded {card} to the top row of the development board", who=w, card=card(e.get("card")))
    if t == "boardCleared":
        return said_n("The development board was full: {n} card left the game",
                      "The development board was full: {n} cards left the game", "n", n=len(e.get("cards") or []))
    if t == "gained":
        return said("{who} gained from {source}: {gains}", who=w, source=source(e.get("source")), gains=_gains(e))
    if t == "loanTaken":
        return said_n("{who} took a loan (now {n} loan, \u00a3{money})",
                      "{who} took a loan (now {n} loans, \u00a3{money})", "n", who=w, n=int(e.get("loans", 0)),
                      money=int(e.get("money", 0)))
    if t == "loanRepaid":
        return said_n("{who} repaid a loan (now {n} loan, \u00a3{money})",
                      "{who} repaid a loan (now {n} loans, \u00a3{money})", "n", who=w, n=int(e.get("loans", 0)),
                      money=int(e.get("money", 0)))
    if t == "actionChosen":
        return said("{who} chose to {action}", who=w, action=_chosen(e.get("action")))
    if t == "actionPlayed":
        if e.get("paid"):
            return said("{who} played the action card {card} for \u00a3{paid}", who=w, card=card(e.get("card")),
                        paid=int(e["paid"]))
        return said("{who} played the action card {card}", who=w, card=card(e.get("card")))
    if t == "cardPlayed":
        stack = int(e.get("stack", 0)) + 1
        if e.get("covered"):
            return said("{who} built {card} on stack {stack} for \u00a3{paid}", who=w, card=card(e.get("card")),
                        stack=stack, paid=int(e.get("paid") or 0))
        return said("{who} built {card} as a new stack {stack} for \u00a3{paid}", who=w, card=card(e.get("card")),
                    stack=stack, paid=int(e.get("paid") or 0))
    if t == "landBought":
        return said("{who} bought {borough} for \u00a3{paid}", who=w, borough=borough(e.get("borough")),
                    paid=int(e.get("paid") or 0))
    if t == "activated":
        if e.get("discarded"):
            return said("{who} activated {card}, discarding {discarded}", who=w, card=card(e.get("card")),
                        discarded=card(e["discarded"]))
        if e.get("paid"):
            return said("{who} activated {card}, paying \u00a3{paid}", who=w, card=card(e.get("card")),
                        paid=int(e["paid"]))
        return said("{who} activated {card}", who=w, card=card(e.get("card")))
    if t == "flipped":
        return said("{who} flipped {card} face down", who=w, card=card(e.get("card")))
    if t == "povertyGained":
        return said_n("{who} took {n} poverty token after running their city ({poverty} in all)",
                      "{who} took {n} poverty tokens after running their city ({poverty} in all)", "n", who=w,
                      n=int(e.get("total", 0)), poverty=int(e.get("poverty", 0)))
    return said("Event: {type}", type=str(t))


def _staged(match: Match) -> dict[str, Any]:
    pending = getattr(match, "pending", None)
    return pending if isinstance(pending, dict) else {}


def _stack_top(match: Match, seat: int, stack: Any) -> Param | None:
    stacks = getattr(match, "stacks", None)
    try:
        return card(stacks[seat][int(stack)][-1]) if stacks is not None else None
    except (IndexError, TypeError, ValueError):
        return None


def _action(match: Match, seat: int, a: Action) -> Phrase:
    t = a["type"]
    pending = _staged(match)
    if t == "repayLoan":
        return said("Repay a loan (\u00a315)")
    if t == "takeLoan":
        return said("Take a loan")
    if t == "drawDeck":
        return said("Draw a card from the deck")
    if t == "drawBoard":
        return said("Draw {card} from the board", card=card(a.get("card")))
    if t == "skipDraw":
        return said("Nothing to draw: go on")
    if t == "develop":
        return said("Develop your city")
    if t == "buyLand":
        return said("Buy {borough}", borough=borough(a.get("borough")))
    if t == "run":
        return said("Run your city")
    if t == "drawThree":
        return said("Draw three cards")
    if t == "play":
        return said("Play {card}", card=card(a.get("card")))
    if t == "discard":
        return said("Discard {card}", card=card(a.get("card")))
    if t == "newStack":
        if pending.get("card"):
            return said("Build {card} as a new stack", card=card(pending["card"]))
        return said("Start a new stack")
    if t == "placeOn":
        top = _stack_top(match, seat, a.get("stack"))
        number = int(a.get("stack", 0)) + 1
        if top is not None:
            return said("Build on stack {stack} ({card})", stack=number, card=top)
        return said("Build on stack {stack}", stack=number)
    if t == "pay":
        if isinstance(pending.get("amount"), int):
            return said("Pay \u00a3{amount}", amount=pending["amount"])
        return said("Pay")
    if t == "cancel":
        return said("Cancel")
    if t == "endDevelop":
        return said("Stop developing")
    if t == "activate":
        return said("Activate {card}", card=card(a.get("card")))
    if t == "runBorough":
        return said("Run your top borough")
    if t == "flip":
        return said("Flip {card}", card=card(a.get("card")))
    if t == "endRun":
        return said("Finish running your city")
    return said("Action: {type}", type=str(t))


class LondonWords:
    """London's phrases and its catalogues."""

    domain = "london"
    locale = Path(__file__).parent / "locale"

    def action(self, match: Match, seat: int, action: Action) -> Phrase:
        """What a legal action does (the staged choice and the stacks read from the match)."""
        return _action(match, seat, action)

    def event(self, event: Event) -> Phrase:
        """What an event says happened."""
        return _event(event)

    def nouns(self) -> list[tuple[str, str]]:
        """Every city card and borough name (each once), and why a match played out ends."""
        catalogue = shipped_catalogue()
        names = dict.fromkeys([(CARD, c.name) for c in catalogue.cards.values()]
                              + [(BOROUGH, b.name) for b in catalogue.boroughs.values()] + [(RESULT, REASON)])
        return list(names)


WORDS = LondonWords()
