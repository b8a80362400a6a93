"""Refuse JSON that would trip the parsers: nesting too deep, or a GraphQL request that is not an object."""

from __future__ import annotations

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_JSON_DEPTH = 64
BAD_MESSAGE = 4400  # graphql-transport-ws close code for an invalid message


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


class JsonGuard:
    """HTTP: 400 for a too-deep body or a non-object JSON body; WebSocket: close 4400 on a too-deep message."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self.app(scope, self._guard_messages(receive, send), send)
            return
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body, messages = await _read_body(receive)
        problem = json_problem(body) if _is_json(scope) else None
        if problem is None and _is_json(scope):
            problem = _shape_problem(body)
        if problem is not None:
            await PlainTextResponse(problem, status_code=400)(scope, receive, send)
            return
        replay = iter(messages)

        async def replayed() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, replayed, send)

    def _guard_messages(self, receive: Receive, send: Send) -> Receive:
        async def guarded() -> Message:
            message = await receive()
            text = message.get("text") if message["type"] == "websocket.receive" else None
            if text is not None and json_problem(text) is not None:
                await send({"type": "websocket.close", "code": BAD_MESSAGE, "reason": "message nested too deep"})
                return {"type": "websocket.disconnect", "code": BAD_MESSAGE}
            return message

        return guarded


def _is_json(scope: Scope) -> bool:
    content_type: bytes = dict(scope["headers"]).get(b"content-type", b"")
    return content_type.split(b";")[0].strip().lower() == b"application/json"


def _shape_problem(body: bytes) -> str | None:
    if body.lstrip()[:1] != b"{":
        return 'the request body must be a JSON object with a "query"'
    return None


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
