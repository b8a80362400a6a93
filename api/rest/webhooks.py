"""REST admin: webhook endpoints and deliveries under /v1/admin/ (GraphQL's webhookEndpoints, webhookDeliveries,
createWebhookEndpoint, rotateWebhookSecret, deleteWebhookEndpoint, redeliverWebhook), behind the admin token."""

from __future__ import annotations

from typing import Any

from firebreak.api.admin import is_admin
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.rest import requests as R
from firebreak.api.rest.problems import problem
from firebreak.api.rest.requests import choice
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.matches.refusals import Refusal
from firebreak.notifications.webhooks.deliveries import CursorError, Status
from firebreak.notifications.webhooks.endpoints import Endpoint, EndpointError
from firebreak.notifications.webhooks.service import EVENT_TYPES


def endpoint_json(endpoint: Endpoint) -> dict[str, Any]:
    """An endpoint as listed (never its secrets)."""
    return {"id": endpoint.id, "url": endpoint.url, "eventTypes": list(endpoint.types),
            "description": endpoint.description, "created": endpoint.created,
            "fromSettings": endpoint.from_settings, "secretCount": len(endpoint.secrets)}


async def _admin(call: Call) -> None:
    if not await is_admin(call.context):
        raise problem(Refusal.ADMIN_UNAUTHORIZED, "this needs the operator's admin token as the bearer credential")


def _missing(exc: EndpointError) -> Exception:
    return problem(Refusal.WEBHOOK_NOT_FOUND, str(exc))


async def list_endpoints(call: Call) -> Reply:
    """Every webhook endpoint."""
    await _admin(call)
    return Reply({"items": [endpoint_json(e) for e in await call.services.webhooks.endpoints.all()]})


async def create_endpoint(call: Call) -> Reply:
    """Add an endpoint; its secret is in this answer only; 201."""
    await _admin(call)
    body = call.form(R.CreateWebhookEndpoint)
    try:
        endpoint = await call.services.webhooks.create(body.url, body.eventTypes or [],
                                                       body.description or "")
    except EndpointError as exc:
        raise problem(Refusal.BAD_WEBHOOK, str(exc)) from None
    return Reply({"endpoint": endpoint_json(endpoint), "secret": endpoint.secrets[0]}, 201,
                 {"Location": f"/v1/admin/webhooks/{endpoint.id}"})


async def rotate_secret(call: Call) -> Reply:
    """A new secret for an endpoint."""
    await _admin(call)
    keep = call.form(R.RotateWebhookSecret).keepPrevious
    try:
        endpoint, secret = await call.services.webhooks.rotate(call.params["endpointId"], bool(keep))
    except EndpointError as exc:
        raise _missing(exc) from None
    return Reply({"endpoint": endpoint_json(endpoint), "secret": secret})


async def delete_endpoint(call: Call) -> Reply:
    """Remove an endpoint."""
    await _admin(call)
    try:
        deleted = await call.services.webhooks.delete(call.params["endpointId"])
    except EndpointError as exc:
        raise _missing(exc) from None
    return Reply({"id": deleted.endpoint.id, "abandoned": deleted.abandoned})


async def list_deliveries(call: Call) -> Reply:
    """A page of the kept deliveries, newest first, filtered."""
    await _admin(call)
    p = call.params
    try:
        page = await call.services.webhooks.listing(
            max(1, min(p["first"], MAX_PAGE)), p.get("after"), p.get("endpointId"),
            None if p.get("status") is None else Status(p["status"]), p.get("playerId"), p.get("type"))
    except CursorError as exc:
        raise problem(Refusal.BAD_CURSOR, str(exc)) from None
    return Reply({"items": [d.to_json() for d in page.items], "endCursor": page.end_cursor,
                  "hasNextPage": page.has_next})


async def redeliver(call: Call) -> Reply:
    """Send a kept delivery again from its first attempt."""
    await _admin(call)
    try:
        delivery = await call.services.webhooks.redeliver(call.params["deliveryId"])
    except EndpointError as exc:
        if exc.missing:
            raise problem(Refusal.DELIVERY_NOT_FOUND, str(exc)) from None
        raise _missing(exc) from None
    return Reply({"delivery": delivery.to_json()})


