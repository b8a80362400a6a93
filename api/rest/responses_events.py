"""The player's own events as REST serves them (the data of each GET /v1/me/events message, a webhook's event): one
model per kind, and MyEvent, their union told apart by `type` (a discriminated oneOf in the OpenAPI document), so a
generator can type the stream. Fields as matches/feed.py writes them (ids and public facts only); the stream opens
with a ReadyEvent (api/myevents.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, RootModel

from firebreak.api.rest.responses import Answer, d, enum_of
from firebreak.matches.lifecycle import EndReason

ID = Annotated[str, d("The event's id: the resume cursor (?after= or Last-Event-ID).")]
AT = Annotated[float, d("When (epoch seconds).")]
MATCH = Annotated[str, d("The match.")]
TITLE = Annotated[str, d("Its title id.")]
SEAT = Annotated[int, d("The player's seat.")]


class ReadyEvent(Answer):
    """The stream's first message once it is live: every event after `id` will come on this stream (resume from
    `id` after a reconnect: "0" when the player had no event yet, meaning from the oldest kept)."""

    id: ID
    type: Literal["ready"]
    at: AT


class MatchFactsEvent(Answer):
    """A match the player sits in: yourTurn (the turn passed to the player: read the match's view and legal
    actions), matchStarted."""

    id: ID
    type: Literal["yourTurn", "matchStarted"]
    at: AT
    matchId: MATCH
    title: TITLE
    seat: SEAT
    version: Annotated[int, d("The match's version then (act's expectedVersion for yourTurn).")]


class MatchEndedEvent(Answer):
    """A match the player sits in ended: why, and its winners."""

    id: ID
    type: Literal["matchEnded"]
    at: AT
    matchId: MATCH
    title: TITLE
    seat: SEAT
    version: Annotated[int, d("The match's final version.")]
    reason: Annotated[str, enum_of([r.value for r in EndReason], "Why it ended.")]
    winners: Annotated[list[int] | None, d("The winning seats (null: not known).")]


class SeatTakenOverEvent(Answer):
    """The player's clock ran out: the service's bot plays the seat until it is reclaimed."""

    id: ID
    type: Literal["seatTakenOver"]
    at: AT
    matchId: MATCH
    title: TITLE
    seat: SEAT
    version: Annotated[int, d("The match's version then.")]
    level: Annotated[str | None, d("The bot level that plays the seat now.")]


class InvitedEvent(Answer):
    """Another player (or a match's host) invited the player to a waiting match."""

    id: ID
    type: Literal["invited"]
    at: AT
    matchId: MATCH
    title: TITLE
    by: Annotated[str | None, d("The inviting player (null: the match's host token).")]


class RematchEvent(Answer):
    """A rematch offer of a match the player played: offered (answer it before expiresAt), accepted, declined,
    expired, or started (the rematch exists)."""

    id: ID
    type: Literal["rematchOffered", "rematchAccepted", "rematchDeclined", "rematchExpired", "rematchStarted"]
    at: AT
    matchId: Annotated[str, d("The rematch's id (the match exists once every person accepted).")]
    of: Annotated[str, d("The finished match it follows.")]
    title: TITLE
    seat: Annotated[int, d("The seat it holds for the player.")]
    by: Annotated[int | None, d("The finished match's seat that offered, accepted or declined (null: none).")]
    expiresAt: Annotated[float | None, d("rematchOffered: when the offer expires (epoch seconds).")] = None


class SeekMatchedEvent(Answer):
    """The player's seek found a table: the match has started."""

    id: ID
    type: Literal["seekMatched"]
    at: AT
    seekId: Annotated[str, d("The seek.")]
    matchId: Annotated[str, d("The match it found.")]


class FriendEvent(Answer):
    """Another player asked to be the player's friend (friendRequested: accept or decline it), or accepted the
    player's friend request (friendAccepted: they are friends now)."""

    id: ID
    type: Literal["friendRequested", "friendAccepted"]
    at: AT
    by: Annotated[str, d("The other player's id.")]
    handle: Annotated[str, d("The other player's handle then.")]


KINDS = (ReadyEvent, MatchFactsEvent, MatchEndedEvent, SeatTakenOverEvent, InvitedEvent, RematchEvent,
         SeekMatchedEvent, FriendEvent)


class MyEvent(RootModel[Annotated[ReadyEvent | MatchFactsEvent | MatchEndedEvent | SeatTakenOverEvent | InvitedEvent
                                  | RematchEvent | SeekMatchedEvent | FriendEvent, Field(discriminator="type")]]):
    """One event of the player's own stream (the data of a GET /v1/me/events message): its kind by `type`."""


class EventsTicket(Answer):
    """A one-time ticket that opens GET /v1/me/events?ticket= without an Authorization header."""

    ticket: Annotated[str, d("The ticket (send it as ?ticket=; used once).")]
    expiresIn: Annotated[int, d("Seconds it lives unless used.")]
    url: Annotated[str, d("The stream's path with the ticket (on this API's origin).")]


def covered() -> set[str]:
    """Every event type the union names (the tests hold it to FeedType's members and ready)."""
    return {t for kind in KINDS for t in kind.model_fields["type"].annotation.__args__}  # type: ignore[union-attr]

