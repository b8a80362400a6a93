"""RFC 9457 problem details: every refusal of the REST surface is an application/problem+json body with type,
title, status, detail and code (the code strings GraphQL uses), plus fields of its own where useful."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "/v1/docs#problem-"  # a problem's type: a URI reference to its entry in the served docs

# status -> short title (RFC 9457 "title": the same for every occurrence of the status)
TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}

# The codes a client may meet, with their status and what they mean: the docs list them, and the OpenAPI
# document's Problem schema names them.
CODES: dict[str, tuple[int, str]] = {
    "MALFORMED_JSON": (400, "The body is not valid JSON (or not UTF-8)."),
    "JSON_TOO_DEEP": (400, "The body (or a JSON parameter) nests deeper than the service reads."),
    "BAD_REQUEST": (400, "The body is not a JSON object."),
    "UNAUTHORIZED": (401, "The bearer token is missing, malformed, or not valid for this match."),
    "NOT_YOUR_TURN": (403, "Another seat (or the service) owes the decision; nothing changed."),
    "NOT_FOUND": (404, "No such path."),
    "MATCH_NOT_FOUND": (404, "No match has this id (or it has expired)."),
    "SEAT_NOT_FOUND": (404, "The match has no such seat."),
    "TITLE_NOT_FOUND": (404, "No title has this id."),
    "METHOD_NOT_ALLOWED": (405, "The path does not take this method (see the Allow header)."),
    "STALE_VERSION": (409, "The match is no longer at expectedVersion (currentVersion says where it is); read it "
                           "again and resubmit if still wanted."),
    "SEAT_TAKEN": (409, "The seat asked for is taken (or every seat is)."),
    "MATCH_STARTED": (409, "The match has started: its seats can no longer change."),
    "MATCH_NOT_STARTED": (409, "Seats are still open; the match starts when every seat is taken."),
    "MATCH_OVER": (409, "The match has ended: it can still be read, but takes no more actions (409, not 410: the "
                        "match itself is not gone)."),
    "BODY_TOO_LARGE": (413, "The body is larger than the service accepts."),
    "UNSUPPORTED_MEDIA_TYPE": (415, "The body must be sent as application/json."),
    "VALIDATION_FAILED": (422, "The body or a parameter does not match the operation's schema (errors lists where)."),
    "ILLEGAL_ACTION": (422, "The action is not legal now (the title may give a more precise code, e.g. "
                            "MALFORMED_ACTION); nothing changed."),
    "BAD_IDEMPOTENCY_KEY": (422, "The Idempotency-Key header must be 1-128 characters."),
    "BAD_OPTIONS": (422, "The seat count or an option is not one the title accepts (Title.options)."),
    "UNKNOWN_TITLE": (422, "No title has this id (createMatch's title)."),
    "BAD_SEAT": (422, "The seat number is outside the match's seats."),
    "UNKNOWN_BOT_LEVEL": (422, "The title has no bot of this level (Title.botLevels)."),
    "RATE_LIMITED": (429, "Too many requests: wait retryAfter seconds (also the Retry-After header)."),
    "INTERNAL": (500, "An unexpected fault of the service (no details are given)."),
    "SERVICE_UNAVAILABLE": (503, "The service cannot reach its store; retry after Retry-After seconds (a write's "
                                 "outcome is unknown: retry it with the same Idempotency-Key, or re-read)."),
}


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
        return {"type": TYPE_BASE + self.code, "title": TITLES.get(self.status, "Error"), "status": self.status,
                "detail": self.detail, "code": self.code, **self.extra}

    def response(self) -> JSONResponse:
        """The application/problem+json response."""
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers, media_type=MEDIA_TYPE)


def problem(status: int, code: str, detail: str, **extra: Any) -> Problem:
    """A problem with extra members given as keywords."""
    return Problem(status, code, detail, extra)


def for_code(code: str, detail: str, fallback: int = 422, **extra: Any) -> Problem:
    """A problem whose status is the code's (a code not listed, e.g. a title's own rules code: fallback)."""
    status = CODES[code][0] if code in CODES else fallback
    return Problem(status, code, detail, extra)
