"""The values of the players layer: a player, how a request was authenticated, a session, a token's listing."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

import orjson

from firebreak.players.errors import ForbiddenScope


class PlayerKind(StrEnum):
    """How a player signs in: a guest (by a device secret) or an account of the operator's identity provider."""

    GUEST = "guest"
    EXTERNAL = "external"


class Scope(StrEnum):
    """What a personal access token may do: play (act in the player's seats) or bot (run the player as a bot)."""

    PLAY = "play"
    BOT = "bot"


ALL_SCOPES = frozenset(Scope)


class Via(StrEnum):
    """How a request proved who it is: our session's access token, a personal access token, the operator's JWT."""

    SESSION = "session"
    ACCESS_TOKEN = "access_token"
    EXTERNAL = "external"


@dataclass(frozen=True)
class Identity:
    """An account of an external identity provider: its issuer and subject (the player is sub namespaced by iss)."""

    issuer: str
    subject: str


@dataclass(frozen=True)
class Player:
    """A player: id, display name, kind, when created (epoch seconds), token version (bumped by signing out
    everywhere, and by a ban), the external identities linked to it, its handle ("" until one is assigned), and
    until when the operator banned it (None: not banned), and the language it saved ("" for none)."""

    id: str
    name: str
    kind: PlayerKind
    created: float
    token_version: int
    identities: tuple[Identity, ...] = ()
    handle: str = ""
    banned_until: float | None = None  # the operator banned it until then (moderation/bans.py; inf: for good)
    locale: str = ""  # the language the player chose to be answered in ("": none saved; api/language.py)

    def banned(self, now: float | None = None) -> bool:
        """Whether the operator's ban holds now: no sign-in, no credential of the player works."""
        return self.banned_until is not None and self.banned_until > (time.time() if now is None else now)

    @classmethod
    def from_fields(cls, player_id: str, fields: dict[str, str]) -> Player:
        """The player stored in a Redis hash (see players/keys.py:player)."""
        links = orjson.loads(fields.get("links") or "[]")
        return cls(id=player_id, name=fields["name"], kind=PlayerKind(fields["kind"]),
                   created=float(fields["created"]), token_version=int(fields["ver"]),
                   identities=tuple(Identity(issuer, subject) for issuer, subject in links),
                   handle=fields.get("handle", ""),
                   banned_until=float(fields["banned"]) if fields.get("banned") else None,
                   locale=fields.get("locale", ""))


@dataclass(frozen=True)
class Principal:
    """Who a request acts for: the player, how it was authenticated, what it may do, which session family (a
    session's access token) or personal access token (a token) it came with, and for an operator's token when its
    person signed in (the deletion of an account asks for a recent sign-in)."""

    player: Player
    via: Via
    scopes: frozenset[Scope] = ALL_SCOPES
    session_id: str | None = None
    token_id: str | None = None
    issued: float | None = None  # an operator's token: when its person signed in (auth_time, else iat), if it says

    def require(self, scope: Scope) -> None:
        """Raise ForbiddenScope unless this principal may do what needs that scope."""
        if scope not in self.scopes:
            raise ForbiddenScope(f"this credential lacks the {scope.value!r} scope")


@dataclass(frozen=True)
class Session:
    """A signed-in session: a short-lived access token, an opaque refresh token (shown once, stored as a hash),
    their lifetimes in seconds, the session family's id, and whether this sign-in created the player."""

    player: Player
    access_token: str
    access_expires_in: int
    refresh_token: str
    refresh_expires_in: int
    session_id: str
    created: bool = False


@dataclass(frozen=True)
class TokenInfo:
    """A personal access token as listed (never its secret): id, name, scopes, created and expiry (epoch seconds;
    None: never expires)."""

    id: str
    name: str
    scopes: frozenset[Scope]
    created: float
    expires: float | None
