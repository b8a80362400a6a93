"""Webhooks area (the operator's admin API): endpoints and their deliveries, behind the admin token."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import strawberry

from firebreak.api.admin import is_admin
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.context import Info
from firebreak.api.schema.mine import PageInfo, bad_cursor
from firebreak.api.schema.problems import AdminUnauthorized, DeliveryNotFound, InvalidInput, WebhookNotFound
from firebreak.api.schema.types import JSON
from firebreak.matches.refusals import Refusal
from firebreak.notifications.webhooks import deliveries as stored
from firebreak.notifications.webhooks.endpoints import Endpoint, EndpointError


@strawberry.enum
class WebhookDeliveryStatus(Enum):
    """Where a delivery is."""

    PENDING = strawberry.enum_value("pending", description="Waiting for its next attempt.")
    SENDING = strawberry.enum_value("sending", description="An attempt holds it (until its lease ends).")
    SUCCEEDED = strawberry.enum_value("succeeded", description="The endpoint answered 2xx.")
    FAILED = strawberry.enum_value("failed", description="Every attempt failed (or its endpoint was removed): "
                                                         "kept; redeliverWebhook sends it again.")


@strawberry.type
class WebhookEndpoint:
    """Where webhook deliveries go (its secrets are never listed: each is shown once)."""

    endpoint: strawberry.Private[Endpoint]

    @strawberry.field
    def id(self) -> strawberry.ID:
        """The endpoint's id ("default": the settings' FIREBREAK_WEBHOOK_URL)."""
        return strawberry.ID(self.endpoint.id)

    @strawberry.field
    def url(self) -> str:
        """Where deliveries are POSTed."""
        return self.endpoint.url

    @strawberry.field
    def event_types(self) -> list[str]:
        """The event types it takes (empty: every type)."""
        return list(self.endpoint.types)

    @strawberry.field
    def description(self) -> str:
        """The operator's note."""
        return self.endpoint.description

    @strawberry.field
    def created(self) -> float:
        """When it was added (epoch seconds; 0 for the settings' endpoint)."""
        return self.endpoint.created

    @strawberry.field
    def from_settings(self) -> bool:
        """Whether it is the settings' endpoint (changed in the settings, not through the admin API)."""
        return self.endpoint.from_settings

    @strawberry.field
    def secret_count(self) -> int:
        """How many secrets sign each delivery (2 while a rotation keeps the previous one)."""
        return len(self.endpoint.secrets)


@strawberry.type
class WebhookDelivery:
    """One event's delivery to one endpoint (its id is the webhook-id header of every attempt)."""

    delivery: strawberry.Private[stored.Delivery]

    @strawberry.field
    def id(self) -> strawberry.ID:
        """The delivery's id: the webhook-id header, the same on every attempt."""
        return strawberry.ID(self.delivery.id)

    @strawberry.field
    def endpoint_id(self) -> strawberry.ID:
        """The endpoint it goes to."""
        return strawberry.ID(self.delivery.endpoint)

    @strawberry.field
    def player_id(self) -> strawberry.ID:
        """The player whose event it carries."""
        return strawberry.ID(self.delivery.player)

    @strawberry.field
    def event_id(self) -> str:
        """The event's id in the player's feed."""
        return self.delivery.event

    @strawberry.field
    def type(self) -> str:
        """The event type (yourTurn, matchStarted...)."""
        return self.delivery.type

    @strawberry.field
    def status(self) -> WebhookDeliveryStatus:
        """PENDING, SENDING, SUCCEEDED or FAILED."""
        return WebhookDeliveryStatus(self.delivery.status.value)

    @strawberry.field
    def attempts(self) -> int:
        """Attempts made so far (since the last redelivery)."""
        return self.delivery.attempts

    @strawberry.field
    def created(self) -> float:
        """When the delivery was made (epoch seconds)."""
        return self.delivery.created

    @strawberry.field
    def next_attempt(self) -> float | None:
        """When the next attempt is due (null once it succeeded or failed)."""
        return self.delivery.next_attempt

    @strawberry.field
    def last_attempt(self) -> float | None:
        """When the last attempt began."""
        return self.delivery.last_attempt

    @strawberry.field
    def last_status(self) -> int | None:
        """The HTTP status the endpoint last answered (null: no answer)."""
        return self.delivery.last_status

    @strawberry.field
    def last_error(self) -> str | None:
        """Why the last attempt failed (HTTP status, timeout, network error)."""
        return self.delivery.last_error or None

    @strawberry.field
    def latency_seconds(self) -> float | None:
        """How long the last attempt took."""
        return self.delivery.latency

    @strawberry.field
    def finished(self) -> float | None:
        """When it succeeded or was marked failed."""
        return self.delivery.finished

    @strawberry.field
    def payload(self) -> JSON:
        """The body POSTed: {type, timestamp, data} with ids and public facts only."""
        return self.delivery.to_json()["payload"]


