"""The Starlette application: GraphQL at /graphql (GraphiQL in a browser), the REST surface under /v1/ (OpenAPI at
/v1/openapi.json, docs at /v1/docs), health, readiness, metrics, and the browser client (web/) at /."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
from cross_web import HTTPException
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse
from strawberry.types import ExecutionResult
from strawberry.types.graphql import OperationType

from firebreak.api import language, problem_words
from firebreak.api.context import Context
from firebreak.api.cors import Cors
from firebreak.api.explorer import graphiql_policy, offline_graphiql_html
from firebreak.api.guard import Refusal, RequestGuard
from firebreak.api.headers import AnswerHeaders
from firebreak.api.language import LanguageMiddleware
from firebreak.api.metrics import Metrics, MetricsSettings
from firebreak.api.middleware import Timing
from firebreak.api.readiness import readiness
from firebreak.api.rest.routes import http_error, rest_routes
from firebreak.api.routing import IndexedRouter
from firebreak.api.schema import fastpath, schema
from firebreak.api.scrape import ScrapeAccess
from firebreak.api.services import Services
from firebreak.api.settings import API_SETTINGS
from firebreak.api.unavailable import HEADERS, is_unavailable, is_unavailable_answer, unavailable_error
from firebreak.api.web import web_routes
from firebreak.matches import packing, refusals
from firebreak.matches.config import Settings
from firebreak.matches.envsettings import read_all
from firebreak.matches.plugins import register_titles


def _said(error: Any) -> Any:
    """A GraphQL error with a code, its message in the request's language (api/problem_words.py)."""
    code = error.get("extensions", {}).get("code") if isinstance(error, dict) else None
    return {**error, "message": problem_words.said(code, error.get("message", ""))} if isinstance(code, str) else error


class FirebreakGraphQL(GraphQL[Context, None]):
    """strawberry's ASGI app with our typed context."""

    def __init__(self, services: Services, **kwargs: Any) -> None:
        super().__init__(schema, **kwargs)
        self.services = services

    @property
    def graphql_ide_html(self) -> str:
        """GraphiQL, its files served by us (api/explorer.py): it works with no internet access."""
        return offline_graphiql_html()

    async def render_graphql_ide(self, request: Request) -> Response:
        """GraphiQL's page under its Content-Security-Policy (no page may frame it)."""
        return HTMLResponse(self.graphql_ide_html, headers={"content-security-policy": graphiql_policy()})

    async def get_context(self, request: Request | WebSocket, response: Response | WebSocket) -> Context:
        """The context of one request or WebSocket connection."""
        return Context(services=self.services, request=request, response=response)

    async def process_result(self, request: Request, result: ExecutionResult) -> GraphQLHTTPResponse:
        """The JSON answer; while Redis is unreachable, only the SERVICE_UNAVAILABLE error (no data), wherever
        the request met the outage (a resolver, or an extension such as the rate limits)."""
        if result.errors and any(is_unavailable(e) for e in result.errors):
            return {"errors": [_said(unavailable_error().formatted)]}
        answer = await super().process_result(request, result)
        errors = answer.get("errors")
        if errors and language.chosen() != language.DEFAULT:
            answer["errors"] = [_said(error) for error in errors]
        return answer

    def create_response(self, response_data: GraphQLHTTPResponse | list[GraphQLHTTPResponse],
                        sub_response: Response) -> Response:
        """strawberry's response; HTTP 503 with Retry-After for the SERVICE_UNAVAILABLE answer."""
        if isinstance(response_data, dict) and is_unavailable_answer(response_data):
            sub_response.status_code = 503
            sub_response.headers.update(HEADERS)
        return super().create_response(response_data, sub_response)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """As strawberry's, but a request refused as a whole gets a GraphQL error body (JSON), not plain text."""
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        request = Request(scope=scope, receive=receive)
        try:
            response = await self._planned(request) or await self.run(request)
        except HTTPException as exc:
            response = Refusal.of(exc).response()
        await response(scope, receive, send)

    async def _planned(self, request: Request) -> Response | None:
        """The answer to a POST of one JSON request whose text is planned (api/schema/plans.py), run on the fast
        path as strawberry's run() would run it (the same sub-response, context, result processing and response),
        without its request adapter, content-type parsing and dispatch; None for anything else, which run()
        then answers from the same request (its body already read and kept by Starlette)."""
        if request.method != "POST" or self._get_stream_transport_from_headers(request.headers) is not None:
            return None
        media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if media_type != "application/json":
            return None
        data = self.parse_json(await request.body())  # unparsable: the 400 MALFORMED_JSON run() gives too
        if not isinstance(data, dict):
            return None  # a batch, or no request object: run() says why
        query, variables = data.get("query"), data.get("variables")
        operation_name, extensions = data.get("operationName"), data.get("extensions")
        if not (isinstance(query, str) and isinstance(variables, dict | None) and isinstance(operation_name, str | None)
                and isinstance(extensions, dict | None)):
            return None
        found = fastpath.planned(schema._schema, query, operation_name, OperationType.from_http("POST"))
        if found is None:
            return None
        sub_response = await self.get_sub_response(request)
        context = await self.get_context(request, sub_response)
        result = await schema.run_planned(found, context, variables, None, operation_name)  # our root value: None
        answer = await self.process_result(request, result)
        if result.errors:
            self._handle_errors(result.errors, answer)
        return self.create_response(answer, sub_response)

    def encode_json(self, data: object) -> str:
        """JSON with orjson (answers and WebSocket messages: text, as graphql-transport-ws wants)."""
        return packing.dumps(data)

    def decode_json(self, data: str | bytes) -> object:
        """JSON with orjson (bodies, GET parameters and WebSocket messages)."""
        return packing.loads(data)

    def parse_json(self, data: str | bytes) -> Any:
        """Parse a JSON body or GET parameter (HTTP only: WebSocket messages keep the protocol's close 4400);
        anything unparsable (invalid UTF-8, NaN, a number beyond 64 bits included) is a 400 MALFORMED_JSON."""
        try:
            return self.decode_json(data)
        except ValueError as exc:  # orjson.JSONDecodeError
            raise Refusal(400, refusals.Refusal.MALFORMED_JSON, f"not valid JSON: {exc}") from None


