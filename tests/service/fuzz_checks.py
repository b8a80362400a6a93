"""Schemathesis hooks loaded by tests/service/test_openapi_fuzz.py (SCHEMATHESIS_HOOKS): credentials for the
fuzzer (Credentials), and three built-in checks narrowed where they misread this API (use_after_free: a cancelled
seek stays readable; ensure_resource_availability: a 404 naming another resource) or where validity depends on the
match itself, which no document can state (positive_data_acceptance, the fuzzer cannot know these from the schema):

- BAD_SEAT on joinMatch, addBot and joinMatchByCode: a seat number beyond the match's seat count (the count is the
  match's: 2 to 6 by title and request).
- On act, ILLEGAL_ACTION or a title's own rules code (e.g. MALFORMED_ACTION): whether an action is legal depends on
  the match's state at that version; the document gives every title's action schema in GET /v1/titles/{id}.
- BAD_CURSOR on any operation with an `after` cursor (the lobby, my matches, a leaderboard, webhook deliveries):
  an opaque cursor is the service's to issue, from the page before; like an id, only the data can say whether a
  string is one (an unknown id is a 404, which the check allows).
- UNKNOWN_BOT_LEVEL on addBot: a level of another title than the match's (the enum lists every title's levels).
- BAD_WEBHOOK on createWebhookEndpoint for a URL whose host is an internal address (127.0.0.1, 0, localhost...):
  which addresses deliveries may reach is the deployment's to allow (FIREBREAK_WEBHOOK_ALLOWED_HOSTS), not the
  schema's.
- BAD_PUSH_SUBSCRIPTION on registerPushSubscription and registerPushDevice for a body the registration check
  refuses (firebreak.push.subscriptions): whether p256dh is a point of P-256, whether the endpoint's host is an
  internal address, whether a string is an FCM token shape; no schema says the first two.
- BAD_MESSAGE on sendChatMessage: a text (its characters checked after NFC) or a preset, not both, not neither.
- BAD_REPORT on report and the moderation's admin writes: a report names an existing player or a message the reporter
  may read, not the reporter, and a note holds no control or bidirectional character after NFC.
- BAD_SEARCH on searchPlayers for a prefix of characters no handle holds, or longer than a handle once NFKC has
  expanded it (ligatures, compatibility forms): handles are compared after NFKC and case folding, which no JSON
  Schema pattern states.

Every other schema-valid request refused with a 4xx other than 401, 403, 404, 409 and 429 (which depend on
credentials, what exists and the match's state, as schemathesis's own check allows) fails the run."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

import httpx
import schemathesis
from schemathesis.specs.openapi.checks import ensure_resource_availability, use_after_free

from firebreak.matches.refusals import registered
from firebreak.notifications.webhooks.destinations import Allowed, Refused, check_host
from firebreak.push.subscriptions import PushError, check, check_token

TOLERATED: dict[str, set[str]] = {
    "POST /v1/matches/{id}/seats": {"BAD_SEAT"},
    "POST /v1/matches/join": {"BAD_SEAT"},
    "POST /v1/matches/{id}/bots": {"BAD_SEAT", "UNKNOWN_BOT_LEVEL"},
    "POST /v1/matches/{id}/actions": {"ILLEGAL_ACTION"},
    "GET /v1/players": {"BAD_SEARCH"},  # a prefix is compared after NFKC and case folding: no pattern can say it
    "PATCH /v1/me": {"BAD_HANDLE"},  # a handle is checked after NFKC, its letters of one script: nor for this
    # a report names a player or a message that exists, the reporter may read and is not the reporter's own; a note
    # is checked after NFC for control and bidirectional characters: the data's to say, not the schema's
    "POST /v1/reports": {"BAD_REPORT"},
    "POST /v1/matches/{id}/chat": {"BAD_MESSAGE"},  # a text or a preset, its characters checked after NFC
    "PUT /v1/admin/players/{playerId}/mute": {"BAD_REPORT"},  # a note's characters (as above)
    "PUT /v1/admin/players/{playerId}/ban": {"BAD_REPORT"},
    "POST /v1/admin/reports/{reportId}/resolve": {"BAD_REPORT"},
}
ACCEPTED = {401, 403, 404, 409, 429}  # what schemathesis's positive_data_acceptance allows besides 2xx, 3xx, 5xx


def tolerated(label: str, status: int, code: str | None) -> bool:
    """Whether a refusal of schema-valid data is one whose validity depends on the match itself."""
    if code in TOLERATED.get(label, set()):
        return True
    if code == "BAD_CURSOR":
        return True  # every operation that answers it pages with an opaque `after` cursor
    # a title's own rules code (not one of the service's): an illegal action in that title's words
    return label == "POST /v1/matches/{id}/actions" and status == 422 and code is not None and \
        registered(code) is None


BASE = "FIREBREAK_FUZZ_BASE"          # the API's base URL (set by the test)
ADMIN = "FIREBREAK_FUZZ_ADMIN_TOKEN"  # the admin token the API was started with


@schemathesis.auth(refresh_interval=60)
class Credentials:
    """A signed-in guest's access token on every operation the fuzzer sends without one (so the player operations
    are reached, not only refused), the operator's admin token on /v1/admin; a credential a link gave (a seat's or
    the host's token) is kept."""

    def get(self, case: Any, context: Any) -> str:
        """A fresh guest session's access token (it lives a few minutes: refreshed every minute)."""
        answer = httpx.post(f"{os.environ[BASE]}/v1/auth/guest", timeout=20,
                            json={"name": "fuzzer", "deviceId": "fuzzer-device-0123456789"})
        answer.raise_for_status()
        token: str = answer.json()["accessToken"]
        return token

    def set(self, case: Any, data: str, context: Any) -> None:
        """The credential for this operation, unless the case has one."""
        headers = dict(case.headers or {})
        if any(name.lower() == "authorization" for name in headers):
            return
        admin = case.operation.path.startswith("/v1/admin")
        headers["Authorization"] = f"Bearer {os.environ[ADMIN] if admin else data}"
        case.headers = headers


