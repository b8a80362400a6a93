"""REST rematch: play an over match again (GraphQL's rematch)."""

from __future__ import annotations

from firebreak.api.rest import callers
from firebreak.api.rest.convert import match_json
from firebreak.api.rest.matches import location
from firebreak.api.rest.problems import for_code, problem
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Reply
from firebreak.matches.lobby import LobbyError
from firebreak.matches.reading import Reading
from firebreak.matches.refusals import Refusal
from firebreak.matches.rematch import Rematches


async def rematch(call: Call) -> Reply:
    """The rematch of an over match (the same for every caller); 200 with its id, the caller's seat and the match."""
    context = call.context
    context.check_not_blocked()
    caller = await callers.playing_caller(call)
    try:
        rematched = await Rematches(call.services.lobby).rematch(call.params["id"], caller)
    except LobbyError as exc:
        if exc.code == Refusal.UNAUTHORIZED:
            await context.token_refused(caller)
        raise for_code(exc.code, str(exc)) from None
    loaded = await call.services.store.load(rematched.match_id)
    if loaded is None:
        raise problem(Refusal.MATCH_NOT_FOUND, "the rematch has expired")
    return Reply({"matchId": rematched.match_id, "seat": rematched.seat,
                  "match": match_json(Reading.of(loaded, loaded.seat_of(caller)))},
                 headers={"Location": location(rematched.match_id)})


OPERATIONS = [
    Operation("POST", "/v1/matches/{id}/rematch", "rematch", "matches", "Play an over match again",
              "A new match of the same title, options, clock and seat count with the same occupants (bots of the "
              "same levels, the same players, and each person's seat token of the old match working in the new "
              "one), the seat order rotated by one (old seat i sits at (i + 1) mod seatCount); it starts at once. "
              "Asked by any seat holder of the over match (its seat token or player credential); every caller, "
              "however many and wherever, gets the same match, and GET /v1/matches/{id} of the old one shows it "
              "as rematch.", rematch, response="Rematched", params=(PATH_ID,), auth=Auth.REQUIRED, write=True,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.MATCH_NOT_OVER, Refusal.FORBIDDEN_SCOPE),
              headers=("Location",)),
]
