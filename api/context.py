"""The typed context every resolver receives: the services and who is calling."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.websockets import WebSocket
from strawberry.types import Info as StrawberryInfo

from api.services import Services


@dataclass
class Context:
    """Per request (or per WebSocket connection): services, the request and the caller's bearer token."""

    services: Services
    request: Request | WebSocket
    response: Any = None
    connection_params: dict[str, Any] | None = field(default=None)

    @property
    def token(self) -> str | None:
        """The bearer token: the Authorization header, else a WebSocket's connection_init payload
        ({"authorization": "Bearer ..."} or {"token": "..."})."""
        header = self.request.headers.get("authorization", "")
        params = self.connection_params if isinstance(self.connection_params, dict) else {}
        if not header:
            header = params.get("authorization") or params.get("Authorization") or ""
            if not header and isinstance(params.get("token"), str):
                return params["token"] or None
        scheme, _, value = str(header).partition(" ")
        return (value.strip() or None) if scheme.lower() == "bearer" else None


Info = StrawberryInfo[Context, None]
