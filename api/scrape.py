"""Who may read /metrics (FIREBREAK_METRICS_TOKEN): with a token set, a request bearing it (compared by its SHA-256
in constant time; neither is ever logged or echoed); unset, the machine itself: a request from a loopback address
that carries no header a proxy adds (Forwarded, X-Forwarded-For, X-Real-IP), so that a proxy on the same machine
does not hand the figures to everyone."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from firebreak.api.metrics import MetricsSettings

FORWARDING = ("forwarded", "x-forwarded-for", "x-real-ip")


class ScrapeAccess:
    """Decides whether a request may read /metrics."""

    def __init__(self, token: str = "") -> None:
        token = token.strip()
        self._hash = _digest(token) if token else None

    @classmethod
    def from_settings(cls, settings: MetricsSettings) -> ScrapeAccess:
        """The access FIREBREAK_METRICS_TOKEN sets."""
        return cls(settings.token)

    def allows(self, request: Request) -> bool:
        """Whether the request may read the metrics (see the module's docstring)."""
        if self._hash is not None:
            scheme, _, value = request.headers.get("authorization", "").partition(" ")
            value = value.strip()
            return scheme.lower() == "bearer" and bool(value) and hmac.compare_digest(_digest(value), self._hash)
        if any(name in request.headers for name in FORWARDING):
            return False
        return _loopback(request.client.host if request.client is not None else "")

    @staticmethod
    def refused() -> Response:
        """The answer to a request that may not read the metrics: 401 with a Bearer challenge."""
        return PlainTextResponse("the metrics need the bearer token FIREBREAK_METRICS_TOKEN sets (unset: only a "
                                 "request from this machine)", status_code=401,
                                 headers={"www-authenticate": 'Bearer realm="metrics"'})

    def __repr__(self) -> str:
        """Never the hash."""
        return f"ScrapeAccess(token={self._hash is not None})"


def _loopback(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()
