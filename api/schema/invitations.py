"""Invitations area: the host invites players by id to a waiting match; the invited list and answer them
(me.invitations, answerInvitation)."""

from __future__ import annotations

from typing import Annotated, cast

import strawberry

from firebreak.api.context import Info
from firebreak.api.schema.match import Match
from firebreak.api.schema.problems import (
    AlreadyInvited,
    AlreadySeated,
    ForbiddenScope,
    InvalidInput,
    InvitationNotFound,
    MatchNotFound,
    MatchStarted,
    NotAccepted,
    NotCreator,
    PlayerNotFound,
    SeatTaken,
    Unauthenticated,
    player_problem,
    problem_type,
)
from firebreak.matches.callers import Caller
from firebreak.matches.lobby import LobbyError
from firebreak.matches.refusals import Refusal
from firebreak.players.records import Principal


@strawberry.type
class Inviter:
    """The player who sent an invitation."""

    id: strawberry.ID = strawberry.field(description="The player's id.")
    name: str | None = strawberry.field(description="The player's display name when it invited.")
    handle: str | None = strawberry.field(default=None, description="The player's handle (unique; null: the "
                                                                    "player is gone).")


@strawberry.type
class Invitation:
    """An open invitation to a waiting match."""

    match: Match = strawberry.field(description="The match (read as a spectator until you join).")
    sender: Inviter | None = strawberry.field(
        name="from", description="The player who invited you (null: the host token's holder invited you).")
    invited_at: float = strawberry.field(description="When you were invited (epoch seconds).")


async def my_invitations(info: Info, principal: Principal) -> list[Invitation]:
    """The signed-in player's open invitations, newest first."""
    listed = await info.context.services.invitations.listing(principal.player.id)
    return [Invitation(match=Match.of(item.match, None),
                       sender=None if item.invitation.by is None else Inviter(
                           id=strawberry.ID(item.invitation.by), name=item.invitation.by_name,
                           handle=item.by_handle),
                       invited_at=item.invitation.at) for item in listed]


@strawberry.input
class InvitePlayersInput:
    """The waiting match and the players to invite."""

    match_id: strawberry.ID = strawberry.field(description="The waiting match (you are its host).")
    player_ids: list[strawberry.ID] = strawberry.field(default_factory=list, description="Players by id; with "
                                                       "handles, 1 to 20 distinct players.")
    handles: list[str] = strawberry.field(default_factory=list, description="Players by handle (compared "
                                                                           "case-folded), as well as or instead of "
                                                                           "by id.")


@strawberry.input
class AnswerInvitationInput:
    """The invitation's match and the answer."""

    match_id: strawberry.ID = strawberry.field(description="The match you are invited to.")
    accept: bool = strawberry.field(description="true: take a seat bound to you; false: decline.")
    name: str | None = strawberry.field(default=None, description="A display name; null: the player's name.")


@strawberry.type
class PlayersInvited:
    """The players are invited: each sees the match in me.invitations."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    player_ids: list[strawberry.ID] = strawberry.field(description="The players invited.")
    invited_at: float = strawberry.field(description="When (epoch seconds).")


@strawberry.type
class InvitationAnswered:
    """The invitation is answered (and gone). Accepted: the seat bound to you and its token (shown once)."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    accepted: bool = strawberry.field(description="Whether you took a seat.")
    seat: int | None = strawberry.field(description="Your seat (null: declined).")
    token: str | None = strawberry.field(description="The seat's secret token, shown once (null: declined).")
    started: bool = strawberry.field(description="Whether this took the last free seat (the match has started).")


InvitePlayersResult = Annotated[
    PlayersInvited | MatchNotFound | NotCreator | MatchStarted | PlayerNotFound | AlreadyInvited | AlreadySeated
    | InvalidInput | NotAccepted | Unauthenticated | ForbiddenScope,
    strawberry.union("InvitePlayersResult", description="The players invited, or why none was."),
]
AnswerInvitationResult = Annotated[
    InvitationAnswered | InvitationNotFound | MatchNotFound | MatchStarted | SeatTaken | AlreadySeated
    | InvalidInput | NotAccepted | Unauthenticated | ForbiddenScope,
    strawberry.union("AnswerInvitationResult", description="The answer taken, or why not."),
]
InvitationProblem = (MatchNotFound | NotCreator | MatchStarted | PlayerNotFound | AlreadyInvited | AlreadySeated
                     | InvalidInput | InvitationNotFound | SeatTaken | NotAccepted)


def _problem(exc: LobbyError) -> InvitationProblem:
    return cast(InvitationProblem, problem_type(exc.code)(code=exc.code, message=str(exc)))


@strawberry.type
class InvitationsMutation:
    """Invitation writes."""

    @strawberry.mutation
    async def invite_players(
        self, info: Info, input: Annotated[InvitePlayersInput, strawberry.argument(description="Who to invite.")],
    ) -> InvitePlayersResult:
        """Invite players by id or handle to a waiting match (all or none). Needs the match's host token, or the
        credential of the player who created it; the invited see it in me.invitations, and join a private match so."""
        info.context.check_not_blocked()
        caller = await info.context.playing_caller()
        if not isinstance(caller, Caller):
            return cast(Unauthenticated | ForbiddenScope, player_problem(caller))
        try:
            sent = await info.context.services.invitations.invite(str(input.match_id), caller,
                                                                   [str(p) for p in input.player_ids],
                                                                   input.handles)
        except LobbyError as exc:
            if exc.code == Refusal.NOT_CREATOR:
                await info.context.token_refused(caller)
            return _problem(exc)  # type: ignore[return-value]
        return PlayersInvited(match_id=input.match_id, player_ids=[strawberry.ID(i.player) for i in sent],
                              invited_at=sent[0].at)

    @strawberry.mutation
    async def answer_invitation(
        self, info: Info, input: Annotated[AnswerInvitationInput, strawberry.argument(description="The answer.")],
    ) -> AnswerInvitationResult:
        """Accept an invitation (a seat bound to you: its token is shown once) or decline it; either way it leaves
        me.invitations. Needs a player credential."""
        caller = await info.context.playing_caller()
        if not isinstance(caller, Caller):
            return cast(Unauthenticated | ForbiddenScope, player_problem(caller))
        principal = await info.context.principal()
        if principal is None:
            return Unauthenticated(code=Refusal.UNAUTHENTICATED, message="answering an invitation needs a player "
                                                                         "credential", reason="missing")
        try:
            seated = await info.context.services.invitations.answer(
                str(input.match_id), principal.player.id, input.accept, input.name or principal.player.name,
                caller.program)
        except LobbyError as exc:
            return _problem(exc)  # type: ignore[return-value]
        return InvitationAnswered(match_id=input.match_id, accepted=seated is not None,
                                  seat=None if seated is None else seated.seat,
                                  token=None if seated is None else seated.token,
                                  started=seated is not None and seated.started)