@strawberry.type
class WebhookEndpointList:
    """Every webhook endpoint."""

    endpoints: list[WebhookEndpoint] = strawberry.field(description="The settings' endpoint first, then the added "
                                                                    "ones, oldest first.")


@strawberry.type
class WebhookDeliveryPage:
    """A page of the kept deliveries, newest first."""

    nodes: list[WebhookDelivery] = strawberry.field(description="The deliveries of this page.")
    page_info: PageInfo = strawberry.field(description="The page's end cursor and whether more follow.")


@strawberry.type
class WebhookEndpointCreated:
    """The added endpoint and its secret (shown this once)."""

    endpoint: WebhookEndpoint = strawberry.field(description="The endpoint.")
    secret: str = strawberry.field(description="Its whsec_ signing secret: keep it, it is never shown again.")


@strawberry.type
class WebhookSecretRotated:
    """The endpoint's new secret (shown this once); the previous one still signs unless dropped."""

    endpoint: WebhookEndpoint = strawberry.field(description="The endpoint.")
    secret: str = strawberry.field(description="The new whsec_ signing secret: keep it, it is never shown again.")


@strawberry.type
class WebhookEndpointDeleted:
    """The removed endpoint."""

    id: strawberry.ID = strawberry.field(description="Its id.")
    abandoned: int = strawberry.field(description="Its deliveries not yet done, now marked failed (and kept).")


@strawberry.type
class WebhookRedelivered:
    """The delivery, due again now from its first attempt."""

    delivery: WebhookDelivery = strawberry.field(description="The delivery.")


@strawberry.input
class CreateWebhookEndpointInput:
    """A new endpoint."""

    url: str = strawberry.field(description="Where to POST deliveries (http or https).")
    event_types: list[str] = strawberry.field(default_factory=list,
                                              description="The event types it takes (empty: every type).")
    description: str = strawberry.field(default="", description="A note for the operator (up to 200 characters).")


@strawberry.input
class RotateWebhookSecretInput:
    """The endpoint whose secret to rotate."""

    id: strawberry.ID = strawberry.field(description="The endpoint's id.")
    keep_previous: bool = strawberry.field(default=True, description="Keep signing with the previous secret too "
                                                                     "(until the next rotation).")


@strawberry.input
class DeleteWebhookEndpointInput:
    """The endpoint to remove."""

    id: strawberry.ID = strawberry.field(description="The endpoint's id.")


@strawberry.input
class RedeliverWebhookInput:
    """The delivery to send again."""

    delivery_id: strawberry.ID = strawberry.field(description="The delivery's id.")


WebhookEndpointsResult = Annotated[WebhookEndpointList | AdminUnauthorized, strawberry.union(
    "WebhookEndpointsResult", description="The endpoints, or why not.")]
WebhookDeliveriesResult = Annotated[WebhookDeliveryPage | AdminUnauthorized, strawberry.union(
    "WebhookDeliveriesResult", description="A page of deliveries, or why not.")]
CreateWebhookEndpointResult = Annotated[WebhookEndpointCreated | AdminUnauthorized | InvalidInput, strawberry.union(
    "CreateWebhookEndpointResult", description="The endpoint and its secret, or why not.")]
RotateWebhookSecretResult = Annotated[WebhookSecretRotated | AdminUnauthorized | WebhookNotFound, strawberry.union(
    "RotateWebhookSecretResult", description="The new secret, or why not.")]
DeleteWebhookEndpointResult = Annotated[WebhookEndpointDeleted | AdminUnauthorized | WebhookNotFound,
                                        strawberry.union("DeleteWebhookEndpointResult",
                                                         description="The removed endpoint, or why not.")]
RedeliverWebhookResult = Annotated[WebhookRedelivered | AdminUnauthorized | DeliveryNotFound | WebhookNotFound,
                                   strawberry.union("RedeliverWebhookResult",
                                                    description="The delivery, due again, or why not.")]


def _refused() -> AdminUnauthorized:
    return AdminUnauthorized(code=Refusal.ADMIN_UNAUTHORIZED,
                             message="this needs the operator's admin token as the bearer credential")


def _not_found(exc: EndpointError) -> WebhookNotFound:
    return WebhookNotFound(code=Refusal.WEBHOOK_NOT_FOUND, message=str(exc))


