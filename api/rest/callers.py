"""Who calls a REST operation, or the problem that refuses it: the caller of an operation that joins or acts, and
the signed-in player of one that needs a player credential."""

from __future__ import annotations

from firebreak.api.rest.problems import player_refusal
from firebreak.api.rest.table import Call
from firebreak.matches.callers import Caller
from firebreak.players.errors import PlayerError
from firebreak.players.records import Principal


async def playing_caller(call: Call) -> Caller:
    """The caller of an operation that joins or acts (raise UNAUTHENTICATED for a bad player credential,
    FORBIDDEN_SCOPE for a personal access token with neither the play nor the bot scope)."""
    caller = await call.context.playing_caller()
    if not isinstance(caller, Caller):
        raise player_refusal(caller)
    return caller


async def principal(call: Call, session: bool = False) -> Principal:
    """The caller's player (raise UNAUTHENTICATED; FORBIDDEN_SCOPE for a personal access token when session, an
    account operation)."""
    outcome = await call.context.player_or_refusal(session=session)
    if isinstance(outcome, PlayerError):
        raise player_refusal(outcome)
    return outcome
