"""REST: the signed-in player's data export, streamed (GraphQL's me { export } hands out a one-time ticket to it)."""

from __future__ import annotations

from starlette.responses import Response, StreamingResponse

from firebreak.api.account_export import PATH, document, redeem_ticket
from firebreak.api.ratelimit import rate_limited
from firebreak.api.rest import callers
from firebreak.api.rest.problems import player_refusal
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import Reason, Unauthenticated
from firebreak.players.records import Player


async def _player(call: Call) -> Player:
    """The player whose data is asked for: a one-time ticket's (taken by this call), else the session's."""
    ticket = call.params.get("ticket")
    if ticket is None:
        return (await callers.principal(call, session=True)).player
    call.context.check_not_blocked(credential=True)
    player_id = await redeem_ticket(call.services, ticket)
    player = None if player_id is None else await call.services.players.directory.get(player_id)
    if player is None:
        await call.context.auth_failed()
        raise player_refusal(Unauthenticated(Reason.INVALID))
    return player


async def export_me(call: Call) -> Reply | Response:
    """Everything kept about the signed-in player, as one JSON document written piece by piece."""
    player = await _player(call)
    verdict = await call.services.limits.export(player.id)
    if not verdict.allowed:  # each export reads the whole history: a player gets a few an hour
        raise rate_limited(verdict.retry_after)
    headers = {"Content-Disposition": f'attachment; filename="firebreak-{player.id}.json"',
               "Cache-Control": "no-store"}
    return StreamingResponse(document(call.services, player), media_type="application/json", headers=headers)


TICKET = Param("ticket", "query", str, "A one-time download ticket (me { export { url } } over GraphQL gives the "
                                       "URL): the credential of this one download, instead of the bearer one.")
OPERATIONS = [
    Operation("GET", PATH, "exportMyData", "players", "Download everything kept about me",
              "The signed-in player's data as one JSON document (format firebreak.player-export, version 1): "
              "profile, linked identities, live sessions and personal access tokens (ids, scopes and dates: never a "
              "token or its hash), ratings and every rating change, open invitations, seeks, push registrations, "
              "the events still kept and every match with its seats and result. Streamed: the document is written "
              "as it is read, a page of matches at a time. Needs a session (or the operator's JWT): a personal "
              "access token is refused (403 FORBIDDEN_SCOPE), since the export holds the whole account; or, "
              "instead of a bearer credential, a one-time ticket from GraphQL (?ticket=, used once, two minutes). "
              "A player downloads FIREBREAK_RATE_EXPORTS_PER_HOUR exports an hour after a burst of "
              "FIREBREAK_RATE_EXPORTS_BURST (429 RATE_LIMITED with Retry-After past that).",
              export_me, params=(TICKET,), auth=Auth.PLAYER, codes=(Refusal.FORBIDDEN_SCOPE, Refusal.RATE_LIMITED)),
]
