"""REST seeks: look for opponents, follow and cancel one's seeks (GraphQL's seek, me.seeks, cancelSeek)."""

from __future__ import annotations

import time
from typing import Any

from firebreak.api.rest import callers
from firebreak.api.rest import requests as R
from firebreak.api.rest.matches import CREATE_EXAMPLE
from firebreak.api.rest.problems import for_code
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.matches.refusals import Refusal
from firebreak.matchmaking import seeks as seeking
from firebreak.matchmaking.seeks import SeekError
from firebreak.matchmaking.tables import nudge

SEEKS_PATH = "/v1/seeks"


def seek_location(seek_id: str) -> str:
    """The path of a seek."""
    return f"{SEEKS_PATH}/{seek_id}"


def seek_json(seek: seeking.Seek, now: float) -> dict[str, Any]:
    """A seek as the REST surface shows it (GraphQL's Seek)."""
    return {"id": seek.id, "status": seek.shown_status(now).name, "title": seek.pool.title, "seats": seek.pool.seats,
            "options": seek.pool.options, "botsAfterSeconds": seek.bots_after, "createdAt": seek.created,
            "expiresAt": seek.expires, "endedAt": seek.ended, "matchId": seek.match_id, "seat": seek.seat}


async def place_seek(call: Call) -> Reply:
    """Put the signed-in player in the pool of a title, seat count and options; 201 with the seek."""
    caller = await callers.playing_caller(call)
    principal = await callers.principal(call)
    body = call.form(R.PlaceSeek)
    services = call.services
    try:
        rating = await seeking.seeker_rating(await services.database(), principal.player.id, body.title)
        seek = await services.seeks.create(principal.player.id, principal.player.name, body.title, body.seats,
                                           body.options, body.botsAfterSeconds, rating, caller.program)
    except SeekError as exc:
        raise for_code(exc.code, str(exc)) from None
    await nudge(services.seeks, services.scheduler.queue, seek.pool.id, services.settings.stall_seconds)
    return Reply(seek_json(seek, seek.created), 201, {"Location": seek_location(seek.id)})


async def read_seek(call: Call) -> Reply:
    """One of the signed-in player's seeks."""
    principal = await callers.principal(call)
    seek = await call.services.seeks.get(call.params["id"], principal.player.id)
    if seek is None:
        raise for_code(Refusal.SEEK_NOT_FOUND, "you have no seek with this id")
    return Reply(seek_json(seek, time.time()))


async def cancel_seek(call: Call) -> Reply:
    """Cancel one of the signed-in player's waiting seeks."""
    await callers.playing_caller(call)
    principal = await callers.principal(call)
    try:
        seek = await call.services.seeks.cancel(call.params["id"], principal.player.id)
    except SeekError as exc:
        raise for_code(exc.code, str(exc)) from None
    return Reply(seek_json(seek, seek.ended or seek.created))


async def list_seeks(call: Call) -> Reply:
    """The signed-in player's kept seeks, newest first."""
    principal = await callers.principal(call)
    now = time.time()
    return Reply({"items": [seek_json(seek, now) for seek in await call.services.seeks.of_player(principal.player.id)]})


# The seek's own operations (with the credential that placed it)
SEEK_LINKS = (("readSeek", "readSeek", (("id", "$response.body#/id"),)),
              ("cancelSeek", "cancelSeek", (("id", "$response.body#/id"),)))
SEEK_ID = Param("id", "path", str, "The seek's id.", required=True)
OPERATIONS = [
    Operation("POST", SEEKS_PATH, "placeSeek", "seeks", "Look for opponents",
              "Wait in the pool of this title, seat count and options until the workers seat the player at a table "
              "of compatible seekers (within a rating band that widens with the wait) and start the match; the "
              "seek then turns MATCHED with matchId and seat, and the match shows in GET /v1/me/matches. With "
              "botsAfterSeconds, a table still short of players after that wait is filled with the title's bots. "
              "Needs a signed-in player; one seek per pool and a few open at most (409 TOO_MANY_SEEKS); it expires "
              "after the service's seek lifetime.", place_seek, success=201, response="Seek", body=R.PlaceSeek,
              example={**CREATE_EXAMPLE, "botsAfterSeconds": 30}, auth=Auth.PLAYER, write=True,
              codes=(Refusal.UNKNOWN_TITLE, Refusal.BAD_OPTIONS, Refusal.BAD_BOTS_AFTER, Refusal.TOO_MANY_SEEKS,
                     Refusal.FORBIDDEN_SCOPE), headers=("Location",), links=SEEK_LINKS),
    Operation("GET", "/v1/seeks/{id}", "readSeek", "seeks", "Read a seek",
              "One of the signed-in player's seeks: WAITING, MATCHING (its table is being made into a match), "
              "MATCHED (matchId, seat), CANCELLED or EXPIRED. Ended seeks stay readable for a day.", read_seek,
              response="Seek", params=(SEEK_ID,), auth=Auth.PLAYER, codes=(Refusal.SEEK_NOT_FOUND,)),
    Operation("DELETE", "/v1/seeks/{id}", "cancelSeek", "seeks", "Cancel a seek",
              "Cancel one of the signed-in player's waiting seeks; one no longer waiting is 409 SEEK_NOT_WAITING "
              "(nothing changed).", cancel_seek, response="Seek", params=(SEEK_ID,), auth=Auth.PLAYER, write=True,
              codes=(Refusal.SEEK_NOT_FOUND, Refusal.SEEK_NOT_WAITING, Refusal.FORBIDDEN_SCOPE)),
    Operation("GET", "/v1/me/seeks", "listMySeeks", "seeks", "List my seeks",
              "The signed-in player's seeks, newest first: the open ones and those ended within the last day.",
              list_seeks, response="SeekList", auth=Auth.PLAYER),
]
