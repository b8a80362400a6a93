"""The typed context every resolver receives: the services, who is calling, and the caller's credentials.

Who is calling is resolved once per request (per WebSocket connection: once per credential it sends) from the
Authorization header, or a WebSocket's connection_init payload: a player credential (our session's access token, a
personal access token, the operator's JWT: told apart by shape) is verified by the players layer and becomes a
player Caller, or a typed UNAUTHENTICATED refusal (counted as a failed authentication: never a silent fall-back to
spectator); anything else is a seat or host token as before; no credential is nobody (a spectator).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphql import GraphQLError
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket
from strawberry.types import Info as StrawberryInfo

from firebreak.api import language
from firebreak.api.ratelimit import rate_limited, retry_after_header
from firebreak.api.services import Services
from firebreak.matches.callers import NOBODY, Caller
from firebreak.matches.refusals import Refusal
from firebreak.matches.store import Loaded
from firebreak.players.authenticate import player_credential
from firebreak.players.errors import ForbiddenScope, PlayerError, Reason, Unauthenticated
from firebreak.players.records import Principal, Scope, Via
from firebreak.social import presence

PLAYING = frozenset({Scope.PLAY, Scope.BOT})  # a personal access token with either may join and act


def unauthorized(message: str) -> GraphQLError:
    """The GraphQL error of a refused credential (code UNAUTHORIZED); the token is never in the message."""
    return GraphQLError(message, extensions={"code": Refusal.UNAUTHORIZED.value})


def unauthenticated(refused: Unauthenticated) -> GraphQLError:
    """The GraphQL error of a refused player credential (code UNAUTHENTICATED and why: never the credential)."""
    return GraphQLError(refused.message, extensions={"code": Refusal.UNAUTHENTICATED.value,
                                                     "reason": refused.reason.value})


@dataclass
class Context:
    """Per request (or per WebSocket connection): services, the request and the caller's bearer token."""

    services: Services
    request: Request | WebSocket
    response: Any = None
    connection_params: dict[str, Any] | None = field(default=None)
    _resolved: tuple[str, Principal | Unauthenticated | None] | None = field(default=None, repr=False)
    _header: str | None = field(default=None, repr=False)  # an HTTP request's Authorization header, once read

    def _credential(self) -> str:
        """The raw credential: the Authorization header, else a WebSocket's connection_init payload
        ({"authorization": "Bearer ..."} or {"token": "..."} taken as a bearer token); "" if none."""
        if self._header is not None:
            return self._header
        header = self.request.headers.get("authorization", "").strip()
        if isinstance(self.request, Request):  # a request's headers never change (a connection's payload may)
            self._header = header
        if header:
            return header
        params = self.connection_params if isinstance(self.connection_params, dict) else {}
        value = params.get("authorization") or params.get("Authorization")
        if value:
            return str(value).strip()
        token = params.get("token")
        return f"Bearer {token.strip()}" if isinstance(token, str) and token.strip() else ""

    @property
    def token(self) -> str | None:
        """The bearer token, or None (no credential, or one that is not "Bearer <token>")."""
        scheme, _, value = self._credential().partition(" ")
        return (value.strip() or None) if scheme.lower() == "bearer" else None

    @property
    def presented(self) -> bool:
        """Whether the caller sent a credential at all (a malformed one counts: it is a wrong one)."""
        return bool(self._credential())

    @property
    def client(self) -> str:
        """The client's address, for rate limits: the peer, or the header the operator's proxy sets."""
        name = self.services.settings.rate_client_header
        if name:
            forwarded = self.request.headers.get(name, "")
            # a proxy appends the address it saw: with X-Forwarded-For, the last entry is the trusted one
            last = forwarded.rsplit(",", 1)[-1].strip()
            if last:
                return last
        peer = self.request.client
        return peer.host if peer is not None else "unknown"

    async def authenticate(self) -> Principal | Unauthenticated | None:
        """The player the request's credential proves (None: no player credential was sent), or why it was
        refused. Verified once per credential; a refusal counts as a failed authentication (RATE_LIMITED past
        the limit, as is a credential from a client blocked for failures)."""
        credential = self._credential()
        if self._resolved is not None and self._resolved[0] == credential:
            return self._resolved[1]
        outcome: Principal | Unauthenticated | None = None
        found = player_credential(credential)  # its kind worked out once
        if found is not None and self.services.admin.allows(found[0]):
            found = None  # the operator's admin token, whatever its shape, is no player's
        if found is not None:
            self.check_not_blocked()
            try:
                outcome = await self.services.players.verify(*found)
                language.saved(outcome.player.locale)
                await presence.touch(self.services.store.redis, outcome.player.id)  # a dict look-up most times
            except Unauthenticated as refused:
                outcome = refused
        self._resolved = (credential, outcome)
        if isinstance(outcome, Unauthenticated):
            await self.auth_failed()
        return outcome

    async def recheck(self) -> Unauthenticated | None:
        """Verify the player credential again, past the per-connection memo (a long-lived stream looking for a
        sign-out or a revoked token): the refusal, or None while it holds."""
        found = player_credential(self._credential())
        if found is None:
            return Unauthenticated(Reason.MISSING)
        try:
            await self.services.players.verify(*found)
        except Unauthenticated as refused:
            return refused
        return None

    @property
    def bearer(self) -> str:
        """The raw bearer credential ("" if none), for reading a JWT's expiry; never logged or echoed."""
        found = player_credential(self._credential())
        return "" if found is None else found[0]

    async def principal(self) -> Principal | None:
        """The authenticated player, or None without a player credential (raise UNAUTHENTICATED for a bad one)."""
        outcome = await self.authenticate()
        if isinstance(outcome, Unauthenticated):
            raise unauthenticated(outcome)
        return outcome

    async def caller(self) -> Caller:
        """Who is calling, as the live-match layer takes it: a player, a seat or host token, or nobody (raise
        UNAUTHENTICATED for a bad player credential)."""
        principal = await self.principal()
        if principal is not None:
            return Caller(player=principal.player.id, program=programmed(principal))
        return Caller(token=self.token) if self.token else NOBODY

    async def player_or_refusal(self, session: bool = False) -> Principal | PlayerError:
        """For an operation that needs a player credential: the principal, or the typed refusal to answer
        (UNAUTHENTICATED: none sent (reason missing), one that is no player credential (malformed) or a bad one;
        FORBIDDEN_SCOPE: session=True, an account operation, and the credential is a personal access token)."""
        outcome = await self.authenticate()
        if outcome is None:  # nothing sent, or a credential that is no player's (a seat token, not Bearer)
            return Unauthenticated(Reason.MALFORMED if self.presented else Reason.MISSING)
        if session and isinstance(outcome, Principal) and outcome.via is Via.ACCESS_TOKEN:
            return ForbiddenScope("managing the account needs a signed-in session (or the operator's JWT), not a "
                                  "personal access token")
        return outcome

    async def playing_caller(self) -> Caller | PlayerError:
        """The caller of an operation that joins or acts: UNAUTHENTICATED for a bad player credential,
        FORBIDDEN_SCOPE for a personal access token with neither the play nor the bot scope."""
        outcome = await self.authenticate()
        if isinstance(outcome, Unauthenticated):
            return outcome
        if outcome is not None and not outcome.scopes & PLAYING:
            return ForbiddenScope("this credential lacks the 'play' (or 'bot') scope")
        if outcome is not None:
            return Caller(player=outcome.player.id, program=programmed(outcome))
        return Caller(token=self.token) if self.token else NOBODY

    def check_not_blocked(self, credential: bool = False) -> None:
        """Raise RATE_LIMITED while this client's credentials are refused for too many failures: for a request
        that presents one, as its bearer credential or (credential=True) in its input (an invite code, a refresh
        token, a JWT to link), right or wrong."""
        if self.presented or credential:
            wait = self.services.limits.blocked_for(self.client)
            if wait > 0:
                self.services.metrics.rate_limited("blocked")
                raise rate_limited(wait)

    async def charge_registration(self) -> None:
        """Take one guest sign-in from this client's bucket; raise RATE_LIMITED (over HTTP: 429 with Retry-After)
        when it is empty."""
        verdict = await self.services.limits.registration(self.client)
        if not verdict.allowed:
            self.services.metrics.rate_limited("registrations")
            if isinstance(self.request, Request) and isinstance(self.response, Response):
                self.response.status_code = 429
                self.response.headers["retry-after"] = retry_after_header(verdict.retry_after)
            raise rate_limited(verdict.retry_after)

    async def auth_failed(self) -> None:
        """Count a failed authentication (a credential presented and refused); raise RATE_LIMITED past the limit."""
        verdict = await self.services.limits.auth_failed(self.client)
        if not verdict.allowed:
            self.services.metrics.rate_limited("auth-failures")
            raise rate_limited(verdict.retry_after)

    async def token_refused(self, caller: Caller) -> None:
        """Count a refused seat or host token as a failed authentication (a stranger's token; a player without a
        seat here is no failure); raise RATE_LIMITED past the limit."""
        if self.presented and caller.player is None:
            await self.auth_failed()

    async def seat_in(self, loaded: Loaded) -> int | None:
        """The caller's seat in this match, or None for a spectator (no credential, the host token, or a player
        without a seat here); a bad player credential raises UNAUTHENTICATED, and a token that is neither a seat's
        nor the host token of this match UNAUTHORIZED."""
        if not self.presented:
            return None
        self.check_not_blocked()
        caller = await self.caller()
        seat = loaded.seat_of(caller)
        if seat is not None or caller.player is not None or loaded.is_creator(caller):
            return seat
        await self.auth_failed()
        raise unauthorized("the bearer token is not a seat token or the host token of this match")


def programmed(principal: Principal) -> bool:
    """Whether a principal acts as a program: it came with a personal access token of the bot scope."""
    return principal.via is Via.ACCESS_TOKEN and Scope.BOT in principal.scopes


Info = StrawberryInfo[Context, None]