@schemathesis.check
def use_after_free_but_a_cancelled_seek(ctx: Any, response: Any, case: Any) -> bool | None:
    """The built-in use_after_free, except a read of a seek after DELETE /v1/seeks/{id}: that DELETE cancels the
    seek, which stays readable (status CANCELLED) for a day as documented. Revoked tokens and deleted webhook
    endpoints are still checked."""
    if case.operation.label == "GET /v1/seeks/{id}":
        return None
    result: bool | None = use_after_free(ctx, response, case)
    return result


MISSING = {"MATCH_NOT_FOUND", "SEEK_NOT_FOUND", "TOKEN_NOT_FOUND", "WEBHOOK_NOT_FOUND", "DELIVERY_NOT_FOUND",
           "INVITATION_NOT_FOUND", "NOT_FOUND"}  # the 404 codes that say the addressed resource is gone


@schemathesis.check
def ensure_resource_availability_of_what_was_made(ctx: Any, response: Any, case: Any) -> bool | None:
    """The built-in ensure_resource_availability, except for a 404 about something else than the resource the
    request addresses (inviting made-up player ids to a new match: 404 PLAYER_NOT_FOUND names the players), or a
    private match hiding from a stranger (_private_to_another)."""
    if response.status_code == 404:
        try:
            code = response.json().get("code")
        except ValueError:
            code = None
        if code not in MISSING or _private_to_another(ctx, case, code):
            return None
    result: bool | None = ensure_resource_availability(ctx, response, case)
    return result


def _bearer(case: Any) -> str | None:
    for name, value in (case.headers or {}).items():
        if name.lower() == "authorization":
            return str(value)
    return None


def _private_to_another(ctx: Any, case: Any, code: str | None) -> bool:
    """Whether the 404 is a private match hiding as documented (docs/guides/matches.md): from someone its creator
    did not invite (this request carries another credential: the fuzzer's guest session is renewed every minute,
    so a link followed after a renewal is a stranger's request), or from a join by its id without its code or an
    invitation, the creator's own included (a fresh-clone CI run once drew that link with the same credential)."""
    if code != "MATCH_NOT_FOUND":
        return False
    parent = ctx.internals.find_parent(case_id=case.id)
    if parent is None or parent.operation.label != "POST /v1/matches":
        return False
    body = parent.body if isinstance(parent.body, dict) else {}
    joined_by_id = case.operation.label == "POST /v1/matches/{id}/seats"
    return body.get("private") is True and (joined_by_id or _bearer(parent) != _bearer(case))


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
    if tolerated(case.operation.label, status, code) or (code == "BAD_WEBHOOK" and internal_webhook(case)) \
            or (code == "BAD_PUSH_SUBSCRIPTION" and refused_push(case)):
        return None
    raise AssertionError(f"valid data refused: {status} {code} ({case.operation.label})")


def internal_webhook(case: Any) -> bool:
    """Whether the case adds a webhook endpoint whose host is an internal address (the deployment's to allow)."""
    if case.operation.label != "POST /v1/admin/webhooks" or not isinstance(case.body, dict):
        return False
    try:
        check_host(urlsplit(str(case.body.get("url", "")).strip()).hostname or "", Allowed())
    except (Refused, ValueError):
        return True
    return False


def refused_push(case: Any) -> bool:
    """Whether the case registers a browser subscription or a device token the registration check refuses."""
    body = case.body if isinstance(case.body, dict) else {}
    try:
        if case.operation.label == "POST /v1/me/push-subscriptions":
            keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
            check(str(body.get("endpoint", "")), str(keys.get("p256dh", "")), str(keys.get("auth", "")), Allowed())
        elif case.operation.label == "POST /v1/me/push-devices":
            check_token(str(body.get("token", "")))
        else:
            return False
    except PushError:
        return True
    return False
