"""The one entry point: an Authorization header's value -> the Principal it proves, or Unauthenticated.

The three kinds of credential are told apart by shape: our access token is a JWT whose iss is "firebreak"; a
personal access token starts fbp_; any other JWT goes to the operator's provider's verifier, when one is
configured. Nothing here logs a credential or puts one in an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import jwt

from firebreak.players.access import TOKEN, AccessTokens
from firebreak.players.config import PlayerSettings
from firebreak.players.directory import Directory
from firebreak.players.errors import PlayerNotFound, Reason, Unauthenticated
from firebreak.players.external import ExternalVerifier
from firebreak.players.records import Player, Principal, Via
from firebreak.players.sessions import ISSUER, Sessions

BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9\-._~+/]+=*) *\Z")  # RFC 6750's b64token
LONGEST = 8192  # characters of a header value worth reading
JWT_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\Z")


def bearer(header_value: str | None) -> str:
    """The credential of an Authorization header's value (raise Unauthenticated when none or not a bearer one)."""
    if not header_value or not header_value.strip():
        raise Unauthenticated(Reason.MISSING)
    found = BEARER.match(header_value.strip()) if len(header_value) <= LONGEST else None
    if found is None:
        raise Unauthenticated(Reason.MALFORMED)
    return found.group(1)


def player_credential(header_value: str) -> tuple[str, Via | None] | None:
    """The credential of an Authorization header and its kind when it is a player credential by its shape; None
    for anything else (nothing, a seat or host token: those never hold a dot). Shaped as a JWT but not one (a
    tampered signature, a refresh token sent as the bearer credential), its kind is None: verify refuses it as
    malformed."""
    try:
        credential = bearer(header_value)
    except Unauthenticated:
        return None
    kind = kind_of(credential)
    return None if kind is None and not JWT_SHAPE.match(credential) else (credential, kind)


def kind_of(credential: str) -> Via | None:
    """Which kind of player credential this is by its shape alone (None: not a player credential: a seat token, a
    refresh token, anything else)."""
    if TOKEN.match(credential):
        return Via.ACCESS_TOKEN
    if not JWT_SHAPE.match(credential):
        return None
    try:
        claims = jwt.decode(credential, options={"verify_signature": False})
    except (jwt.PyJWTError, ValueError, TypeError):
        return None
    return Via.SESSION if claims.get("iss") == ISSUER else Via.EXTERNAL


@dataclass
class Authenticator:
    """Verifies every kind of player credential; holds the players layer's parts for the API to use."""

    directory: Directory
    sessions: Sessions
    access: AccessTokens
    external: ExternalVerifier | None

    @classmethod
    def build(cls, redis: Any, settings: PlayerSettings) -> Authenticator:
        """The players layer over a decode_responses client of the matches Redis (plain or Cluster)."""
        directory = Directory(redis, settings.handle_changes_per_day)
        return cls(directory, Sessions(redis, settings, directory), AccessTokens(redis, settings),
                   ExternalVerifier(settings) if settings.external else None)

    async def authenticate(self, header_value: str | None) -> Principal:
        """The principal an Authorization header proves (raise Unauthenticated for a missing, malformed, expired,
        forged or revoked credential)."""
        credential = bearer(header_value)
        return await self.verify(credential, kind_of(credential))

    async def verify(self, credential: str, kind: Via | None) -> Principal:
        """The principal a credential of a known kind (kind_of) proves, its player given a handle if it had none
        yet (raise Unauthenticated)."""
        principal = await self._verify(credential, kind)
        if principal.player.banned():  # every credential of a banned player, a personal access token's too
            raise Unauthenticated(Reason.BANNED)
        if principal.player.handle:
            return principal
        try:
            return replace(principal, player=await self.directory.with_handle(principal.player))
        except PlayerNotFound:
            raise Unauthenticated(Reason.UNKNOWN) from None

    async def _verify(self, credential: str, kind: Via | None) -> Principal:
        if kind is Via.ACCESS_TOKEN:
            return await self.access.verify(credential)
        if kind is Via.SESSION:
            return await self.sessions.verify(credential)
        if kind is Via.EXTERNAL:
            if self.external is None:
                raise Unauthenticated(Reason.NOT_CONFIGURED)
            claimed = await self.external.verify(credential)
            player, _ = await self.directory.external(claimed.identity, claimed.name)
            return Principal(player, Via.EXTERNAL, issued=claimed.issued)
        raise Unauthenticated(Reason.MALFORMED)

    async def link_external(self, player: Player, token: str) -> Player:
        """Link the operator's identity a JWT vouches for to a player (a guest keeps its id and its matches; raise
        Unauthenticated, IdentityTaken, AlreadyLinked)."""
        if self.external is None:
            raise Unauthenticated(Reason.NOT_CONFIGURED)
        claimed = await self.external.verify(token)
        return await self.directory.link(player.id, claimed.identity)
