"""The OpenAPI 3.1 document of the REST surface, written from the route table (the same operations, parameters and
schemas the routes serve and enforce), so that the document cannot drift from the service."""

from __future__ import annotations

from typing import Any

from firebreak.api.rest.limits import Limits
from firebreak.api.rest.problems import MEDIA_TYPE, TITLES, rest_codes
from firebreak.api.rest.schemas import components, ref
from firebreak.api.rest.table import Auth, Operation, body_may_be_left_out

VERSION = "1.0.0"
DESCRIPTION = """A REST surface beside GraphQL (/graphql): the same lobby and apply pipeline, the same bearer
tokens, rate limits and codes. Send a seat token (from POST /v1/matches/{id}/seats), a match's host token (from
POST /v1/matches) or a player's credential (a session's accessToken from POST /v1/auth/guest, a personal access
token, or the operator's JWT) as `Authorization: Bearer <token>`; a player's credential acts for every seat bound to
the player, and a bad one is refused with 401 UNAUTHENTICATED and `WWW-Authenticate: Bearer error="invalid_token"`.
Every refusal is an RFC 9457 problem (application/problem+json) whose `code` is the one GraphQL gives for the same
refusal. A match that is over answers an action with 409 MATCH_OVER (not 410: the match can still be read)."""
TAGS = [
    {"name": "titles", "description": "The playable games."},
    {"name": "matches", "description": "The lobby: list, create and read matches."},
    {"name": "seats", "description": "Take a seat, seat a bot, read a seat."},
    {"name": "play", "description": "Submit actions and read what happened."},
    {"name": "players", "description": "Sign in, sessions, the signed-in player and its access tokens."},
    {"name": "seeks", "description": "Find opponents: seek a game, follow and cancel one's seeks."},
    {"name": "push", "description": "Pushes to closed apps: register a browser's Web Push subscription, preferences."},
    {"name": "social", "description": "Players who know each other: search, public profiles, friends, blocks."},
    {"name": "admin", "description": "The operator's admin API (Authorization: Bearer <FIREBREAK_ADMIN_TOKEN>): "
                                     "webhook endpoints and deliveries."},
    {"name": "docs", "description": "This document and its offline renderer."},
]
HEADERS = {
    "Location": {"description": "The path of what was created.", "schema": {"type": "string"}},
    "Preference-Applied": {"description": "return=minimal when the request's Prefer header asked for it (RFC 7240).",
                           "schema": {"type": "string"}},
    "Retry-After": {"description": "Seconds to wait before trying again.", "schema": {"type": "integer"}},
    "WWW-Authenticate": {"description": "The scheme to authenticate with (Bearer).", "schema": {"type": "string"}},
}
PROBLEM_HEADERS = {401: "WWW-Authenticate", 429: "Retry-After", 503: "Retry-After"}


def document(operations: list[Operation], limits: Limits | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of these operations (with these settings' bounds)."""
    paths: dict[str, dict[str, Any]] = {}
    for operation in operations:
        paths.setdefault(operation.path, {})[operation.method.lower()] = _operation(operation)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Firebreak REST API", "version": VERSION, "description": DESCRIPTION},
        "servers": [{"url": "/"}],
        "tags": TAGS,
        "paths": paths,
        "components": {
            "schemas": components(limits),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "A seat token, a match's host token, or a player's "
                                                          "credential (session access token, personal access "
                                                          "token, the operator's JWT)."}},
        },
        "x-problem-codes": {code.value: {"status": code.status, "description": code.description}
                            for code in rest_codes()},
    }


def _operation(operation: Operation) -> dict[str, Any]:
    out: dict[str, Any] = {
        "operationId": operation.operation_id,
        "summary": operation.summary,
        "description": operation.description,
        "tags": [operation.tag],
    }
    if operation.params:
        out["parameters"] = [{"name": p.name, "in": p.where, "required": p.required or p.where == "path",
                              "description": p.description, "schema": p.schema} for p in operation.params]
    if operation.body:
        media: dict[str, Any] = {"schema": ref(operation.body.__name__)}
        if operation.example is not None:
            media["example"] = operation.example
        # a body whose every member may be left out may be left out itself (the route reads none as {})
        out["requestBody"] = {"required": not body_may_be_left_out(operation.body),
                              "content": {"application/json": media}}
    if operation.auth in (Auth.REQUIRED, Auth.PLAYER, Auth.ADMIN):
        out["security"] = [{"bearer": []}]
    elif operation.auth is Auth.OPTIONAL:
        out["security"] = [{}, {"bearer": []}]
    text = operation.media != "application/json"
    schema = ref(operation.response) if operation.response else {"type": "string" if text else "object"}
    if text and operation.response:  # a stream of messages: each one's data is a document of that schema
        schema = {"type": "string", "contentMediaType": operation.media, "contentSchema": ref(operation.response)}
    success: dict[str, Any] = {"description": operation.summary, "content": {operation.media: {"schema": schema}}}
    if operation.headers:
        success["headers"] = {name: HEADERS[name] for name in operation.headers}
    if operation.links:
        success["links"] = {name: {"operationId": target, "parameters": dict(parameters)}
                            for name, target, parameters in operation.links}
    responses: dict[str, Any] = {str(operation.success): success}
    for status, codes in operation.refusals().items():
        response: dict[str, Any] = {
            "description": f"{TITLES[status]}: {', '.join(codes)}.",
            "content": {MEDIA_TYPE: {"schema": ref("Problem")}},
        }
        if status in PROBLEM_HEADERS:
            name = PROBLEM_HEADERS[status]
            response["headers"] = {name: HEADERS[name]}
        responses[str(status)] = response
    out["responses"] = responses
    return out
