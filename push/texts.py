"""What a push says to a person: a title and a body for each pushed kind of event, in the player's saved locale
(English when none is saved; matches/catalogues.py writes them from the service's catalogue). A phone shows them
when the app is closed: a browser's service worker reads them from the payload, and FCM gets them as the message's
notification (iOS shows nothing of a closed app's push without one). The event's facts stay in the payload for the
app to act on, and for an app that writes its own words."""

from __future__ import annotations

from typing import Any

from firebreak.domain import titles
from firebreak.domain.errors import UnknownTitle
from firebreak.domain.words import Phrase, said
from firebreak.matches import catalogues
from firebreak.matches.feed import FeedEvent, FeedType


def _game(data: dict[str, Any]) -> str:
    """The title's name (a proper name: the same in every language)."""
    title_id = str(data.get("title") or "")
    try:
        return titles.get(title_id).name
    except UnknownTitle:
        return title_id or "Firebreak"


def _phrases(event: FeedEvent) -> tuple[Phrase, Phrase] | None:
    data = event.data
    game = _game(data)
    handle = str(data.get("handle") or "")
    kind = event.type
    if kind is FeedType.YOUR_TURN:
        return said("Your turn"), said("{game}: it is your move.", game=game)
    if kind is FeedType.MATCH_ENDED:
        seat, winners = data.get("seat"), data.get("winners") or []
        if seat is not None and seat in winners:
            return said("You won"), said("{game}: the match is over and you won.", game=game)
        return said("The match is over"), said("{game}: see how it ended.", game=game)
    if kind is FeedType.INVITED:
        return said("You are invited"), said("Join a match of {game}.", game=game)
    if kind is FeedType.REMATCH_OFFERED:
        return said("A rematch is offered"), said("{game}: play again?", game=game)
    if kind is FeedType.SEEK_MATCHED:
        return said("Your match is ready"), said("Your search found a table: the match begins.")
    if kind is FeedType.SEAT_TAKEN_OVER:
        return said("Your time ran out"), said("{game}: a bot plays your seat until you take it back.", game=game)
    if kind is FeedType.FRIEND_REQUESTED:
        return said("Friend request"), said("{handle} wants to be your friend.", handle=handle)
    if kind is FeedType.FRIEND_ACCEPTED:
        return said("New friend"), said("{handle} accepted your friend request.", handle=handle)
    return None


def texts(event: FeedEvent, locale: str) -> tuple[str, str] | None:
    """A push's title and body in the locale (a language the service does not speak reads in English); None for a
    kind that is not pushed."""
    found = _phrases(event)
    if found is None:
        return None
    language = locale if locale in catalogues.languages() else catalogues.DEFAULT
    tr = catalogues.service(language)
    return catalogues.write(found[0], tr, lambda seat: None), catalogues.write(found[1], tr, lambda seat: None)
