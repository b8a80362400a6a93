"""GraphQL: the signed-in player's data export (me { export }), a one-time ticket to the REST download; and the
deletion of the account (deleteAccount)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from firebreak.api.account_export import PATH, issue_ticket
from firebreak.api.context import Info
from firebreak.api.schema.problems import ForbiddenScope, Reauthenticate, Unauthenticated, player_problem
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import PlayerError
from firebreak.players.records import Principal, Via


@strawberry.type
class DataExport:
    """Where to download everything kept about the player: a URL holding a one-time ticket (the only credential
    ever put in a URL), good for one download within expiresIn seconds."""

    url: str = strawberry.field(description="The download's path with its ticket (GET it on this API's origin).")
    ticket: str = strawberry.field(description="The one-time ticket alone (GET /v1/me/export?ticket=...).")
    expires_in: int = strawberry.field(description="Seconds the ticket lives unless used.")


DataExportResult = Annotated[DataExport | ForbiddenScope, strawberry.union(
    "DataExportResult", description="A download ticket, or FORBIDDEN_SCOPE for a personal access token.")]


async def data_export(info: Info, principal: Principal) -> DataExport | ForbiddenScope:
    """A one-time ticket to the player's export (a session or the operator's JWT; not a personal access token)."""
    if principal.via is Via.ACCESS_TOKEN:
        return ForbiddenScope(code=Refusal.FORBIDDEN_SCOPE,
                              message="the data export needs a signed-in session, not a personal access token")
    ticket, ttl = await issue_ticket(info.context.services, principal.player.id)
    return DataExport(url=f"{PATH}?ticket={ticket}", ticket=ticket, expires_in=ttl)


@strawberry.type
class AccountDeleted:
    """The account is deleted: every credential of it stopped working at once, and its handle and sign-in links were
    freed; the workers finish the rest within moments (seats resigned or left, seeks, invitations, pushes, events and
    ratings removed, finished matches showing a deleted player)."""

    deleted_at: float = strawberry.field(description="When the deletion was asked (epoch seconds).")


DeleteAccountResult = Annotated[AccountDeleted | Unauthenticated | ForbiddenScope | Reauthenticate, strawberry.union(
    "DeleteAccountResult", description="The account deleted, or why not (nothing changed).")]


async def delete_account(info: Info, principal: Principal) -> AccountDeleted | Reauthenticate:
    """Delete the principal's account (players/deletion.py), or REAUTHENTICATE when its sign-in is not recent."""
    try:
        at = await info.context.services.delete_account(principal)
    except PlayerError as exc:
        problem = player_problem(exc)
        assert isinstance(problem, Reauthenticate)
        return problem
    return AccountDeleted(deleted_at=at)