def create_app(settings: Settings | None = None) -> Starlette:
    """Build the service for the given (default: environment) settings; without them, every API setting is read
    and checked first (a SettingsError names every bad variable)."""
    if settings is None:
        settings = read_all(API_SETTINGS)[Settings]
    register_titles(settings.titles)
    services = Services.connect(settings)
    metrics = Metrics(services.redises.queue_url, settings.queue, settings.finished_ttl)
    services.metrics = metrics
    # the WebSocket handshake: strawberry lets in clients without Origin, the service's own pages and these origins
    graphql = FirebreakGraphQL(services, keep_alive=True, keep_alive_interval=15, allowed_origins=settings.cors_origins)

    async def healthz(_: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(_: Request) -> Response:
        answer = await readiness(services.redises)
        if answer["status"] != "ready":
            return JSONResponse(answer, status_code=503, headers=HEADERS)
        return JSONResponse(answer)

    scrape = ScrapeAccess.from_settings(MetricsSettings.from_env())

    async def metrics_endpoint(request: Request) -> Response:
        if not scrape.allows(request):
            return scrape.refused()
        # render() reads the job counts with a blocking client: off the event loop
        text = await anyio.to_thread.run_sync(metrics.render)
        return PlainTextResponse(text, media_type="text/plain; version=0.0.4")

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        # Everything imported so far lives as long as the process: keep it out of the collector's sweeps,
        # which otherwise paused the server ~50 ms at a time under load; then collect the young generation less
        # often (settings.gc_young; the older generations at Python's ratios), and time every pause
        # (firebreak_gc_pause_seconds).
        gc.freeze()
        gc.set_threshold(settings.gc_young, 10, 10)
        with metrics.gc_timed():
            await services.open()
            yield
            await services.close()

    routes = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_endpoint),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        WebSocketRoute("/graphql", graphql),
        *rest_routes(services),
        *web_routes(),
    ]
    # CORS outside the request guard (body limit, JSON guard), so that their refusals reach a browser app readable;
    # off (not in the stack at all) unless FIREBREAK_CORS_ORIGINS is set
    cors = [Middleware(Cors, origins=settings.cors_origins, methods=_methods(routes))] if settings.cors_origins else []
    app = Starlette(
        middleware=[Middleware(AnswerHeaders), Middleware(Timing, metrics=metrics), *cors,
                    Middleware(RequestGuard, max_bytes=settings.max_body_bytes), Middleware(LanguageMiddleware)],
        exception_handlers={404: http_error, 405: http_error},
    )
    # Starlette's router, trying only the routes that fit a request's path (api/routing.py); the middleware stack
    # is built around app.router on the first request
    app.router = IndexedRouter(routes, lifespan=lifespan)
    return app


def _methods(routes: list[Any]) -> set[str]:
    """The HTTP methods the routes answer (what a preflight may ask for), HEAD aside."""
    return {method for route in routes for method in (getattr(route, "methods", None) or ())} - {"HEAD"}
