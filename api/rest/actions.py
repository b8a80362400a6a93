"""REST play: submit an action (expectedVersion, Idempotency-Key) and read the events after a version."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from firebreak.api import labels
from firebreak.api.bounds import MAX_EVENTS_PAGE, MAX_IDEMPOTENCY_KEY
from firebreak.api.rest import callers
from firebreak.api.rest.convert import match_json
from firebreak.api.rest.matches import load, read
from firebreak.api.rest.problems import versioned
from firebreak.api.rest.requests import Act
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Param, Reply
from firebreak.domain.events import visible_to
from firebreak.matches.outcomes import OutcomeKind
from firebreak.matches.reading import Reading
from firebreak.matches.refusals import Refusal


async def act(call: Call) -> Reply:
    """Submit the caller's action at the version it expects; 200 with the new version, the caller's events and
    the match as the caller now sees it, else the refusal's status and problem."""
    context = call.context
    key = call.params["Idempotency-Key"]
    match_id = call.params["id"]
    caller = await callers.playing_caller(call)
    body = call.form(Act)
    outcome, after = await call.services.pipeline.act(match_id, caller, body.action, body.expectedVersion, key)
    call.services.metrics.act(outcome.kind)
    if outcome.kind is OutcomeKind.UNAUTHORIZED:
        await context.token_refused(caller)
    if outcome.kind is not OutcomeKind.ACCEPTED:
        raise versioned(outcome.refusal, outcome.message or "", outcome.version, outcome.answer_code)
    loaded = after or await load(call)  # a replayed outcome: the match as it stands now
    seat = loaded.seat_of(caller)
    assert outcome.version is not None
    answer = {"version": outcome.version, "events": labels.events(loaded, outcome.version, seat, outcome.events)}
    if minimal(call.params["Prefer"]):
        return Reply(answer, headers={"Preference-Applied": "return=minimal"})
    return Reply({**answer, "match": match_json(Reading.of(loaded, seat))})


def minimal(prefer: str | None) -> bool:
    """Whether a Prefer header (RFC 7240) asks for return=minimal."""
    return prefer is not None and any(part.split(";")[0].strip().lower() == "return=minimal"
                                      for part in prefer.split(","))


async def events(call: Call) -> Reply:
    """The stored steps after a version, redacted for the caller (a seat token or a seated player's credential,
    or none for a spectator)."""
    loaded = await read(call)
    viewer = await call.context.seat_in(loaded)
    limit = max(1, min(call.params["limit"], MAX_EVENTS_PAGE))
    after = min(max(0, call.params["afterVersion"]), MAX_VERSION)  # past any version: an empty page, not Redis's error
    rows = await call.services.store.events_after(loaded.id, after, limit)
    return Reply({"items": [{"version": v, "events": labels.events(loaded, v, viewer, visible_to(e, viewer))}
                            for v, e in rows]})


KEY = Annotated[str, Field(min_length=1, max_length=MAX_IDEMPOTENCY_KEY)]
IDEMPOTENCY_KEY = Param("Idempotency-Key", "header", KEY,
                        f"Optional, 1-{MAX_IDEMPOTENCY_KEY} characters: a resubmission with the same key (over REST "
                        "or GraphQL's idempotencyKey) answers the first outcome and never applies twice; out of "
                        "that: 422 BAD_IDEMPOTENCY_KEY.", code=Refusal.BAD_IDEMPOTENCY_KEY)
PREFER = Param("Prefer", "header", str,
               "Optional: return=minimal (RFC 7240) answers the version and events only, without the match (a "
               "cheaper answer for a client that reads the match another way).")
MAX_VERSION = 2**53  # no match reaches it; a stream id's part must stay within 64 bits
AFTER_VERSION = Param("afterVersion", "query", int, "Steps after this version.", default=0)
LIMIT = Param("limit", "query", int, f"At most this many steps (1-{MAX_EVENTS_PAGE}).",
              default=200)
ACT_EXAMPLE = {"action": {"type": "anAction", "note": "copied as is from legalActions"}, "expectedVersion": 12}

OPERATIONS = [
    Operation("POST", "/v1/matches/{id}/actions", "act", "play", "Submit an action",
              "Submit one of your legalActions as is, with the version you read it at, as the seat's token holder "
              "(or with the credential of the player the seat is bound to). "
              "Refusals change nothing: 409 STALE_VERSION (currentVersion in the body), 403 NOT_YOUR_TURN, 422 "
              "ILLEGAL_ACTION (or the title's more precise rules code), 409 MATCH_OVER / MATCH_NOT_STARTED, 409 "
              "SEAT_TAKEN_OVER (the service's bot plays the seat: POST .../reclaim first), 409 SEAT_RESIGNED, 404, "
              "401, 403 FORBIDDEN_SCOPE.", act, response="ActionAccepted", params=(PATH_ID, IDEMPOTENCY_KEY, PREFER),
              body=Act,
              example=ACT_EXAMPLE, auth=Auth.REQUIRED, write=True, headers=("Preference-Applied",),
              codes=(Refusal.STALE_VERSION, Refusal.NOT_YOUR_TURN, Refusal.ILLEGAL_ACTION, Refusal.BAD_IDEMPOTENCY_KEY,
                     Refusal.MATCH_NOT_FOUND, Refusal.MATCH_OVER, Refusal.MATCH_NOT_STARTED, Refusal.SEAT_TAKEN_OVER,
                     Refusal.SEAT_RESIGNED, Refusal.FORBIDDEN_SCOPE)),
    Operation("GET", "/v1/matches/{id}/events", "listEvents", "play", "Read the events after a version",
              "The stored steps after afterVersion, oldest first, each with the match's version after it and its "
              "events redacted for the caller; page on with the last version seen.", events,
              response="EventPage", params=(PATH_ID, AFTER_VERSION, LIMIT), auth=Auth.OPTIONAL,
              codes=(Refusal.MATCH_NOT_FOUND,)),
]
