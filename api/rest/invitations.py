"""REST invitations and private matches: invite players by id or handle, list and answer one's invitations, and join a
private match by its invite code (GraphQL's invitePlayers, me.invitations, answerInvitation, joinMatch(code))."""

from __future__ import annotations

from typing import Any

from firebreak.api.rest import callers
from firebreak.api.rest import requests as R
from firebreak.api.rest.convert import match_json
from firebreak.api.rest.problems import for_code, problem
from firebreak.api.rest.seats import seat_location
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Param, Reply
from firebreak.matches import invite_codes
from firebreak.matches.invitations import Invitation
from firebreak.matches.lobby import LobbyError
from firebreak.matches.reading import Reading
from firebreak.matches.refusals import Refusal
from firebreak.players.invitations import Listed


def sender_json(invitation: Invitation) -> dict[str, Any] | None:
    """Who sent an invitation (None: the host token's holder)."""
    return None if invitation.by is None else {"id": invitation.by, "name": invitation.by_name}


def listed_sender_json(item: Listed) -> dict[str, Any] | None:
    """Who sent a listed invitation, with the inviter's handle (None: the host token's holder)."""
    sender = sender_json(item.invitation)
    return None if sender is None else {**sender, "handle": item.by_handle}


async def invite_players(call: Call) -> Reply:
    """Invite players by id to a waiting match (the host token, or the player who created it); 201."""
    call.context.check_not_blocked()
    if not call.context.presented:  # no credential at all: 401, as every operation that needs one
        raise problem(Refusal.UNAUTHORIZED, "inviting needs the match's host token or the player who created it")
    caller = await callers.playing_caller(call)
    try:
        body = call.form(R.InvitePlayers)
        sent = await call.services.invitations.invite(call.params["id"], caller, body.playerIds, body.handles)
    except LobbyError as exc:
        if exc.code == Refusal.NOT_CREATOR:
            await call.context.token_refused(caller)
        raise for_code(exc.code, str(exc)) from None
    return Reply({"matchId": call.params["id"], "playerIds": [i.player for i in sent], "invitedAt": sent[0].at},
                 201)


async def list_invitations(call: Call) -> Reply:
    """The signed-in player's open invitations, newest first."""
    principal = await callers.principal(call)
    listed = await call.services.invitations.listing(principal.player.id)
    return Reply({"items": [{"match": match_json(Reading.of(item.match, None)), "from": listed_sender_json(item),
                             "invitedAt": item.invitation.at} for item in listed]})


async def answer_invitation(call: Call) -> Reply:
    """Accept (a seat bound to the player, its token shown once) or decline an invitation."""
    caller = await callers.playing_caller(call)
    principal = await callers.principal(call)
    body = call.form(R.AnswerInvitation)
    name = body.name or principal.player.name
    try:
        seated = await call.services.invitations.answer(call.params["matchId"], principal.player.id,
                                                         body.accept, name, caller.program)
    except LobbyError as exc:
        raise for_code(exc.code, str(exc)) from None
    return Reply({"matchId": call.params["matchId"], "accepted": seated is not None,
                  "seat": None if seated is None else seated.seat, "token": None if seated is None else seated.token,
                  "started": seated is not None and seated.started})


async def join_by_code(call: Call) -> Reply:
    """Take a seat of a private match by its invite code; 201 with the seat's token (shown once)."""
    context = call.context
    context.check_not_blocked(credential=True)
    caller = await callers.playing_caller(call)
    body = call.form(R.JoinByCode)
    found = await invite_codes.match_of(call.services.store.redis, body.code)
    if found is None:
        await context.auth_failed()
        raise problem(Refusal.BAD_INVITE_CODE, "no waiting match has this code")
    name = body.name
    if name is None and caller.player is not None:
        principal = await context.principal()
        name = None if principal is None else principal.player.name
    try:
        seated = await call.services.lobby.join(found, body.seat, name, caller.player, caller.program,
                                                by_code=True)
    except LobbyError as exc:
        raise for_code(exc.code, str(exc)) from None
    assert seated.token is not None
    return Reply({"matchId": seated.match_id, "seat": seated.seat, "token": seated.token, "started": seated.started,
                  "player": caller.player}, 201, {"Location": seat_location(seated.match_id, seated.seat)})


MATCH_ID = Param("matchId", "path", str, "The id of the match of the invitation.", required=True)
OPERATIONS = [
    Operation("POST", "/v1/matches/{id}/invitations", "invitePlayers", "invitations", "Invite players",
              "Invite players by id (playerIds) or handle (handles) to a waiting match, all or none (1 to 20 at a "
              "time); needs the match's host "
              "token or the credential of the player who created it. The invited see it in GET /v1/me/invitations "
              "and answer with POST /v1/me/invitations/{matchId}; it is how a private match is reached without "
              "its code.", invite_players, success=201, response="PlayersInvited", params=(PATH_ID,),
              body=R.InvitePlayers, example={"playerIds": ["0123456789abcdef"]}, auth=Auth.REQUIRED, write=True,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.NOT_CREATOR, Refusal.MATCH_STARTED, Refusal.PLAYER_NOT_FOUND,
                     Refusal.ALREADY_INVITED, Refusal.ALREADY_SEATED, Refusal.TOO_MANY_INVITATIONS,
                     Refusal.FORBIDDEN_SCOPE, Refusal.NOT_ACCEPTED)),
    Operation("GET", "/v1/me/invitations", "listInvitations", "invitations", "List my invitations",
              "The signed-in player's open invitations to waiting matches, newest first (answered ones, and those "
              "whose match started or expired, are gone).", list_invitations, response="InvitationList",
              auth=Auth.PLAYER),
    Operation("POST", "/v1/me/invitations/{matchId}", "answerInvitation", "invitations", "Answer an invitation",
              "accept: true takes a seat bound to the player (its token is shown once); false declines. Either "
              "way the invitation is gone.", answer_invitation, response="InvitationAnswered", params=(MATCH_ID,),
              body=R.AnswerInvitation, example={"accept": True}, auth=Auth.PLAYER, write=True,
              codes=(Refusal.INVITATION_NOT_FOUND, Refusal.MATCH_NOT_FOUND, Refusal.MATCH_STARTED,
                     Refusal.SEAT_TAKEN, Refusal.ALREADY_SEATED, Refusal.FORBIDDEN_SCOPE, Refusal.NOT_ACCEPTED)),
    Operation("POST", "/v1/matches/join", "joinMatchByCode", "invitations", "Join a private match by its code",
              "Take a seat of a private match by the invite code its creator was given (joinMatch(input: {code}) "
              "in GraphQL). A wrong code is 404 BAD_INVITE_CODE and counts as a failed authentication (too many "
              "and the client is blocked for a while). With a player credential the seat is bound to the player.",
              join_by_code, success=201, response="SeatJoined", body=R.JoinByCode, example={"code": "an-invite-code"},
              auth=Auth.OPTIONAL, write=True,
              codes=(Refusal.BAD_INVITE_CODE, Refusal.MATCH_NOT_FOUND, Refusal.SEAT_TAKEN, Refusal.MATCH_STARTED,
                     Refusal.BAD_SEAT, Refusal.ALREADY_SEATED, Refusal.FORBIDDEN_SCOPE, Refusal.RATED_NEEDS_PLAYER,
                     Refusal.NOT_ACCEPTED),
              headers=("Location",)),
]
