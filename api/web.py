"""The browser client: web/index.html at / and the rest of web/ (ES modules, CSS, the vendored GraphiQL) under
/static.

The client is plain files with no build step; it talks to the service only through the public GraphQL API. The files
are package data of `firebreak` (firebreak/web: a link to the repository's web/ in a checkout, a copy inside the
wheel once installed), so the service finds them wherever it is installed, never relative to a checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

WEB_DIR = Path(str(resources.files("firebreak") / "web"))
NO_CACHE = {"cache-control": "no-cache"}  # revalidate (ETag) on each load, so an upgrade is never half-applied
# The page loads its modules, styles and icon from this origin and talks to /graphql here (fetch and WebSocket); a
# title's module sets style attributes (a colour swatch), hence inline styles; no other page may frame it.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class _Revalidated(StaticFiles):
    """Static files that browsers keep but revalidate before each use."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(NO_CACHE)
        return response


def web_routes(web_dir: Path = WEB_DIR) -> list[BaseRoute]:
    """The routes that serve the client (a 404 at / when the folder is missing, e.g. in a trimmed image)."""
    index = web_dir / "index.html"

    async def home(_: Request) -> Response:
        if not index.is_file():
            return PlainTextResponse("the web client is not installed", status_code=404)
        return FileResponse(index, headers={**NO_CACHE, "content-security-policy": CSP})

    return [
        Route("/", home),
        Mount("/static", _Revalidated(directory=web_dir, check_dir=False), name="static"),
    ]
