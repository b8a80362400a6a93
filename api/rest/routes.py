"""Every REST operation, the Starlette routes that serve them, and the problem answers for unknown /v1 paths."""

from __future__ import annotations

import functools
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from firebreak.api.rest import (
    account,
    actions,
    chat,
    docs,
    export,
    invitations,
    matches,
    mine,
    moderation,
    openapi,
    players,
    push,
    ratings,
    rematch,
    seats,
    seats_life,
    seeks,
    social,
    titles,
    webhooks,
)
from firebreak.api.rest import events as my_events
from firebreak.api.rest.limits import Limits
from firebreak.api.rest.problems import Problem, problem
from firebreak.api.rest.requests import title_ids
from firebreak.api.rest.serve import Endpoint, endpoint
from firebreak.api.rest.table import Operation
from firebreak.api.services import Services
from firebreak.matches.refusals import Refusal

PREFIX = "/v1/"


def document(limits: Limits | None = None) -> dict[str, Any]:
    """The OpenAPI document of every operation (built once per set of registered titles, whose ids and bot levels
    are enums of it, and of settings that bound a request: the settings' defaults unless given)."""
    return _document(tuple(title_ids()), limits or Limits())


@functools.cache
def _document(_titles: tuple[str, ...], limits: Limits) -> dict[str, Any]:
    return openapi.document(OPERATIONS, limits)


OPERATIONS: list[Operation] = [*titles.OPERATIONS, *matches.OPERATIONS, *seats.OPERATIONS, *seats_life.OPERATIONS,
                               *actions.OPERATIONS, *players.OPERATIONS, *mine.OPERATIONS, *rematch.OPERATIONS,
                               *invitations.OPERATIONS, *export.OPERATIONS, *seeks.OPERATIONS, *ratings.OPERATIONS,
                               *webhooks.OPERATIONS, *my_events.OPERATIONS, *account.OPERATIONS,
                               *push.OPERATIONS, *social.OPERATIONS, *chat.OPERATIONS, *moderation.OPERATIONS,
                               *docs.operations(document)]


def rest_routes(services: Services) -> list[BaseRoute]:
    """One route per path, serving each of its operations by method (so a 405 lists every allowed method)."""
    by_path: dict[str, dict[str, Endpoint]] = {}
    for op in OPERATIONS:
        by_path.setdefault(op.path, {})[op.method] = endpoint(op, services)
    # a path of fixed segments before the templates it would match (/v1/matches/join before /v1/matches/{id}), so
    # that every method of it, and its 405's Allow, is its own
    ordered = sorted(by_path.items(), key=lambda item: item[0].count("{"))
    return [Route(path, _by_method(endpoints), methods=list(endpoints)) for path, endpoints in ordered]


def _by_method(endpoints: dict[str, Endpoint]) -> Endpoint:
    async def serve(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        return await endpoints[method](request)

    return serve


async def http_error(request: Request, exc: Exception) -> Response:
    """404 and 405 from the router: a problem under /v1/, Starlette's plain text elsewhere."""
    assert isinstance(exc, HTTPException)
    if not request.url.path.startswith(PREFIX):
        return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=exc.headers)
    if exc.status_code == 405:
        refused = problem(Refusal.METHOD_NOT_ALLOWED, f"{request.method} is not allowed here")
        refused.headers.update(exc.headers or {})
    else:
        refused = Problem(exc.status_code, Refusal.NOT_FOUND, f"no such path: {request.url.path}")
    return refused.response()
