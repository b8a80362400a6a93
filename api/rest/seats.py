"""REST seats: take a seat as a person, seat a bot, and read who sits in a seat."""

from __future__ import annotations

from firebreak.api.rest import callers
from firebreak.api.rest import requests as R
from firebreak.api.rest.convert import seat_json
from firebreak.api.rest.matches import load, location
from firebreak.api.rest.problems import for_code, problem
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Param, Reply
from firebreak.matches.lobby import LobbyError
from firebreak.matches.reading import Reading
from firebreak.matches.refusals import Refusal


def seat_location(match_id: str, seat: int) -> str:
    """The path of a seat."""
    return f"{location(match_id)}/seats/{seat}"


async def join_match(call: Call) -> Reply:
    """Take a seat as a person; 201 with the seat's token (shown once). With a player credential the seat is bound
    to the player (its name by default)."""
    caller = await callers.playing_caller(call)
    body = call.form(R.JoinMatch)
    name = body.name
    if name is None and caller.player is not None:
        principal = await call.context.principal()
        name = None if principal is None else principal.player.name
    try:
        seated = await call.services.lobby.join(call.params["id"], body.seat, name, caller.player,
                                                caller.program, token=caller.token)
    except LobbyError as exc:
        raise for_code(exc.code, str(exc)) from None
    assert seated.token is not None
    return Reply({"matchId": seated.match_id, "seat": seated.seat, "token": seated.token, "started": seated.started,
                  "player": caller.player}, 201, {"Location": seat_location(seated.match_id, seated.seat)})


async def add_bot(call: Call) -> Reply:
    """Seat a bot (the host token, the creator's credential, a seat token of the match or a seated player's
    credential as the bearer token); 201."""
    context = call.context
    body = call.form(R.AddBot)
    level = body.level
    caller = await callers.playing_caller(call)
    try:
        seated = await call.services.lobby.add_bot(call.params["id"], body.seat, level, caller)
    except LobbyError as exc:
        if exc.code == Refusal.UNAUTHORIZED:
            await context.token_refused(caller)
        raise for_code(exc.code, str(exc)) from None
    return Reply({"matchId": seated.match_id, "seat": seated.seat, "level": level, "started": seated.started},
                 201, {"Location": seat_location(seated.match_id, seated.seat)})


async def get_seat(call: Call) -> Reply:
    """Who sits in a seat (never their token)."""
    loaded = await load(call)
    seat = call.params["seat"]
    if not 0 <= seat < loaded.seat_count:
        raise problem(Refusal.SEAT_NOT_FOUND, f"seats of this match are 0-{loaded.seat_count - 1}")
    found = Reading.of(loaded, None).seats()[seat]
    player = None if found.player is None else await call.services.players.directory.get(found.player)
    return Reply({**seat_json(found), "handle": None if player is None else player.handle})


# What the holder of a new seat does next: act (the match starts once every seat is taken), read the match as the
# seat, resign, reclaim or leave it; a seat, human or bot, can be read.
SEATED_ID = ("id", "$response.body#/matchId")
SEAT_TOKEN = ("header.Authorization", "Bearer {$response.body#/token}")
READ_SEAT = ("getSeat", "getSeat", (SEATED_ID, ("seat", "$response.body#/seat")))
JOINED_LINKS = (("act", "act", (SEATED_ID, SEAT_TOKEN)), ("getMatchAsSeat", "getMatch", (SEATED_ID, SEAT_TOKEN)),
                ("resign", "resign", (SEATED_ID, SEAT_TOKEN)), ("reclaimSeat", "reclaimSeat", (SEATED_ID, SEAT_TOKEN)),
                ("leaveSeat", "leaveSeat", (SEATED_ID, SEAT_TOKEN)), READ_SEAT)
SEAT = Param("seat", "path", int, "The seat number.", required=True)
OPERATIONS = [
    Operation("POST", "/v1/matches/{id}/seats", "joinMatch", "seats", "Take a seat",
              "Take a seat as a person. The token in the answer is a credential of the seat, shown only this once: "
              "send it as Authorization: Bearer <token>. Sent with a player's credential, the seat is bound to the "
              "player (whose credential then acts for it from any device; one seat per player per match: 409 "
              "ALREADY_SEATED) and the name defaults to the player's.", join_match, success=201,
              response="SeatJoined", params=(PATH_ID,), body=R.JoinMatch, example={"name": "ann"}, write=True,
              auth=Auth.OPTIONAL,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.SEAT_TAKEN, Refusal.MATCH_STARTED, Refusal.BAD_SEAT,
                     Refusal.ALREADY_SEATED, Refusal.FORBIDDEN_SCOPE, Refusal.RATED_NEEDS_PLAYER,
                     Refusal.NOT_ACCEPTED),
              headers=("Location",), links=JOINED_LINKS),
    Operation("POST", "/v1/matches/{id}/bots", "addBot", "seats", "Seat a bot",
              "Seat a bot of one of the title's levels; needs the match's host token (or the credential of the "
              "player who created it, a seat token, or the credential of a player seated in it) as the bearer "
              "token.", add_bot, success=201,
              response="BotAdded", params=(PATH_ID,), body=R.AddBot,
              example={"level": "greedy"}, auth=Auth.REQUIRED, write=True,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.SEAT_TAKEN, Refusal.MATCH_STARTED, Refusal.BAD_SEAT,
                     Refusal.UNKNOWN_BOT_LEVEL, Refusal.FORBIDDEN_SCOPE),
              headers=("Location",), links=(READ_SEAT,)),
    Operation("GET", "/v1/matches/{id}/seats/{seat}", "getSeat", "seats", "Read a seat",
              "Who sits in a seat: taken or not, the name, human or bot, the bot level.", get_seat,
              response="SeatInfo", params=(PATH_ID, SEAT),
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.SEAT_NOT_FOUND)),
]
