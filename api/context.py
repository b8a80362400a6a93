"""The typed context every resolver receives: the services, who is calling, and the caller's credentials."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphql import GraphQLError
from starlette.requests import Request
from starlette.websockets import WebSocket
from strawberry.types import Info as StrawberryInfo

from api.ratelimit import rate_limited
from api.services import Services
from matches.refusals import Refusal
from matches.store import Loaded


def unauthorized(message: str) -> GraphQLError:
    """The GraphQL error of a refused credential (code UNAUTHORIZED); the token is never in the message."""
    return GraphQLError(message, extensions={"code": Refusal.UNAUTHORIZED.value})


@dataclass
class Context:
    """Per request (or per WebSocket connection): services, the request and the caller's bearer token."""

    services: Services
    request: Request | WebSocket
    response: Any = None
    connection_params: dict[str, Any] | None = field(default=None)

    def _credential(self) -> str:
        """The raw credential: the Authorization header, else a WebSocket's connection_init payload
        ({"authorization": "Bearer ..."} or {"token": "..."} taken as a bearer token); "" if none."""
        header = self.request.headers.get("authorization", "").strip()
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

    def check_not_blocked(self) -> None:
        """Raise RATE_LIMITED while this client's credentials are refused for too many failures."""
        if self.presented:
            wait = self.services.limits.blocked_for(self.client)
            if wait > 0:
                self.services.metrics.rate_limited("blocked")
                raise rate_limited(wait)

    async def auth_failed(self) -> None:
        """Count a failed authentication (a credential presented and refused); raise RATE_LIMITED past the limit."""
        verdict = await self.services.limits.auth_failed(self.client)
        if not verdict.allowed:
            self.services.metrics.rate_limited("auth-failures")
            raise rate_limited(verdict.retry_after)

    async def seat_in(self, loaded: Loaded) -> int | None:
        """The caller's seat in this match, or None for a spectator (no credential, or the host token); a
        credential that is neither a seat's token nor the host token of this match raises UNAUTHORIZED."""
        if not self.presented:
            return None
        self.check_not_blocked()
        seat = loaded.seat_of(self.token)
        if seat is not None or loaded.is_host(self.token):
            return seat
        await self.auth_failed()
        raise unauthorized("the bearer token is not a seat token or the host token of this match")


Info = StrawberryInfo[Context, None]
