"""Headers every HTTP answer carries, added in one place (the outermost middleware, so refusals get them too).

- `X-Content-Type-Options: nosniff` on every answer: a browser takes each as the type it says it is.
- `Cache-Control: no-store` and `Pragma: no-cache` on every answer of the API (GraphQL at /graphql, REST under
  /v1/) that sets no Cache-Control of its own: any of them may carry a token or a secret (a session, a seat's or
  the host's token, a personal access token, a webhook secret) or a seat's private view, which no cache may keep
  (RFC 6749 section 5.1). The web client's files keep their own `no-cache` (revalidated, never a credential).

The pages a browser shows set their own Content-Security-Policy beside their content (api/web.py, api/explorer.py,
api/rest/docs.py).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from firebreak.api.guard import REST_PREFIX

NOSNIFF = (b"x-content-type-options", b"nosniff")
NO_STORE = ((b"cache-control", b"no-store"), (b"pragma", b"no-cache"))
GRAPHQL_PATH = "/graphql"


def private(path: str) -> bool:
    """Whether an answer to this path is the API's (never to be stored by a cache)."""
    return path == GRAPHQL_PATH or path.startswith(REST_PREFIX)


class AnswerHeaders:
    """Add nosniff to every HTTP answer and no-store to the API's (see the module's docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = private(scope["path"])

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                names = {name.lower() for name, _ in headers}
                if NOSNIFF[0] not in names:
                    headers.append(NOSNIFF)
                if api and b"cache-control" not in names:
                    headers.extend(NO_STORE)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
