"""REST: the signed-in player's own events as Server-Sent Events (GET /v1/me/events; GraphQL's myEvents), and the
one-time ticket that opens the stream without an Authorization header (POST /v1/me/events/ticket).

Each event is one SSE message: `id` the event's id (the resume cursor), `event` its type, `data` its JSON (the
MyEvent schema). Once caught up, the stream sends `event: ready` (data {"id", "type": "ready", "at"}, its id the
cursor to resume from): from then on every new event comes. A reconnect with the Last-Event-ID header (what an
EventSource sends by itself) or ?after= gets every later event once; neither is "from now on". Comments keep an
idle connection alive. When the credential expires or is revoked, a last message `event: error` says why (data:
{"code": "UNAUTHENTICATED", "reason": ...}) and the stream ends: sign in again and reconnect with the last id.

A browser's EventSource cannot send a header: it opens the stream with ?ticket= (api/stream_tickets.py), which
stands for the credential it was made from. A credential itself in the URL (?access_token=, or a token as the
ticket) is refused: 401 UNAUTHENTICATED, reason malformed.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.responses import Response

from firebreak.api import myevents, stream_tickets
from firebreak.api.metrics import subscribed
from firebreak.api.rest import callers
from firebreak.api.rest.problems import player_refusal, problem
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.api.unavailable import MESSAGE as UNAVAILABLE_MESSAGE
from firebreak.matches import connections
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import Unauthenticated

PING_SECONDS = 15  # a keep-alive comment on an idle stream this often
ERROR = "error"    # the event name of the last message of a stream that ends (its data says why)


def _message(data: dict[str, object], event: str, event_id: str | None = None) -> ServerSentEvent:
    return ServerSentEvent(data=json.dumps(data, separators=(",", ":")), event=event, id=event_id)


async def _follower(call: Call) -> tuple[str, myevents.Guard]:
    """Whose stream this is and what keeps checking its credential: a ticket's (taken by this call), else the
    bearer credential's (raise UNAUTHENTICATED)."""
    services = call.services
    every = services.settings.events_recheck_seconds
    if IN_URL in call.request.query_params:
        call.context.check_not_blocked(credential=True)
        await call.context.auth_failed()
        raise player_refusal(stream_tickets.CredentialInUrl())
    ticket = call.params.get("ticket")
    if ticket is None:
        principal = await callers.principal(call)
        return principal.player.id, myevents.Guard(call.context.recheck, myevents.expiry(call.context.bearer), every)
    call.context.check_not_blocked(credential=True)
    try:
        held = await stream_tickets.redeem(services, ticket)
    except Unauthenticated as refused:
        await call.context.auth_failed()
        raise player_refusal(refused) from None

    async def recheck() -> Unauthenticated | None:
        return await stream_tickets.recheck(services, held)

    return held.player, myevents.Guard(recheck, held.expires, every)


async def stream_my_events(call: Call) -> Reply | Response:
    """Ready (once caught up on the events after the cursor), then each new event, as an SSE stream."""
    player, guard = await _follower(call)
    services = call.services
    after = call.request.headers.get("last-event-id") or call.params.get("after")
    try:
        cursor = await myevents.start(services.store.redis, player, after)
    except myevents.CursorRefused as refused:
        raise problem(refused.code, refused.message) from None

    async def messages() -> AsyncIterator[ServerSentEvent]:
        try:
            with subscribed(services.metrics, "player"):
                async for item in myevents.follow(services.feeds, services.store.redis, player, cursor, guard):
                    if isinstance(item, Unauthenticated):
                        yield _message({"code": Refusal.UNAUTHENTICATED.value, "reason": item.reason.value}, ERROR)
                        return
                    if isinstance(item, myevents.Ready):
                        yield _message(item.to_json(), myevents.READY, item.cursor)
                        continue
                    yield _message(item.to_json(), item.type.value, item.id)
        except connections.UNAVAILABLE:
            yield _message({"code": Refusal.SERVICE_UNAVAILABLE.value, "detail": UNAVAILABLE_MESSAGE}, ERROR)

    return EventSourceResponse(messages(), ping=PING_SECONDS, headers={"X-Accel-Buffering": "no"})


async def create_events_ticket(call: Call) -> Reply:
    """A one-time ticket to open the caller's event stream (GET /v1/me/events?ticket=); 201."""
    principal = await callers.principal(call)
    ticket, ttl = await stream_tickets.issue(call.services, principal, myevents.expiry(call.context.bearer))
    return Reply({"ticket": ticket, "expiresIn": ttl, "url": f"{PATH}?ticket={ticket}"}, 201)


PATH = "/v1/me/events"
IN_URL = "access_token"  # RFC 6750's query parameter for a bearer token: never taken
TICKET = Param("ticket", "query", str, "A one-time stream ticket (POST /v1/me/events/ticket): the credential of "
                                       "this stream instead of Authorization, for an EventSource (used once, within "
                                       "a minute). Never a token itself: a credential in the URL is refused.")
AFTER = Param("after", "query", str, "Resume after this event id (\"0\": from the oldest kept; left "
                                                   "out: from now on). Last-Event-ID wins when both are sent.")
LAST_EVENT_ID = Param("Last-Event-ID", "header", str, "The id of the last event received (an "
                                                                    "EventSource sends it when it reconnects).")
OPERATIONS = [
    Operation("GET", PATH, "streamMyEvents", "players", "Follow my events (Server-Sent Events)",
              "The signed-in player's events as a text/event-stream: yourTurn (the turn passed to the player: read "
              "the match's view and legal actions; not sent again for each decision of the same turn), "
              "matchStarted, matchEnded, seatTakenOver, invited, rematchOffered (and its answers), seekMatched; each "
              "message's id is the event's id, its event name the type, its data the event's JSON (schema MyEvent: "
              "ids and public facts only). Once caught up, a `ready` message (its id the cursor to resume from) "
              "says the stream is live: what happens after it comes on the stream, so act after `ready`. Resume "
              "with Last-Event-ID (or ?after=) to get every later event once; none: from now on. A cursor that is "
              "not one of the player's events: 422 BAD_CURSOR; one older than the oldest kept: 410 CURSOR_EXPIRED. "
              "Authorization, or ?ticket= from POST /v1/me/events/ticket (a browser's EventSource); a credential "
              "in the URL (?access_token=, a token as the ticket) is refused (401 UNAUTHENTICATED, reason "
              "malformed), as is a ticket used, expired or unknown (401). The stream ends with an `error` event "
              "when the credential (the ticket's too) expires or is revoked: reconnect with a fresh credential or "
              "ticket and Last-Event-ID.",
              stream_my_events, response="MyEvent", media="text/event-stream", params=(AFTER, LAST_EVENT_ID, TICKET),
              auth=Auth.PLAYER, codes=(Refusal.BAD_CURSOR, Refusal.CURSOR_EXPIRED)),
    Operation("POST", f"{PATH}/ticket", "createEventsTicket", "players", "A one-time ticket to my event stream",
              "A short-lived (60 s), single-use ticket that opens GET /v1/me/events?ticket= without an "
              "Authorization header (a browser's EventSource cannot send one). It stands for the credential that "
              "asked for it: signing out (here or everywhere), revoking the token or its expiry ends it, used or "
              "not, and ends the stream it opened. Kept as its SHA-256 only.",
              create_events_ticket, success=201, response="EventsTicket", auth=Auth.PLAYER, write=True),
]
