"""RFC 9457 problem details: every refusal of the REST surface is an application/problem+json body with type,
title, status, detail and code (the code strings GraphQL uses), plus fields of its own where useful."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

from firebreak.api import language, problem_words
from firebreak.domain.words import noun
from firebreak.matches.refusals import VERSIONED, Refusal, registered
from firebreak.players.errors import BadHandle, PlayerError, PlayerNotFound, Reason, Unauthenticated

MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "/v1/docs#problem-"  # a problem's type: a URI reference to its entry in the served docs

# status -> short title (RFC 9457 "title": the same for every occurrence of the status), answered in the reader's
# language (the service's catalogue translates each under the context TITLE)
TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    410: "Gone",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}
OTHER = "Error"  # the title of a status without one above
TITLE = "problem title"


def title(status: int) -> str:
    """A status's title in the request's language."""
    return language.write(noun(TITLE, TITLES.get(status, OTHER)), language.service(language.chosen()),
                          lambda seat: None)

class Problem(Exception):
    """Raised when a REST request is refused: the HTTP status, a stable code, a message for people, and extra
    members of the problem body (e.g. currentVersion) and headers (e.g. Retry-After)."""

    def __init__(self, status: int, code: str, detail: str, extra: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra or {}
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        """The problem details object."""
        return {"type": TYPE_BASE + self.code, "title": title(self.status), "status": self.status,
                "detail": problem_words.said(self.code, self.detail), "code": self.code, **self.extra}

    def response(self) -> JSONResponse:
        """The application/problem+json response."""
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers, media_type=MEDIA_TYPE)


def problem(code: Refusal, detail: str, **extra: Any) -> Problem:
    """A problem with the code's status and extra members given as keywords."""
    return Problem(code.status, code, detail, extra)


def versioned(refusal: Refusal, detail: str, version: int | None, code: str | None = None) -> Problem:
    """The problem of a refused act or seat operation: currentVersion for STALE_VERSION, version for a refusal
    that carries it; code is the one answered (an illegal action's rules code), the refusal's by default."""
    extra: dict[str, Any] = {}
    if refusal is Refusal.STALE_VERSION:
        extra = {"currentVersion": version or 0}
    elif refusal in VERSIONED:
        extra = {"version": version}
    return Problem(refusal.status, refusal if code is None else code, detail, extra)


def for_code(code: str, detail: str) -> Problem:
    """A problem whose status is the code's (a code not registered, e.g. a title's own: 422)."""
    registered_code = registered(code)
    return Problem(422 if registered_code is None else registered_code.status, code, detail)


def challenge(reason: str | None) -> str:
    """The WWW-Authenticate value of a 401 (RFC 6750): error="invalid_token" unless no credential was sent."""
    if reason is None or reason == Reason.MISSING:
        return 'Bearer realm="firebreak"'
    return 'Bearer realm="firebreak", error="invalid_token"'


def player_refusal(error: PlayerError) -> Problem:
    """The problem of a players layer's refusal (UNAUTHENTICATED with its reason and WWW-Authenticate)."""
    if isinstance(error, PlayerNotFound):  # the credential's player is gone
        error = Unauthenticated(Reason.UNKNOWN)
    if isinstance(error, Unauthenticated):
        return Problem(Refusal.UNAUTHENTICATED.status, Refusal.UNAUTHENTICATED, error.message,
                       {"reason": error.reason.value}, {"WWW-Authenticate": challenge(error.reason)})
    if isinstance(error, BadHandle):
        return problem(Refusal.BAD_HANDLE, error.message, reason=error.reason.value)
    return for_code(error.code, error.message)


def rest_codes() -> list[Refusal]:
    """The codes the REST surface answers, by status (the docs list them, the Problem schema names them)."""
    return [code for code in Refusal if code.rest]
