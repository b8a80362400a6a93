"""A schemathesis check loaded by tests/service/test_openapi_fuzz.py (SCHEMATHESIS_HOOKS): the built-in
positive_data_acceptance, except for the refusals whose validity depends on the match itself, which no document
can state (the fuzzer cannot know them from the schema):

- BAD_SEAT on joinMatch, addBot and joinMatchByCode: a seat number beyond the match's seat count (the count is the
  match's: 2 to 6 by title and request).
- On act, ILLEGAL_ACTION or a title's own rules code (e.g. MALFORMED_ACTION): whether an action is legal depends on
  the match's state at that version; the document gives every title's action schema in GET /v1/titles/{id}.
- BAD_CURSOR on the leaderboard's after: an opaque cursor is the service's to issue (as an id is, whose absence
  is a 404 the check allows).
- UNKNOWN_BOT_LEVEL on addBot: a level of another title than the match's (the enum lists every title's levels).

Every other schema-valid request refused with a 4xx other than 401, 403, 404, 409 and 429 (which depend on
credentials, what exists and the match's state, as schemathesis's own check allows) fails the run."""

from __future__ import annotations

from typing import Any

import schemathesis

from firebreak.matches.refusals import registered

TOLERATED: dict[str, set[str]] = {
    "GET /v1/titles/{title}/leaderboard": {"BAD_CURSOR"},  # an opaque cursor the service issued, or not
    "POST /v1/matches/{id}/seats": {"BAD_SEAT"},
    "POST /v1/matches/join": {"BAD_SEAT"},
    "POST /v1/matches/{id}/bots": {"BAD_SEAT", "UNKNOWN_BOT_LEVEL"},
    "POST /v1/matches/{id}/actions": {"ILLEGAL_ACTION"},
}
ACCEPTED = {401, 403, 404, 409, 429}  # what schemathesis's positive_data_acceptance allows besides 2xx, 3xx, 5xx


def tolerated(label: str, status: int, code: str | None) -> bool:
    """Whether a refusal of schema-valid data is one whose validity depends on the match itself."""
    if code in TOLERATED.get(label, set()):
        return True
    # a title's own rules code (not one of the service's): an illegal action in that title's words
    return label == "POST /v1/matches/{id}/actions" and status == 422 and code is not None and \
        registered(code) is None


@schemathesis.check
def positive_data_acceptance_but_the_match(ctx: Any, response: Any, case: Any) -> bool | None:
    """Schema-valid data is accepted, but for what only the match can refuse (TOLERATED)."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    status = response.status_code
    if status < 400 or status >= 500 or status in ACCEPTED:
        return None
    try:
        code = response.json().get("code")
    except ValueError:
        code = None
    if tolerated(case.operation.label, status, code):
        return None
    raise AssertionError(f"valid data refused: {status} {code} ({case.operation.label})")
