"""REST export: a finished match as one self-contained JSON document that replays to the same result."""

from __future__ import annotations

from firebreak.api.leaderboards import exported
from firebreak.api.rest.matches import read
from firebreak.api.rest.problems import problem
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Reply
from firebreak.archive.records import NotArchivable
from firebreak.matches.refusals import Refusal


async def export_match(call: Call) -> Reply:
    """The export of an over match (from Redis, or from the archive once Redis let it go), to whoever may read
    the match: no credential (a spectator), a seat's token, the host token or a player's credential; any other
    token is refused as getMatch refuses it. 409 MATCH_NOT_OVER before the match is over."""
    loaded = await read(call)
    await call.context.seat_in(loaded)  # the same rule as reading the match: a token not of this match is refused
    try:
        return Reply(await exported(call.services, loaded))
    except NotArchivable as exc:
        raise problem(Refusal.MATCH_NOT_OVER, str(exc)) from None


OPERATIONS = [
    Operation("GET", "/v1/matches/{id}/export", "exportMatch", "matches", "Export a finished match",
              "A self-contained JSON document of an over match (format firebreak.match-export, version 1): title, "
              "options, seed, seatCount, seats (a player's id, a bot's level, or an anonymous person), the times, "
              "endReason, finalVersion, the whole log of steps in order, the result and the rating changes it made "
              "(ratingChanges: by seat; empty for a match that was not rated). Played through the title's engine "
              "from the seed, the log gives the same result. Public facts only (no token, no event a "
              "spectator may not see); served from the archive once the match has left Redis.",
              export_match, response="MatchExport", params=(PATH_ID,), auth=Auth.OPTIONAL,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.MATCH_NOT_OVER)),
]