@strawberry.type
class WebhooksQuery:
    """Webhook reads (admin token)."""

    @strawberry.field
    async def webhook_endpoints(self, info: Info) -> WebhookEndpointsResult:
        """Every webhook endpoint (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        listed = await info.context.services.webhooks.endpoints.all()
        return WebhookEndpointList(endpoints=[WebhookEndpoint(endpoint=e) for e in listed])

    @strawberry.field
    async def webhook_deliveries(
        self, info: Info,
        endpoint_id: Annotated[strawberry.ID | None, strawberry.argument(description="Only this endpoint's.")] = None,
        status: Annotated[WebhookDeliveryStatus | None, strawberry.argument(
            description="Only those of this status (FAILED: those given up, most recent first).")] = None,
        player_id: Annotated[strawberry.ID | None, strawberry.argument(description="Only this player's.")] = None,
        type: Annotated[str | None, strawberry.argument(description="Only this event type.")] = None,
        first: Annotated[int, strawberry.argument(description="The page size (1-100).")] = 20,
        after: Annotated[str | None, strawberry.argument(description="A previous page's endCursor.")] = None,
    ) -> WebhookDeliveriesResult:
        """The kept webhook deliveries, newest first, filtered (admin token). A bad `after`: error BAD_CURSOR."""
        if not await is_admin(info.context):
            return _refused()
        try:
            page = await info.context.services.webhooks.listing(
                max(1, min(first, MAX_PAGE)), after, None if endpoint_id is None else str(endpoint_id),
                None if status is None else stored.Status(status.name.lower()),
                None if player_id is None else str(player_id), type)
        except stored.CursorError as exc:
            raise bad_cursor(str(exc)) from None
        return WebhookDeliveryPage(nodes=[WebhookDelivery(delivery=d) for d in page.items],
                                   page_info=PageInfo(end_cursor=page.end_cursor, has_next_page=page.has_next))


@strawberry.type
class WebhooksMutation:
    """Webhook writes (admin token)."""

    @strawberry.mutation
    async def create_webhook_endpoint(
        self, info: Info,
        input: Annotated[CreateWebhookEndpointInput, strawberry.argument(description="The endpoint.")],
    ) -> CreateWebhookEndpointResult:
        """Add a webhook endpoint for some (or every) event type; its whsec_ secret is shown in this answer only
        (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        webhooks = info.context.services.webhooks
        try:
            endpoint = await webhooks.create(input.url, input.event_types, input.description)
        except EndpointError as exc:
            return InvalidInput(code=Refusal.BAD_WEBHOOK, message=str(exc))
        return WebhookEndpointCreated(endpoint=WebhookEndpoint(endpoint=endpoint), secret=endpoint.secrets[0])

    @strawberry.mutation
    async def rotate_webhook_secret(
        self, info: Info,
        input: Annotated[RotateWebhookSecretInput, strawberry.argument(description="The endpoint.")],
    ) -> RotateWebhookSecretResult:
        """Give an endpoint a new secret (shown this once); deliveries are signed with both the new and the
        previous one until the next rotation, unless keepPrevious is false (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        try:
            endpoint, secret = await info.context.services.webhooks.rotate(str(input.id), input.keep_previous)
        except EndpointError as exc:
            return _not_found(exc)
        return WebhookSecretRotated(endpoint=WebhookEndpoint(endpoint=endpoint), secret=secret)

    @strawberry.mutation
    async def delete_webhook_endpoint(
        self, info: Info,
        input: Annotated[DeleteWebhookEndpointInput, strawberry.argument(description="The endpoint.")],
    ) -> DeleteWebhookEndpointResult:
        """Remove an endpoint: nothing more is sent to it; what it was still owed is marked failed (admin
        token)."""
        if not await is_admin(info.context):
            return _refused()
        try:
            deleted = await info.context.services.webhooks.delete(str(input.id))
        except EndpointError as exc:
            return _not_found(exc)
        return WebhookEndpointDeleted(id=strawberry.ID(deleted.endpoint.id), abandoned=deleted.abandoned)

    @strawberry.mutation
    async def redeliver_webhook(
        self, info: Info,
        input: Annotated[RedeliverWebhookInput, strawberry.argument(description="The delivery.")],
    ) -> RedeliverWebhookResult:
        """Send a kept delivery again, now, from its first attempt (the same webhook-id: receivers deduplicate
        on it) (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        try:
            delivery = await info.context.services.webhooks.redeliver(str(input.delivery_id))
        except EndpointError as exc:
            if exc.missing:
                return DeliveryNotFound(code=Refusal.DELIVERY_NOT_FOUND, message=str(exc))
            return _not_found(exc)
        return WebhookRedelivered(delivery=WebhookDelivery(delivery=delivery))
