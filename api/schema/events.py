"""The signed-in player's own events: the myEvents subscription, me.events (past events, paged), and their types;
createEventsTicket, the one-time ticket that opens the REST stream without a header (api/stream_tickets.py).

Every event is one type implementing the MyEvent interface (id, type, at), with the public facts of its kind:
ids, titles, seats, versions, a result's winners: never a view, a hand or a token. Fetch what the player may see
of a match with the player's own credential (Query.match, me.matches).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from enum import Enum
from typing import Annotated, Any, cast

import strawberry
from graphql import GraphQLError

from firebreak.api import myevents, stream_tickets
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.context import Info, unauthenticated
from firebreak.api.metrics import subscribed
from firebreak.api.schema.match import EndReason
from firebreak.api.schema.mine import PageInfo
from firebreak.api.schema.problems import Unauthenticated as Refused
from firebreak.api.schema.problems import player_problem
from firebreak.matches.feed import FeedEvent, FeedType
from firebreak.players.errors import PlayerError, Unauthenticated
from firebreak.players.records import Principal


@strawberry.enum
class MyEventType(Enum):
    """What happened to the player."""

    READY = strawberry.enum_value(myevents.READY, description="The subscription is live (its first event once "
                                                             "caught up): every later event comes next.")
    # matches.feed.FeedType member for member (same names, same values)
    YOUR_TURN = strawberry.enum_value(FeedType.YOUR_TURN.value, description="The turn of a match passed to the "
                                                                            "player (once per turn, not per "
                                                                            "decision): read its view and legal "
                                                                            "actions.")
    MATCH_STARTED = strawberry.enum_value(FeedType.MATCH_STARTED.value, description="A match the player sits in "
                                                                                    "started.")
    MATCH_ENDED = strawberry.enum_value(FeedType.MATCH_ENDED.value, description="A match the player sits in ended.")
    SEAT_TAKEN_OVER = strawberry.enum_value(FeedType.SEAT_TAKEN_OVER.value,
                                            description="The player's clock ran out: the service's bot plays the "
                                                        "seat until the player reclaims it.")
    INVITED = strawberry.enum_value(FeedType.INVITED.value, description="Another player (or a match's host) invited "
                                                                        "the player to a match.")
    REMATCH_OFFERED = strawberry.enum_value(FeedType.REMATCH_OFFERED.value,
                                            description="Another person of a match the player played offers a "
                                                        "rematch: accept or decline it.")
    REMATCH_ACCEPTED = strawberry.enum_value(FeedType.REMATCH_ACCEPTED.value,
                                             description="Another person accepted the standing rematch offer.")
    REMATCH_DECLINED = strawberry.enum_value(FeedType.REMATCH_DECLINED.value,
                                             description="Another person declined the rematch offer: it is over.")
    REMATCH_EXPIRED = strawberry.enum_value(FeedType.REMATCH_EXPIRED.value,
                                            description="The rematch offer expired unanswered: it is over.")
    REMATCH_STARTED = strawberry.enum_value(FeedType.REMATCH_STARTED.value,
                                            description="Every person accepted: the rematch exists and has started.")
    FRIEND_REQUESTED = strawberry.enum_value(FeedType.FRIEND_REQUESTED.value,
                                             description="Another player asks to be the player's friend.")
    FRIEND_ACCEPTED = strawberry.enum_value(FeedType.FRIEND_ACCEPTED.value,
                                            description="A player accepted the player's friend request.")
    SEEK_MATCHED = strawberry.enum_value(FeedType.SEEK_MATCHED.value, description="The player's seek found a table: "
                                                                                  "the match has started.")


@strawberry.interface
class MyEvent:
    """One event of the player's own stream."""

    id: str = strawberry.field(description="The event's id: pass it as `after` (or SSE's Last-Event-ID) to resume "
                                           "after it.")
    type: MyEventType = strawberry.field(description="What happened.")
    at: float = strawberry.field(description="When (epoch seconds).")