ENDPOINT_ID = Param("endpointId", "path", str, "The endpoint's id.", required=True)
DELIVERY_ID = Param("deliveryId", "path", str, "The delivery's id.", required=True)
FILTERS = (
    Param("endpointId", "query", str, "Only this endpoint's deliveries."),
    Param("status", "query", choice(s.value for s in Status),
          "Only those of this status (failed: those given up, most recent first)."),
    Param("playerId", "query", str, "Only this player's."),
    Param("type", "query", choice(EVENT_TYPES), "Only this event type."),
    Param("first", "query", int, f"How many (clamped to 1-{MAX_PAGE}).", default=20),
    Param("after", "query", str, "The endCursor of the previous page."),
)
ADMIN = (Refusal.ADMIN_UNAUTHORIZED,)
OPERATIONS = [
    Operation("GET", "/v1/admin/webhooks", "listWebhookEndpoints", "admin", "List webhook endpoints",
              "Every webhook endpoint: the settings' one (FIREBREAK_WEBHOOK_URL, id default) first, then those "
              "added here (never their secrets).", list_endpoints, response="WebhookEndpointList", auth=Auth.ADMIN,
              codes=ADMIN),
    Operation("POST", "/v1/admin/webhooks", "createWebhookEndpoint", "admin", "Add a webhook endpoint",
              "Deliveries of the chosen event types (none: every type) are POSTed there, signed per Standard "
              "Webhooks with the whsec_ secret shown in this answer only.", create_endpoint, success=201,
              response="WebhookEndpointCreated", body=R.CreateWebhookEndpoint,
              example={"url": "https://push.example.com/firebreak", "eventTypes": ["yourTurn", "invited"]},
              auth=Auth.ADMIN, write=True, codes=(*ADMIN, Refusal.BAD_WEBHOOK), headers=("Location",)),
    Operation("POST", "/v1/admin/webhooks/{endpointId}/rotate", "rotateWebhookSecret", "admin",
              "Rotate a webhook endpoint's secret",
              "A new secret (shown this once); deliveries are signed with the new and the previous one (two "
              "webhook-signature entries) until the next rotation, unless keepPrevious is false.", rotate_secret,
              response="WebhookSecretRotated", body=R.RotateWebhookSecret, example={"keepPrevious": True},
              params=(ENDPOINT_ID,), auth=Auth.ADMIN, write=True, codes=(*ADMIN, Refusal.WEBHOOK_NOT_FOUND)),
    Operation("DELETE", "/v1/admin/webhooks/{endpointId}", "deleteWebhookEndpoint", "admin",
              "Remove a webhook endpoint",
              "Nothing more is sent to it; its deliveries not yet done are marked failed (and kept).",
              delete_endpoint, response="WebhookEndpointDeleted", params=(ENDPOINT_ID,), auth=Auth.ADMIN,
              write=True, codes=(*ADMIN, Refusal.WEBHOOK_NOT_FOUND)),
    Operation("GET", "/v1/admin/webhook-deliveries", "listWebhookDeliveries", "admin", "List webhook deliveries",
              "The kept deliveries, newest first, filtered by endpoint, status, player and event type; paged with "
              "cursors (a bad after: 422 BAD_CURSOR).", list_deliveries, response="WebhookDeliveryPage",
              params=FILTERS, auth=Auth.ADMIN, codes=(*ADMIN, Refusal.BAD_CURSOR)),
    Operation("POST", "/v1/admin/webhook-deliveries/{deliveryId}/redeliver", "redeliverWebhook", "admin",
              "Redeliver a webhook",
              "Send a kept delivery again, now, from its first attempt (same webhook-id: receivers deduplicate "
              "on it).", redeliver, response="WebhookRedelivered", params=(DELIVERY_ID,), auth=Auth.ADMIN,
              write=True, codes=(*ADMIN, Refusal.DELIVERY_NOT_FOUND, Refusal.WEBHOOK_NOT_FOUND)),
]
