"""ASGI middleware: time every HTTP request (api/guard.py refuses what the parsers must not see)."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from firebreak.api.guard import REST_PREFIX
from firebreak.api.metrics import Metrics

KNOWN_PATHS = ("/graphql", "/healthz", "/readyz", "/metrics")


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
