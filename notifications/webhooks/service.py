"""What the admin API does with webhooks: the endpoint registry and the kept deliveries, over the queue Redis."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from firebreak.matches.feed import FeedType
from firebreak.notifications.webhooks.deliveries import Deliveries, Delivery, Page, Status, endpoint_of
from firebreak.notifications.webhooks.endpoints import Endpoint, EndpointError, Endpoints
from firebreak.notifications.webhooks.settings import WebhookSettings

EVENT_TYPES = tuple(t.value for t in FeedType)  # what an endpoint may subscribe to


@dataclass(frozen=True)
class Deleted:
    """A removed endpoint and how many of its deliveries not yet done were marked failed."""

    endpoint: Endpoint
    abandoned: int


class Webhooks:
    """Endpoints (add, list, rotate, remove) and deliveries (list, redeliver)."""

    def __init__(self, redis: Any, settings: WebhookSettings, queue: str) -> None:
        self.settings = settings
        self.endpoints = Endpoints(redis, settings, EVENT_TYPES, queue)
        self.deliveries = Deliveries(redis, settings, queue)

    @classmethod
    def from_env(cls, redis: Any, queue: str) -> Webhooks:
        """A queue's webhooks over its Redis client, with the environment's settings (ValueError for a bad one)."""
        return cls(redis, WebhookSettings.from_env(), queue)

    async def create(self, url: str, types: Iterable[str], description: str = "") -> Endpoint:
        """Add an endpoint (EndpointError: bad input, nothing stored)."""
        return await self.endpoints.create(url, types, description)

    async def rotate(self, endpoint_id: str, keep_previous: bool = True) -> tuple[Endpoint, str]:
        """A fresh secret for an added endpoint, the previous one kept beside it unless told not to."""
        return await self.endpoints.rotate(endpoint_id, keep_previous)

    async def delete(self, endpoint_id: str) -> Deleted:
        """Remove an added endpoint; what it was still owed is marked failed (kept, for the record)."""
        endpoint = await self.endpoints.delete(endpoint_id)
        return Deleted(endpoint, await self.deliveries.abandon(endpoint.id, time.time()))

    async def listing(self, first: int, after: str | None = None, endpoint: str | None = None,
                      status: Status | None = None, player: str | None = None,
                      event_type: str | None = None) -> Page:
        """A page of the kept deliveries, newest first (deliveries.CursorError for a bad cursor)."""
        return await self.deliveries.listing(first, after, endpoint, status, player, event_type)

    async def redeliver(self, delivery_id: str) -> Delivery:
        """Send a kept delivery again from its first attempt (EndpointError when it or its endpoint is gone:
        `missing` tells which is the delivery)."""
        endpoint = endpoint_of(delivery_id)
        if endpoint is None or await self.deliveries.get(delivery_id) is None:
            raise EndpointError("no kept webhook delivery has this id", missing=True)
        if await self.endpoints.get(endpoint) is None:
            raise EndpointError("the delivery's endpoint was removed")
        delivery = await self.deliveries.redeliver(delivery_id, time.time())
        if delivery is None:
            raise EndpointError("no kept webhook delivery has this id", missing=True)
        return delivery
