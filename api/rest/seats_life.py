"""REST: the life of a seat (resign, reclaim, leave, cancel), as GraphQL's mutations of the same names."""

from __future__ import annotations

from firebreak.api.rest.convert import match_json
from firebreak.api.rest.matches import load
from firebreak.api.rest.problems import problem, versioned
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Reply
from firebreak.matches.reading import Reading
from firebreak.matches.refusals import Refusal
from firebreak.matches.seatlife import NO_CREDENTIAL, NO_SEAT, SeatError
from firebreak.matches.store import Loaded


async def caller(call: Call) -> tuple[Loaded, int | None]:
    """The match and the caller's seat (None: the host token), resolved by Context.seat_in; no credential: 401."""
    loaded = await load(call)
    seat = await call.context.seat_in(loaded)
    if not call.context.presented:
        raise problem(Refusal.UNAUTHORIZED, NO_CREDENTIAL)
    return loaded, seat


async def seat_of_caller(call: Call) -> int:
    """The caller's seat; the host token (a spectator) is refused 401."""
    _loaded, seat = await caller(call)
    if seat is None:
        raise problem(Refusal.UNAUTHORIZED, NO_SEAT)
    return seat


async def _match_now(call: Call) -> dict[str, object]:
    loaded = await load(call)
    return match_json(Reading.of(loaded, loaded.seat_of(await call.context.caller())))


async def resign(call: Call) -> Reply:
    """Resign the caller's seat; 200 with the new version, whether the match ended, and the match."""
    seat = await seat_of_caller(call)
    try:
        step = await call.services.seat_life.resign(call.params["id"], seat)
    except SeatError as exc:
        raise versioned(exc.code, str(exc), exc.version) from None
    return Reply({"matchId": step.match_id, "seat": seat, "version": step.version, "matchEnded": step.ended,
                  "match": await _match_now(call)})


async def reclaim(call: Call) -> Reply:
    """Take back the caller's taken-over seat; 200 with the new version and the match."""
    seat = await seat_of_caller(call)
    try:
        step = await call.services.seat_life.reclaim(call.params["id"], seat)
    except SeatError as exc:
        raise versioned(exc.code, str(exc), exc.version) from None
    return Reply({"matchId": step.match_id, "seat": seat, "version": step.version, "match": await _match_now(call)})


async def leave(call: Call) -> Reply:
    """Free the caller's seat of a waiting match; 200."""
    seat = await seat_of_caller(call)
    try:
        await call.services.seat_life.leave(call.params["id"], seat)
    except SeatError as exc:
        raise versioned(exc.code, str(exc), exc.version) from None
    return Reply({"matchId": call.params["id"], "seat": seat})


async def cancel(call: Call) -> Reply:
    """Call off a waiting match (its creator: the host token or the player who created it); 200."""
    loaded, _seat = await caller(call)
    if not loaded.is_creator(await call.context.caller()):
        raise problem(Refusal.NOT_CREATOR, "only the match's creator (its host token, or the player who created it) "
                                           "may cancel it")
    try:
        await call.services.seat_life.cancel(loaded.id)
    except SeatError as exc:
        raise versioned(exc.code, str(exc), exc.version) from None
    return Reply({"matchId": loaded.id})


OPERATIONS = [
    Operation("POST", "/v1/matches/{id}/resign", "resign", "seats", "Resign",
              "Resign the caller's seat (its seat token, or the credential of the player it is bound to) of an "
              "active match: the seat stops being theirs. When at most one person would be left the match ends at "
              "once (endReason RESIGNED; the title ranks the seats that did not resign as the match stood); "
              "otherwise the service's bot plays the seat to the end and it ranks after every seat that did not "
              "resign. One compare-and-set step: resigning twice is 409 SEAT_RESIGNED, after the end 409 MATCH_OVER, "
              "before the start 409 MATCH_NOT_STARTED (leave instead); nothing changes.", resign,
              response="Resignation", params=(PATH_ID,), auth=Auth.REQUIRED, write=True,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.MATCH_NOT_STARTED, Refusal.MATCH_OVER, Refusal.SEAT_RESIGNED,
                     Refusal.STALE_VERSION)),
    Operation("POST", "/v1/matches/{id}/reclaim", "reclaimSeat", "seats", "Reclaim a taken-over seat",
              "Take back the caller's seat, which the service's bot plays (at bot speed) since its clock ran out; "
              "its clock restarts at 0 + the increment, a per-move limit in full. A seat its owner plays is 409 "
              "NOT_TAKEN_OVER; a resigned one 409 SEAT_RESIGNED.", reclaim, response="SeatReclaimed",
              params=(PATH_ID,), auth=Auth.REQUIRED, write=True,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.MATCH_NOT_STARTED, Refusal.MATCH_OVER, Refusal.SEAT_RESIGNED,
                     Refusal.NOT_TAKEN_OVER, Refusal.STALE_VERSION)),
    Operation("POST", "/v1/matches/{id}/leave", "leaveSeat", "seats", "Leave a waiting match",
              "Free the caller's seat of a match that has not started: the seat is open again and its token stops "
              "working. Once started: 409 MATCH_STARTED (resign instead).", leave, response="SeatLeft",
              params=(PATH_ID,), auth=Auth.REQUIRED, write=True,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.MATCH_STARTED)),
    Operation("POST", "/v1/matches/{id}/cancel", "cancelMatch", "seats", "Cancel a waiting match",
              "Call off a match that has not started, as its creator (the host token, or the credential of the "
              "player who created it): it is over with endReason CANCELLED and leaves the lobby. Anyone else: 403 "
              "NOT_CREATOR; once started: 409 MATCH_STARTED.", cancel, response="MatchCancelled", params=(PATH_ID,),
              auth=Auth.REQUIRED, write=True,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.NOT_CREATOR, Refusal.MATCH_STARTED)),
]
