"""CORS for browser apps on other origins (FIREBREAK_CORS_ORIGINS): Starlette's CORSMiddleware over every HTTP
route (GraphQL, REST and its event stream, the docs). The WebSocket handshake checks the same origins in strawberry
(its allowed_origins, api/app.py): a browser page on a listed origin or the service's own may open /graphql, one on
any other origin is refused with 403, a client without Origin (not a browser) is let in.

Off (no middleware at all, nothing on the request path) when no origin is set. A request without an Origin header
(a bot, curl, a server) is never affected; neither is a browser on the service's own origin (the web client).
Credentials are bearer tokens in the Authorization header, never cookies, so no Allow-Credentials is sent."""

from __future__ import annotations

from collections.abc import Collection

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp

# what a browser app may send beyond the safelisted headers: its credential, JSON bodies, an act's idempotency key
# and Prefer (return=minimal), and the event stream's resume point
ALLOW_HEADERS = ("Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID", "Prefer")
# what its scripts may read beyond the safelisted answer headers: where a created thing is, when to retry (429,
# 503), how to authenticate (401), and whether return=minimal was applied
EXPOSE_HEADERS = ("Location", "Retry-After", "WWW-Authenticate", "Preference-Applied")
MAX_AGE = 600  # seconds a browser may keep a preflight's answer


class Cors(CORSMiddleware):
    """Starlette's CORSMiddleware with the service's headers, methods and preflight lifetime; a refused preflight
    (an origin not listed, a method or header not taken) gets its 400 with none of the CORS headers."""

    def __init__(self, app: ASGIApp, origins: Collection[str], methods: Collection[str]) -> None:
        super().__init__(app, allow_origins=tuple(origins), allow_methods=tuple(sorted(methods)),
                         allow_headers=ALLOW_HEADERS, expose_headers=EXPOSE_HEADERS, max_age=MAX_AGE)

    def preflight_response(self, request_headers: Headers) -> Response:
        """Starlette's answer; when it refuses, without the Access-Control-* headers it would still send (Vary
        stays: a cache must keep the answers to different origins apart)."""
        answer = super().preflight_response(request_headers)
        if answer.status_code == 400:
            for name in [name for name in answer.headers if name.lower().startswith("access-control-")]:
                del answer.headers[name]
        return answer