@strawberry.type
class ReadyEvent(MyEvent):
    """The subscription is live: every event after this one's id (the cursor to resume from: the newest event's id,
    "0" while the player has none) comes next, so what the player does after it shows on the stream. Sent once, when
    caught up; never in me.events."""


@strawberry.type
class YourTurnEvent(MyEvent):
    """The turn of a match passed to the player: sent once each time it does, not for each decision the player
    makes in that turn. Read the match (its view, legalActions, version) and act; a later yourTurn of the same match
    means the turn came back."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    title: str = strawberry.field(description="Its title id.")
    seat: int = strawberry.field(description="The player's seat.")
    version: int = strawberry.field(description="The match's version then (act's expectedVersion).")


@strawberry.type
class MatchStartedEvent(MyEvent):
    """A match the player sits in started (its seats are all taken)."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    title: str = strawberry.field(description="Its title id.")
    seat: int = strawberry.field(description="The player's seat.")
    version: int = strawberry.field(description="The match's version then.")


@strawberry.type
class MatchEndedEvent(MyEvent):
    """A match the player sits in ended: why, and its winners (the public result)."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    title: str = strawberry.field(description="Its title id.")
    seat: int = strawberry.field(description="The player's seat.")
    version: int = strawberry.field(description="The match's final version.")
    reason: EndReason = strawberry.field(description="Why it ended.")
    winners: list[int] | None = strawberry.field(description="The winning seats, as the match's result names them "
                                                             "([] for an abandoned or cancelled match; null when "
                                                             "the result is not known).")


@strawberry.type
class SeatTakenOverEvent(MyEvent):
    """The player's clock ran out: the service's bot plays their seat until they reclaim it (reclaimSeat)."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    title: str = strawberry.field(description="Its title id.")
    seat: int = strawberry.field(description="The player's seat.")
    version: int = strawberry.field(description="The match's version then.")
    level: str | None = strawberry.field(description="The bot level that plays the seat now.")


@strawberry.type
class InvitedEvent(MyEvent):
    """The player is invited to a waiting match (answer with answerInvitation)."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    title: str = strawberry.field(description="Its title id.")
    by: strawberry.ID | None = strawberry.field(description="The inviting player (null: the match's host token).")


@strawberry.type
class RematchOfferedEvent(MyEvent):
    """Another person of a match the player played offers a rematch: accept it (acceptRematch) or decline it
    (declineRematch) before expiresAt; the rematch is made once every person accepted."""

    match_id: strawberry.ID = strawberry.field(description="The rematch's id (the match exists once every person "
                                                           "accepted).")
    of: strawberry.ID = strawberry.field(description="The finished match it follows (answer the offer on it).")
    title: str = strawberry.field(description="Its title id.")
    seat: int = strawberry.field(description="The seat it holds for the player.")
    by: int | None = strawberry.field(description="The finished match's seat that offered it.")
    expires_at: float | None = strawberry.field(description="When the offer expires (epoch seconds).")


@strawberry.type
class RematchAnsweredEvent(MyEvent):
    """The rematch offer of a match the player played moved on: accepted or declined by another person
    (rematchAccepted, rematchDeclined), expired (rematchExpired), or made (rematchStarted: the match exists)."""

    match_id: strawberry.ID = strawberry.field(description="The rematch's id.")
    of: strawberry.ID = strawberry.field(description="The finished match it follows.")
    title: str = strawberry.field(description="Its title id.")
    seat: int = strawberry.field(description="The seat it holds for the player.")
    by: int | None = strawberry.field(description="The finished match's seat that accepted or declined (null: "
                                                  "expired, started).")


@strawberry.type
class SeekMatchedEvent(MyEvent):
    """The player's seek found a table: the match has started."""

    seek_id: strawberry.ID = strawberry.field(description="The seek.")
    match_id: strawberry.ID = strawberry.field(description="The match it found.")


