"""The typed errors of the players layer, each with a stable code (the API's error codes)."""

from __future__ import annotations

from enum import StrEnum

from firebreak.matches.refusals import Refusal
from firebreak.players.handles import HandleReason, says


class PlayerError(Exception):
    """Raised when a players operation cannot be done; `code` says which way, `message` says it to a person."""

    code: Refusal

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Reason(StrEnum):
    """Why a credential was refused (stable, never the credential itself)."""

    MISSING = "missing"              # no credential sent
    MALFORMED = "malformed"          # not a credential of any kind we know
    EXPIRED = "expired"              # past its expiry
    INVALID = "invalid"              # a bad signature, a wrong issuer or audience, a missing claim, an unknown key
    ALGORITHM = "algorithm"          # signed with an algorithm we do not accept
    REVOKED = "revoked"              # signed out, or its session family revoked
    REUSED = "reused"                # an already used refresh token: its whole session family is now revoked
    UNKNOWN = "unknown"              # no such player, session or token
    NOT_CONFIGURED = "not_configured"  # a JWT of another issuer while the operator's sign-in is off
    UNAVAILABLE = "unavailable"      # the operator's key set could not be fetched
    BANNED = "banned"                # the operator banned the player: no sign-in, no credential works


_SAYS = {
    Reason.MISSING: "a credential is required",
    Reason.MALFORMED: "the credential is malformed",
    Reason.EXPIRED: "the credential has expired",
    Reason.INVALID: "the credential is not valid",
    Reason.ALGORITHM: "the credential is signed with an algorithm that is not accepted",
    Reason.REVOKED: "the credential has been revoked",
    Reason.REUSED: "the refresh token was already used: every session of its family is signed out",
    Reason.UNKNOWN: "the credential names no known player, session or token",
    Reason.NOT_CONFIGURED: "sign-in with an external identity provider is not configured",
    Reason.UNAVAILABLE: "the identity provider's keys could not be fetched",
    Reason.BANNED: "the account is banned by the operator",
}


class Unauthenticated(PlayerError):
    """Raised when a credential is missing, malformed, expired, forged or revoked (the message never quotes it)."""

    code = Refusal.UNAUTHENTICATED

    def __init__(self, reason: Reason) -> None:
        super().__init__(_SAYS[reason])
        self.reason = reason


class ForbiddenScope(PlayerError):
    """Raised when a credential is valid but does not allow the operation (a token without the scope it needs)."""

    code = Refusal.FORBIDDEN_SCOPE


class BadName(PlayerError):
    """Raised when a display or token name is empty, too long or not printable."""

    code = Refusal.BAD_NAME


class BadDeviceId(PlayerError):
    """Raised when a device id is too short, too long or not printable."""

    code = Refusal.BAD_DEVICE_ID


class BadScopes(PlayerError):
    """Raised when a personal access token is asked for with no scope or an unknown one, or a bad lifetime."""

    code = Refusal.BAD_SCOPES


class TooManyTokens(PlayerError):
    """Raised when a player who already holds the most personal access tokens allowed asks for another."""

    code = Refusal.TOO_MANY_TOKENS


class PlayerNotFound(PlayerError):
    """Raised when an operation names a player that does not exist."""

    code = Refusal.PLAYER_NOT_FOUND


class TokenNotFound(PlayerError):
    """Raised when a personal access token to revoke is not one of the player's."""

    code = Refusal.TOKEN_NOT_FOUND


class IdentityTaken(PlayerError):
    """Raised when linking an external identity that already belongs to another player."""

    code = Refusal.IDENTITY_TAKEN


class AlreadyLinked(PlayerError):
    """Raised when linking an external identity to a player already linked to a different one."""

    code = Refusal.ALREADY_LINKED


class BadHandle(PlayerError):
    """Raised when a handle breaks the grammar (players/handles.py); `reason` says which rule."""

    code = Refusal.BAD_HANDLE

    def __init__(self, reason: HandleReason) -> None:
        super().__init__(says(reason))
        self.reason = reason


class HandleTaken(PlayerError):
    """Raised when a handle (compared case-folded after NFKC) is another player's."""

    code = Refusal.HANDLE_TAKEN


class Reauthenticate(PlayerError):
    """Raised when deleting an account with a credential of a sign-in that is not recent (or a personal access
    token, which never may)."""

    code = Refusal.REAUTHENTICATE


class HandleChangesLimited(PlayerError):
    """Raised when a player has changed handle as often as a day allows; `retry_after` says for how long (s)."""

    code = Refusal.RATE_LIMITED

    def __init__(self, retry_after: float) -> None:
        super().__init__("a handle can be changed only so often a day")
        self.retry_after = retry_after
