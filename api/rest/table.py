"""The route table of the REST surface: one Operation per method and path, with its parameters, request and
response schemas and refusals. The routes are built from it and the OpenAPI document is written from it."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter
from starlette.requests import Request
from starlette.responses import Response

from firebreak.api.context import Context
from firebreak.api.rest.checking import adapter
from firebreak.api.rest.requests import Body
from firebreak.api.rest.schemas import Generator
from firebreak.api.services import Services
from firebreak.matches.refusals import Refusal

B = TypeVar("B", bound=BaseModel)

class Auth(StrEnum):
    """What an operation does with the bearer token."""

    NONE = "none"          # not needed (a bad player credential sent is refused all the same, as over GraphQL)
    SIGN_IN = "sign-in"    # the credential is in the body (sign-in, refresh): the bearer credential is not read
    OPTIONAL = "optional"  # a seat token (or a player's credential) reads as that seat, none as a spectator
    REQUIRED = "required"  # a seat token, the host token or a seated player's credential must be sent
    PLAYER = "player"      # a player's credential must be sent
    ADMIN = "admin"        # the operator's admin token must be sent (checked by the handler)


@dataclass(frozen=True)
class Param:
    """A path, query or header parameter with its type (query and path values are read as the type's JSON type, then
    checked by pydantic against it; a bound broken is refused with code), whose JSON Schema the document gives."""

    name: str
    where: str
    kind: Any
    description: str
    required: bool = False
    default: Any = None
    code: Refusal = Refusal.VALIDATION_FAILED

    @functools.cached_property
    def checker(self) -> TypeAdapter[Any]:
        """pydantic's validator of the type."""
        return adapter(self.kind)

    @functools.cached_property
    def json_type(self) -> str | None:
        """The JSON type a value of the parameter's text is read as (integer, boolean; else a string): found once,
        it is read on every request."""
        kind = self.checker.json_schema().get("type")
        return kind if isinstance(kind, str) else None

    @property
    def schema(self) -> dict[str, Any]:
        """The parameter's JSON Schema (with its default), as the registry of titles stands (written with the
        document, which is built once per set of titles)."""
        schema: dict[str, Any] = self.checker.json_schema(schema_generator=Generator)
        if self.default is not None:
            schema["default"] = self.default
        return schema


@dataclass
class Call:
    """One request as an operation's handler sees it: services, the caller, the checked parameters and body."""

    services: Services
    context: Context
    request: Request
    params: dict[str, Any]
    body: BaseModel | None

    def form(self, kind: type[B]) -> B:
        """The checked body as its model."""
        assert isinstance(self.body, kind), type(self.body)
        return self.body


@dataclass(frozen=True)
class Reply:
    """A handler's JSON answer: status, body and headers."""

    body: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[Call], Awaitable[Reply | Response]]


@functools.cache
def body_may_be_left_out(model: type[BaseModel]) -> bool:
    """Whether an operation's body may be left out: its model takes {} (every member may be left out, and nothing
    asks for one of them), so none is read as {} and the document marks the body not required."""
    try:
        model.model_validate({})
    except Exception:  # whatever refuses {}: a validation error, a validator needing the limits
        return False
    return True


@dataclass(frozen=True)
class Operation:
    """One REST operation: method, path template, what it takes and answers, and the handler that serves it."""

    method: str
    path: str
    operation_id: str
    tag: str
    summary: str
    description: str
    handler: Handler
    success: int = 200
    response: str | None = None       # the component schema of the success body (None: not JSON, see media)
    media: str = "application/json"
    params: tuple[Param, ...] = ()
    body: type[Body] | None = None    # the model of the request body
    example: Any = None               # an example request body
    auth: Auth = Auth.NONE
    write: bool = False               # charged to the mutation rate limits
    codes: tuple[Refusal, ...] = ()   # the problem codes particular to this operation
    headers: tuple[str, ...] = ()     # response headers of the success answer (Location)
    links: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = ()  # (name, operationId, (param, expression))

    def refusals(self) -> dict[int, list[str]]:
        """Every problem code the operation may answer, its own and the common ones, by status."""
        codes = [Refusal.RATE_LIMITED, *self.codes]
        if self.body:
            codes += [Refusal.MALFORMED_JSON, Refusal.JSON_TOO_DEEP, Refusal.BAD_REQUEST, Refusal.BODY_TOO_LARGE,
                      Refusal.UNSUPPORTED_MEDIA_TYPE, Refusal.VALIDATION_FAILED]
        if any(p.where != "path" or (p.kind is not str and p.code is Refusal.VALIDATION_FAILED) for p in self.params):
            codes.append(Refusal.VALIDATION_FAILED)
        if self.auth in (Auth.OPTIONAL, Auth.REQUIRED):
            codes.append(Refusal.UNAUTHORIZED)
        if self.auth is Auth.ADMIN:
            codes.append(Refusal.ADMIN_UNAUTHORIZED)
        if self.auth is not Auth.SIGN_IN:  # a bad player credential is refused by every other operation
            codes.append(Refusal.UNAUTHENTICATED)
        codes.append(Refusal.SERVICE_UNAVAILABLE)  # any: verifying a credential sent reads Redis
        out: dict[int, list[str]] = {}
        for code in dict.fromkeys(codes):
            out.setdefault(code.status, []).append(code.value)
        return dict(sorted(out.items()))


PATH_ID = Param("id", "path", str, "The match id.", required=True)