@strawberry.type
class FriendEvent(MyEvent):
    """Another player asked to be the player's friend (friendRequested: acceptFriend or declineFriend), or accepted
    the player's request (friendAccepted: they are friends now)."""

    by: strawberry.ID = strawberry.field(description="The other player's id.")
    handle: str = strawberry.field(description="The other player's handle then.")


def _match_facts(data: dict[str, Any]) -> dict[str, Any]:
    return {"match_id": strawberry.ID(str(data["matchId"])), "title": str(data["title"]), "seat": int(data["seat"]),
            "version": int(data["version"])}


REMATCH_ANSWERS = (FeedType.REMATCH_ACCEPTED, FeedType.REMATCH_DECLINED, FeedType.REMATCH_EXPIRED,
                   FeedType.REMATCH_STARTED)


def _rematch_facts(data: dict[str, Any]) -> dict[str, Any]:
    by = data.get("by")
    return {"match_id": strawberry.ID(str(data["matchId"])), "of": strawberry.ID(str(data["of"])),
            "title": str(data["title"]), "seat": int(data["seat"]), "by": None if by is None else int(by)}


def of(event: FeedEvent) -> MyEvent:
    """The GraphQL form of a feed event."""
    base: dict[str, Any] = {"id": event.id, "type": MyEventType(event.type.value), "at": event.at}
    data = event.data
    if event.type is FeedType.YOUR_TURN:
        return YourTurnEvent(**base, **_match_facts(data))
    if event.type is FeedType.MATCH_STARTED:
        return MatchStartedEvent(**base, **_match_facts(data))
    if event.type is FeedType.MATCH_ENDED:
        winners = data.get("winners")
        return MatchEndedEvent(**base, **_match_facts(data), reason=EndReason(data["reason"]),
                               winners=None if winners is None else [int(w) for w in winners])
    if event.type is FeedType.SEAT_TAKEN_OVER:
        return SeatTakenOverEvent(**base, **_match_facts(data), level=data.get("level"))
    if event.type is FeedType.INVITED:
        by = data.get("by")
        return InvitedEvent(**base, match_id=strawberry.ID(str(data["matchId"])), title=str(data["title"]),
                            by=None if by is None else strawberry.ID(str(by)))
    if event.type is FeedType.REMATCH_OFFERED:
        return RematchOfferedEvent(**base, **_rematch_facts(data), expires_at=data.get("expiresAt"))
    if event.type in REMATCH_ANSWERS:
        return RematchAnsweredEvent(**base, **_rematch_facts(data))
    if event.type in (FeedType.FRIEND_REQUESTED, FeedType.FRIEND_ACCEPTED):
        return FriendEvent(**base, by=strawberry.ID(str(data["by"])), handle=str(data.get("handle", "")))
    return SeekMatchedEvent(**base, seek_id=strawberry.ID(str(data["seekId"])),
                            match_id=strawberry.ID(str(data["matchId"])))


EVENT_TYPES = (ReadyEvent, YourTurnEvent, MatchStartedEvent, MatchEndedEvent, SeatTakenOverEvent, InvitedEvent,
               RematchOfferedEvent, RematchAnsweredEvent, SeekMatchedEvent, FriendEvent)
"""Every concrete event type (the schema lists them: no field returns them by name)."""


@strawberry.type
class MyEventEdge:
    """One event of a page and its cursor."""

    cursor: str = strawberry.field(description="The event's id: `after` for the events after it.")
    node: MyEvent = strawberry.field(description="The event.")


@strawberry.type
class MyEventConnection:
    """A page of the player's past events, oldest first."""

    edges: list[MyEventEdge] = strawberry.field(description="The events of this page, in order.")
    page_info: PageInfo = strawberry.field(description="The page's end cursor and whether more follow.")


def cursor_error(refused: myevents.CursorRefused) -> GraphQLError:
    """The GraphQL error of a refused cursor (code BAD_CURSOR or CURSOR_EXPIRED)."""
    return GraphQLError(refused.message, extensions={"code": refused.code.value})


