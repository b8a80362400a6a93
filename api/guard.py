"""Refuse a request body larger than the limit and JSON that would trip the parsers (nesting too deep, a request body
that is not an object), and answer every refusal of a request as a whole with a 4xx status and a GraphQL error body
(an RFC 9457 problem under the REST prefix /v1/)."""

from __future__ import annotations

from urllib.parse import parse_qsl

from cross_web import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from firebreak.api.rest.problems import Problem
from firebreak.matches import refusals

MAX_JSON_DEPTH = 64
BAD_MESSAGE = 4400  # graphql-transport-ws close code for an invalid message
GET_JSON_PARAMS = ("variables", "extensions")  # GraphQL-over-GET parameters that hold JSON
STATUS_CODES = {400: refusals.Refusal.BAD_REQUEST, 404: refusals.Refusal.NOT_FOUND,
                405: refusals.Refusal.METHOD_NOT_ALLOWED}  # strawberry's refusals
REST_PREFIX = "/v1/"


class Refusal(HTTPException):
    """Raised when a request is refused as a whole: an HTTP status, a stable code and a message."""

    def __init__(self, status_code: int, code: str, message: str) -> None:
        super().__init__(status_code, message)
        self.code = code

    def response(self, path: str = "") -> JSONResponse:
        """The answer: {"errors": [{"message", "extensions": {"code"}}]} with the status; under the REST prefix, a
        problem+json body with the same code."""
        if path.startswith(REST_PREFIX):
            return Problem(self.status_code, self.code, self.reason).response()
        body = {"errors": [{"message": self.reason, "extensions": {"code": self.code}}]}
        return JSONResponse(body, status_code=self.status_code)

    @classmethod
    def of(cls, exc: HTTPException) -> Refusal:
        """A refusal for any HTTP exception (strawberry's own carry a status and a reason only)."""
        if isinstance(exc, Refusal):
            return exc
        return cls(exc.status_code, STATUS_CODES.get(exc.status_code, f"HTTP_{exc.status_code}"), exc.reason)


def problem(status_code: int, code: str, message: str, path: str = "") -> JSONResponse:
    """A refusal's response, for the middleware that answers before GraphQL (or a REST route) runs."""
    return Refusal(status_code, code, message).response(path)


def json_problem(raw: bytes | str) -> str | None:
    """Why this JSON text must be refused before a parser sees it, or None (invalid JSON is left to them)."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return None  # too few brackets to nest too deep: skip the scan (the usual case)
    depth = 0
    deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                return f"JSON nested deeper than {MAX_JSON_DEPTH} levels"
        elif char in "]}":
            depth -= 1
    return None


class RequestGuard:
    """HTTP: 413 (code BODY_TOO_LARGE) for a body larger than the limit, declared or streamed; 400 for a too-deep
    POST body or GET parameter, or a non-object JSON body; WebSocket: close 4400 on a too-deep message. One pass over
    the headers, and a POST's body read once and handed on as it came."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self.app(scope, self._guard_messages(receive, send), send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._too_large(scope, receive, send)
            return
        method = scope["method"]
        try:
            if method == "POST":
                await self._post(scope, receive, send, headers)
                return
            refusal = _query_string_refusal(scope.get("query_string", b"")) if method == "GET" else None
            if refusal is not None:
                await refusal.response(scope["path"])(scope, receive, send)
            else:
                await self.app(scope, self._limited(receive), send)
        except _TooLarge:
            await self._too_large(scope, receive, send)

    async def _post(self, scope: Scope, receive: Receive, send: Send, headers: dict[bytes, bytes]) -> None:
        body, messages = await _read_body(self._limited(receive))
        # as strawberry decides: any content type naming application/json is parsed as JSON
        refusal = _body_refusal(body, scope["path"]) if b"application/json" in headers.get(
            b"content-type", b"").lower() else None
        if refusal is not None:
            await refusal.response(scope["path"])(scope, receive, send)
            return
        replay = iter(messages)

        async def replayed() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, replayed, send)

    def _limited(self, receive: Receive) -> Receive:
        """receive, raising _TooLarge once the body passes the limit."""
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge
            return message

        return limited

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"the request body is larger than {self.max_bytes} bytes"
        await problem(413, refusals.Refusal.BODY_TOO_LARGE, message, scope["path"])(scope, receive, send)

    def _guard_messages(self, receive: Receive, send: Send) -> Receive:
        async def guarded() -> Message:
            message = await receive()
            text = message.get("text") if message["type"] == "websocket.receive" else None
            if text is not None and json_problem(text) is not None:
                await send({"type": "websocket.close", "code": BAD_MESSAGE, "reason": "message nested too deep"})
                return {"type": "websocket.disconnect", "code": BAD_MESSAGE}
            return message

        return guarded


def _body_refusal(body: bytes, path: str) -> Refusal | None:
    deep = json_problem(body)
    if deep is not None:
        return Refusal(400, refusals.Refusal.JSON_TOO_DEEP, deep)
    if body.lstrip()[:1] != b"{":
        wanted = "a JSON object" if path.startswith(REST_PREFIX) else 'a JSON object with a "query"'
        return Refusal(400, refusals.Refusal.BAD_REQUEST, f"the request body must be {wanted}")
    return None


def _query_string_refusal(query_string: bytes) -> Refusal | None:
    if not any(name.encode() in query_string for name in GET_JSON_PARAMS):
        return None  # the usual GET: nothing to parse here
    for name, value in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
        deep = json_problem(value) if name in GET_JSON_PARAMS else None
        if deep is not None:
            return Refusal(400, refusals.Refusal.JSON_TOO_DEEP, f"{name}: {deep}")
    return None


class _TooLarge(Exception):
    """Raised inside RequestGuard's receive when a streamed body passes the limit."""


async def _read_body(receive: Receive) -> tuple[bytes, list[Message]]:
    messages = []
    chunks = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks), messages
