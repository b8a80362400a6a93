"""A title's words: what an action or an event means, as a message id (its English text) and parameters, which the
service translates into the reader's language (gettext catalogues under each title's `locale/`).

A title says things with `said` (and `said_n` where a number picks the plural form), names its own nouns (a
district, a card, a borough: names from its data files) with `noun`, and a seat with `Seat` (the service puts the
seat's player name there). `pybabel extract -k said -k said_n:1,2` finds every message id in the code; a title's
`nouns()` lists the names its data holds, which the catalogues translate too.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple, Protocol, Union

from firebreak.domain.contract import Action, Event, Match

Param = Union[int, str, "Phrase", "Seat", "Listed"]


class Seat(NamedTuple):
    """A seat named in a phrase: the service writes its player's name (or "Seat n" while nobody sits there)."""

    seat: int


class Listed(NamedTuple):
    """Several values written one after another, separated by a comma (the hand dealt, colours in order)."""

    items: tuple[Param, ...]


class Phrase(NamedTuple):
    """A message id (the English text, with {name} placeholders) and its parameters; plural: the English plural
    form when counted (a parameter's name) picks the form; context: the message context of a noun ("district").
    (Tuples: made and hashed fast, for a label is made for each legal action of each step.)"""

    text: str
    params: tuple[tuple[str, Param], ...] = ()
    plural: str | None = None
    counted: str | None = None
    context: str | None = None


# the contexts of what a title's metadata and result say to people (the service translates them: api/labels.py)
RESULT = "how a match ended"                     # a result's reason
COLUMN = "score column"                          # a score column's label
COLUMN_DESCRIPTION = "score column description"  # how a score column is counted
OPTION = "option description"                    # what an option does
BOT_LEVEL = "bot level"                          # a bot level's name (random, greedy, search)


def said(text: str, **params: Param) -> Phrase:
    """A sentence: its English text (the message id) with its parameters."""
    return Phrase(text, tuple(params.items()))


def said_n(singular: str, plural: str, count: str, **params: Param) -> Phrase:
    """A sentence whose form depends on the number in the parameter `count` (singular and plural in English; a
    language's catalogue gives as many forms as its plural rule asks)."""
    return Phrase(singular, tuple(params.items()), plural, count)


def noun(context: str, name: str) -> Phrase:
    """A name from the title's data (a district, a card...), translated under its context."""
    return Phrase(name, context=context)


def listed(items: Sequence[Param]) -> Listed:
    """Values written one after another."""
    return Listed(tuple(items))


class Words(Protocol):
    """A title's words: its catalogues (`locale/<language>/LC_MESSAGES/<domain>.po`) and the phrase for each
    legal action and each event."""

    domain: str
    locale: Path

    def action(self, match: Match, seat: int, action: Action) -> Phrase:
        """What a legal action of the seat does, as a button would say it (read-only on the match)."""
        ...

    def event(self, event: Event) -> Phrase:
        """What an event says happened, as a line of the match's log."""
        ...

    def nouns(self) -> list[tuple[str, str]]:
        """Every (context, name) of the title's data that a phrase may name."""
        ...


def service_event(event: Event) -> Phrase | None:
    """The phrase of an event the service itself records in any title's log (domain/schemas.py's service events),
    None for a title's own event."""
    kind = event.get("type")
    seat = event.get("seat")
    who: Param = Seat(seat) if isinstance(seat, int) else said("a seat")
    if kind == "clockExpired":
        return said("The turn clock of {who} ran out", who=who)
    if kind == "seatTakenOver":
        return said("The service's bot now plays for {who}", who=who)
    if kind == "seatReturned":
        return said("{who} took their seat back", who=who)
    if kind == "seatResigned":
        return said("{who} resigned", who=who)
    if kind == "matchAbandoned":
        return said("The match was abandoned: nobody acted for too long")
    return None


def bot_name(level: str) -> Phrase:
    """What a bot seat is called in a phrase ("greedy bot"), its level's name translated too."""
    return said("{level} bot", level=noun(BOT_LEVEL, level))


def generic_action(action: Action) -> Phrase:
    """The phrase of an action of a title without words: its type."""
    return said("{type}", type=str(action.get("type", "?")))


def generic_event(event: Event) -> Phrase:
    """The phrase of an event of a title without words: its type."""
    return said("{type}", type=str(event.get("type", "?")))