async def my_events_page(info: Info, player: str, after: str | None, first: int) -> MyEventConnection:
    """A page of the player's past events (raise BAD_CURSOR, CURSOR_EXPIRED)."""
    first = max(1, min(first, MAX_PAGE))
    try:
        events, more = await myevents.page(info.context.services.store.redis, player, after, first)
    except myevents.CursorRefused as refused:
        raise cursor_error(refused) from None
    return MyEventConnection(edges=[MyEventEdge(cursor=e.id, node=of(e)) for e in events],
                             page_info=PageInfo(end_cursor=events[-1].id if events else None, has_next_page=more))


@strawberry.type
class EventsSubscription:
    """The player's own event stream."""

    @strawberry.subscription
    async def my_events(
        self, info: Info,
        after: Annotated[str | None, strawberry.argument(
            description="Resume after this event id (null: from now on; \"0\": from the oldest kept).")] = None,
    ) -> AsyncGenerator[MyEvent, None]:
        """Once caught up, a `ready` event (its id the cursor to resume from): from then on, what happens comes.
        The signed-in player's events (yourTurn, matchStarted, matchEnded, seatTakenOver, invited,
        rematchOffered, rematchAccepted, rematchDeclined, rematchExpired, rematchStarted, seekMatched) across their
        matches, as they happen; reconnect with the last id seen as `after` to get every later event once. The
        player comes from the connection_init payload ({"authorization": "Bearer ..."}): none or a bad one is error
        UNAUTHENTICATED; a bad `after` BAD_CURSOR; one older than the oldest event kept CURSOR_EXPIRED. The stream
        ends with error UNAUTHENTICATED when the credential expires or is revoked (sign in again, resume with the
        last id)."""
        context = info.context
        context.check_not_blocked()
        outcome = await context.player_or_refusal()
        if not isinstance(outcome, Principal):
            assert isinstance(outcome, Unauthenticated)
            raise unauthenticated(outcome)
        services = context.services
        player = outcome.player.id
        try:
            cursor = await myevents.start(services.store.redis, player, after)
        except myevents.CursorRefused as refused:
            raise cursor_error(refused) from None
        guard = myevents.Guard(context.recheck, myevents.expiry(context.bearer),
                               services.settings.events_recheck_seconds)
        with subscribed(services.metrics, "player"):
            async for item in myevents.follow(services.feeds, services.store.redis, player, cursor, guard):
                if isinstance(item, Unauthenticated):
                    raise unauthenticated(item)
                if isinstance(item, myevents.Ready):
                    yield ReadyEvent(id=item.cursor, type=MyEventType.READY, at=item.at)
                    continue
                yield of(item)


@strawberry.type
class EventsTicket:
    """A one-time ticket that opens the player's REST event stream without an Authorization header (a browser's
    EventSource): GET /v1/me/events?ticket=... It stands for the credential that asked for it (signing out, a
    revoked token or its expiry ends it, used or not) and works once, within expiresIn seconds."""

    ticket: str = strawberry.field(description="The ticket (send it as ?ticket=; kept only as its SHA-256).")
    expires_in: int = strawberry.field(description="Seconds it lives unless used.")
    url: str = strawberry.field(description="The stream's path with the ticket (on this API's origin).")


CreateEventsTicketResult = Annotated[EventsTicket | Refused, strawberry.union(
    "CreateEventsTicketResult", description="A stream ticket, or why none.")]


@strawberry.type
class EventsMutation:
    """The player's event stream's ticket."""

    @strawberry.mutation
    async def create_events_ticket(self, info: Info) -> CreateEventsTicketResult:
        """A one-time ticket (60 s) to open GET /v1/me/events?ticket= where no header can be sent; any player
        credential may ask (UNAUTHENTICATED without one)."""
        principal = await info.context.player_or_refusal()
        if isinstance(principal, PlayerError):
            return cast(Refused, player_problem(principal))
        ticket, ttl = await stream_tickets.issue(info.context.services, principal,
                                                 myevents.expiry(info.context.bearer))
        return EventsTicket(ticket=ticket, expires_in=ttl, url=f"/v1/me/events?ticket={ticket}")
