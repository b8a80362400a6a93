"""The OpenAPI document at /v1/openapi.json and the page that renders it at /v1/docs (one HTML file with a small
renderer inline: it loads nothing but the document, so it works offline)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.responses import HTMLResponse, JSONResponse, Response

from firebreak.api.rest.limits import Limits, limits_of
from firebreak.api.rest.table import Call, Operation

PAGE = Path(__file__).with_name("docs.html")
# The page may run its own inline script and style and fetch from this origin; nothing else loads.
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
       "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def operations(document: Callable[[Limits], dict[str, Any]]) -> list[Operation]:
    """The two docs operations, serving the document that `document` returns for the service's settings (built
    once per set of titles and settings: its bytes, over 400 kB with every title's schemas, are kept with it)."""
    rendered: list[tuple[dict[str, Any], bytes]] = []  # the last document served and its bytes

    async def openapi(call: Call) -> Response:
        written = document(limits_of(call.services))
        if not rendered or rendered[0][0] is not written:
            rendered[:] = [(written, bytes(JSONResponse(written).body))]
        return Response(rendered[0][1], media_type="application/json")

    async def docs(_: Call) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"), headers={"Content-Security-Policy": CSP})

    return [
        Operation("GET", "/v1/openapi.json", "getOpenApi", "docs", "This OpenAPI 3.1 document",
                  "The document, written from the same route table the service serves.", openapi),
        Operation("GET", "/v1/docs", "getDocs", "docs", "The docs page",
                  "A self-contained page rendering this document (works offline).", docs, media="text/html"),
    ]
