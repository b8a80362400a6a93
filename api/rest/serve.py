"""Serve one Operation: read and check its parameters and body against its schemas, apply the rate limits, run
the handler, and answer every refusal (ours, a rate limit, an unreachable Redis, a fault) as problem+json."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from graphql import GraphQLError
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from firebreak.api import language
from firebreak.api.context import Context
from firebreak.api.ratelimit import rate_limited, retry_after_header
from firebreak.api.rest.checking import body_refusal, check_param, unacceptable
from firebreak.api.rest.limits import limits_of
from firebreak.api.rest.problems import Problem, challenge, problem
from firebreak.api.rest.table import Auth, Call, Operation, Param, body_may_be_left_out
from firebreak.api.services import Services
from firebreak.api.unavailable import HEADERS as UNAVAILABLE_HEADERS
from firebreak.api.unavailable import MESSAGE as UNAVAILABLE_MESSAGE
from firebreak.matches import connections, packing
from firebreak.matches.refusals import Refusal

log = logging.getLogger("firebreak.api")
Endpoint = Callable[[Request], Awaitable[Response]]


class CompactJSON(JSONResponse):
    """Starlette's JSON response, rendered by orjson (the same compact UTF-8 text, several times faster)."""

    def render(self, content: Any) -> bytes:
        """The body's bytes."""
        return packing.dump_bytes(content)


def endpoint(operation: Operation, services: Services) -> Endpoint:
    """The Starlette endpoint of an operation."""

    limits = limits_of(services).context()  # the settings a body is checked against

    async def serve(request: Request) -> Response:
        context = Context(services=services, request=request)
        try:
            params = _params(operation, request)
            raw = await request.body() if operation.body else b""  # RequestGuard's 413 passes through
            body = _body(operation, request, raw, limits)
            await _limits(operation, context)
            if operation.auth is not Auth.SIGN_IN:
                await context.principal()  # a bad player credential: 401 UNAUTHENTICATED, whatever the operation
            reply = await operation.handler(Call(services, context, request, params, body))
        except Problem as refused:
            if operation.auth is not Auth.SIGN_IN:
                await _saved_language(context)
            return _answer(refused)
        except GraphQLError as error:  # the shared context's refusals (UNAUTHORIZED, RATE_LIMITED)
            return _answer(_from_graphql(error))
        except connections.UNAVAILABLE:
            return _answer(problem(Refusal.SERVICE_UNAVAILABLE, UNAVAILABLE_MESSAGE), UNAVAILABLE_HEADERS)
        except Exception:  # a fault of ours: logged, never its text to the client
            log.exception("unexpected error in %s %s", operation.method, operation.path)
            return _answer(problem(Refusal.INTERNAL, "Internal error."))
        if isinstance(reply, Response):
            return reply
        return CompactJSON(reply.body, status_code=reply.status, headers=reply.headers)

    serve.__name__ = operation.operation_id
    return serve


async def _saved_language(context: Context) -> None:
    """Before a refusal met ahead of the credential's check (a body, a parameter, a limit) is written: the player's
    saved locale when the request asked for no language the service speaks, as every other answer has it."""
    if language.asked_nothing() and context.presented:
        try:
            await context.authenticate()  # once per request: a refusal met after it has its language already
        except Exception:  # the refusal is answered whatever this meets (in English then)
            return


def _answer(refused: Problem, headers: dict[str, str] | None = None) -> Response:
    refused.headers.update(headers or {})
    if refused.status == 401:
        refused.headers.setdefault("WWW-Authenticate", 'Bearer realm="firebreak"')
    return refused.response()


def _from_graphql(error: GraphQLError) -> Problem:
    extensions = error.extensions or {}
    if extensions.get("code") == Refusal.RATE_LIMITED:
        retry = float(extensions["retryAfter"])
        return Problem(Refusal.RATE_LIMITED.status, Refusal.RATE_LIMITED, error.message, {"retryAfter": retry},
                       {"Retry-After": retry_after_header(retry)})
    if extensions.get("code") == Refusal.UNAUTHENTICATED:
        reason = str(extensions.get("reason"))
        return Problem(Refusal.UNAUTHENTICATED.status, Refusal.UNAUTHENTICATED, error.message, {"reason": reason},
                       {"WWW-Authenticate": challenge(reason)})
    return Problem(Refusal.UNAUTHORIZED.status, str(extensions.get("code", Refusal.UNAUTHORIZED)), error.message)


async def _limits(operation: Operation, context: Context) -> None:
    """As the GraphQL surface: a credential from a blocked client is refused; a write takes one mutation from the
    client's bucket and, with a token, from the token's."""
    context.check_not_blocked()
    if operation.write:
        limits = context.services.limits
        verdict = await limits.mutations(context.client, context.token, 1)
        if not verdict.allowed:
            context.services.metrics.rate_limited("mutations")
            raise rate_limited(verdict.retry_after)


def _params(operation: Operation, request: Request) -> dict[str, Any]:
    out: dict[str, Any] = {}
    faults: list[tuple[str, dict[str, str]]] = []
    for param in operation.params:
        where = param.where
        source = request.path_params if where == "path" else request.headers if where == "header" else \
            request.query_params
        text = source.get(param.name)
        if text is None:
            if param.required:
                faults.append((Refusal.VALIDATION_FAILED.value,
                               {"pointer": f"#/{param.where}/{param.name}", "detail": "is required"}))
            else:
                out[param.name] = param.default
            continue
        value, why = _read(param, str(text))
        if why is not None:
            where = f"#/{param.where}/{param.name}"
            faults.append((Refusal.VALIDATION_FAILED.value, {"pointer": where, "detail": why}))
            continue
        if param.kind is str:  # any text is a str: nothing for pydantic to check
            out[param.name] = value
            continue
        out[param.name] = check_param(param.checker, param.code, param.where, param.name, value, faults)
    if faults:
        raise unacceptable(faults)
    return out


def _read(param: Param, text: str) -> tuple[Any, str | None]:
    """A parameter's text as its schema's type."""
    if param.json_type == "integer":
        try:
            return int(text), None
        except ValueError:
            return text, "must be an integer"
    if param.json_type == "boolean":
        if text.lower() in ("true", "false"):
            return text.lower() == "true", None
        return text, "must be true or false"
    return text, None


def _body(operation: Operation, request: Request, raw: bytes, limits: dict[str, Any]) -> BaseModel | None:
    if operation.body is None:
        return None
    if not raw and body_may_be_left_out(operation.body):
        raw, content_type = b"{}", "application/json"  # no body where every member may be left out: all left out
    else:
        content_type = request.headers.get("content-type", "").lower()
    if "application/json" not in content_type:
        raise problem(Refusal.UNSUPPORTED_MEDIA_TYPE, "the request body must be application/json")
    try:
        value = packing.loads(raw)  # orjson: invalid UTF-8, NaN and numbers beyond 64 bits are malformed JSON
    except ValueError as exc:
        raise problem(Refusal.MALFORMED_JSON, f"not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise problem(Refusal.BAD_REQUEST, "the request body must be a JSON object")
    try:
        return operation.body.model_validate(value, context=limits)
    except ValidationError as error:
        raise body_refusal(operation.body, error) from None
