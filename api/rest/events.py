"""REST: the signed-in player's own events as Server-Sent Events (GET /v1/me/events; GraphQL's myEvents).

Each event is one SSE message: `id` the event's id (the resume cursor), `event` its type, `data` its JSON (the
MyEvent schema). A reconnect with the Last-Event-ID header (what an EventSource sends by itself) or ?after= gets
every later event once; neither is "from now on". Comments keep an idle connection alive. When the credential
expires or is revoked, a last message `event: error` says why (data: {"code": "UNAUTHENTICATED", "reason": ...})
and the stream ends: sign in again and reconnect with the last id.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.responses import Response

from firebreak.api import myevents
from firebreak.api.metrics import subscribed
from firebreak.api.rest import callers
from firebreak.api.rest.problems import problem
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.api.unavailable import MESSAGE as UNAVAILABLE_MESSAGE
from firebreak.matches import connections
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import Unauthenticated

PING_SECONDS = 15  # a keep-alive comment on an idle stream this often
ERROR = "error"    # the event name of the last message of a stream that ends (its data says why)


def _message(data: dict[str, object], event: str, event_id: str | None = None) -> ServerSentEvent:
    return ServerSentEvent(data=json.dumps(data, separators=(",", ":")), event=event, id=event_id)


async def stream_my_events(call: Call) -> Reply | Response:
    """The player's events after the cursor, then each new one, as an SSE stream."""
    principal = await callers.principal(call)
    player = principal.player.id
    services = call.services
    after = call.request.headers.get("last-event-id") or call.params.get("after")
    try:
        cursor = await myevents.start(services.store.redis, player, after)
    except myevents.CursorRefused as refused:
        raise problem(refused.code, refused.message) from None
    guard = myevents.Guard(call.context.recheck, myevents.expiry(call.context.bearer),
                           services.settings.events_recheck_seconds)

    async def messages() -> AsyncIterator[ServerSentEvent]:
        try:
            with subscribed(services.metrics, "player"):
                async for item in myevents.follow(services.feeds, services.store.redis, player, cursor, guard):
                    if isinstance(item, Unauthenticated):
                        yield _message({"code": Refusal.UNAUTHENTICATED.value, "reason": item.reason.value}, ERROR)
                        return
                    yield _message(item.to_json(), item.type.value, item.id)
        except connections.UNAVAILABLE:
            yield _message({"code": Refusal.SERVICE_UNAVAILABLE.value, "detail": UNAVAILABLE_MESSAGE}, ERROR)

    return EventSourceResponse(messages(), ping=PING_SECONDS, headers={"X-Accel-Buffering": "no"})


AFTER = Param("after", "query", str, "Resume after this event id (\"0\": from the oldest kept; left "
                                                   "out: from now on). Last-Event-ID wins when both are sent.")
LAST_EVENT_ID = Param("Last-Event-ID", "header", str, "The id of the last event received (an "
                                                                    "EventSource sends it when it reconnects).")
OPERATIONS = [
    Operation("GET", "/v1/me/events", "streamMyEvents", "players", "Follow my events (Server-Sent Events)",
              "The signed-in player's events as a text/event-stream: yourTurn, matchStarted, matchEnded, "
              "seatTakenOver, invited, rematchOffered, seekMatched; each message's id is the event's id, its event "
              "name the type, its data the event's JSON (schema MyEvent: ids and public facts only). Resume with "
              "Last-Event-ID (or ?after=) to get every later event once; none: from now on. A cursor that is not one "
              "of the player's events: 422 BAD_CURSOR; one older than the oldest kept: 410 CURSOR_EXPIRED. The "
              "stream ends with an `error` event when the credential expires or is revoked.",
              stream_my_events, response="MyEvent", media="text/event-stream", params=(AFTER, LAST_EVENT_ID),
              auth=Auth.PLAYER, codes=(Refusal.BAD_CURSOR, Refusal.CURSOR_EXPIRED)),
]
