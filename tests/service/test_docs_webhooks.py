"""docs/guides/webhooks.md: its webhook receiver runs as written: it answers a real delivery (forwarded from a
player's feed by a real worker) 204, and a request signed with another secret 400."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
import time
from http.server import HTTPServer
from pathlib import Path
from typing import Any

import httpx
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from firebreak.matches import feed, keys
from firebreak.matches.embedded import free_port
from firebreak.matches.feed import FeedType
from firebreak.matches.store import MatchStore
from firebreak.notifications.webhooks.deliveries import delivery_id
from firebreak.notifications.webhooks.endpoints import DEFAULT_ID
from firebreak.notifications.webhooks.signing import headers, new_secret
from tests.docs.samples import blocks
from tests.service.support import private_service, wait_for

PAGE = "docs/guides/webhooks.md"


def receiver_sample() -> str:
    """The python block of the webhooks guide."""
    (sample,) = blocks(PAGE, "Webhooks for your push service", "python")
    return sample


def test_the_guides_receiver_verifies_a_real_delivery_and_refuses_a_forged_one(redis_url: str, redis: Redis,
                                                                               tmp_path: Path,
                                                                               monkeypatch: Any) -> None:
    secret = new_secret()
    monkeypatch.setenv("FIREBREAK_WEBHOOK_SECRET", secret)
    scope: dict[str, Any] = {"__name__": "guide_receiver"}
    exec(compile(receiver_sample(), PAGE, "exec"), scope)
    port = free_port()
    server = HTTPServer(("127.0.0.1", port), scope["Receiver"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    queue = "wh-readme"
    try:
        with contextlib.redirect_stdout(None), private_service(
                redis_url, tmp_path, queue, workers=1, FIREBREAK_WEBHOOK_URL=f"http://127.0.0.1:{port}/",
                FIREBREAK_WEBHOOK_SECRET=secret, FIREBREAK_WEBHOOK_ALLOWED_HOSTS="127.0.0.1") as svc:
            player = "wh-readme-" + secrets.token_hex(4)

            async def emit() -> str:
                client = AsyncRedis.from_url(redis_url, decode_responses=True)
                try:
                    return await feed.emit(MatchStore(client, svc.settings, client), player, FeedType.INVITED,
                                           {"matchId": "m", "title": "t", "by": "p"}, "readme")
                finally:
                    await client.aclose()

            event = asyncio.run(emit())
            stored = keys.webhook_delivery(queue, delivery_id(DEFAULT_ID, player, event))
            wait_for(lambda: redis.hget(stored, "status") == "succeeded", "the delivery")
            assert redis.hget(stored, "lastStatus") == "204"
            body = json.dumps({"type": "invited", "timestamp": "x", "data": {"playerId": player}})
            forged = headers("msg_forged", time.time(), body, [new_secret()])
            answer = httpx.post(f"http://127.0.0.1:{port}/", content=body, headers=forged)
            assert answer.status_code == 400
            signed = headers("msg_signed", time.time(), body, [secret])
            assert httpx.post(f"http://127.0.0.1:{port}/", content=body, headers=signed).status_code == 204
    finally:
        server.shutdown()
        server.server_close()
