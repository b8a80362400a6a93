"""ASGI middleware: refuse oversized bodies, and time every HTTP request."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from firebreak.api.guard import REST_PREFIX, problem
from firebreak.api.metrics import Metrics
from firebreak.matches.refusals import Refusal

KNOWN_PATHS = ("/graphql", "/healthz", "/readyz", "/metrics")


class BodyLimit:
    """Answer 413 (code BODY_TOO_LARGE) to a request whose body is larger than the limit (declared or streamed)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"the request body is larger than {self.max_bytes} bytes"
        await problem(413, Refusal.BODY_TOO_LARGE, message, scope["path"])(scope, receive, send)


class _TooLarge(Exception):
    """Raised inside BodyLimit when a streamed body passes the limit."""


class Timing:
    """Count and time HTTP requests by path: a REST route's template (/v1/matches/{id}), else the path when it is
    one of the known ones, else "other" (so that no client-chosen text becomes a label)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def recording(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, recording)
        finally:
            path = _label(scope)
            self.metrics.request(scope["method"], path, status, time.perf_counter() - started)


def _label(scope: Scope) -> str:
    route = scope.get("route")  # set by the router on the scope it was given (ours) once a route matched
    template = getattr(route, "path", None)
    if isinstance(template, str) and template.startswith(REST_PREFIX):
        return template
    return scope["path"] if scope["path"] in KNOWN_PATHS else "other"
