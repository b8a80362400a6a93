"""Webhooks never reach the service's own networks (issue 47, part 5, item 3): the admin API refuses an endpoint
whose host is a loopback, private, link-local (the cloud metadata address), unique-local, multicast, unspecified
or otherwise non-global address in any of its spellings (BAD_WEBHOOK, nothing stored), and a worker refuses a
delivery whose host resolves to one, recording it failed after that one attempt, unless
FIREBREAK_WEBHOOK_ALLOWED_HOSTS names the host (or its network). Real API and worker processes, a real receiver."""

from __future__ import annotations

from pathlib import Path

from redis import Redis

from firebreak.matches import keys
from firebreak.matches.feed import FeedType
from firebreak.notifications.webhooks.deliveries import delivery_id
from tests.service.conftest import api_process
from tests.service.players_support import rest
from tests.service.support import private_service, wait_for
from tests.service.test_webhooks import ADMIN, CREATE, ENDPOINTS, FAST, _emit
from tests.service.webhook_receiver import receiver

NOT_ALLOWED = {**FAST, "FIREBREAK_WEBHOOK_ALLOWED_HOSTS": ""}  # empty: unset, the default (no host allowed)
INTERNAL = [
    "http://169.254.169.254/latest/meta-data/",  # the cloud metadata address (link-local)
    "http://127.0.0.1:8080/hook", "http://10.0.0.1/", "http://192.168.1.20/", "http://172.16.0.1/",
    "http://2130706433/",  # 127.0.0.1 as one decimal number
    "http://0x7f.1/", "http://0177.0.0.1/", "http://0x7f000001/", "http://127.1/",
    "http://0.0.0.0/", "http://224.0.0.1/", "http://100.64.0.1/", "http://240.0.0.1/",
    "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:a9fe:a9fe]/", "http://[fd00::1]/",
    "http://[fe80::1]/", "http://[::]/", "http://[64:ff9b::a00:1]/",
    "http://localhost:9000/", "http://LOCALHOST./", "http://api.localhost/",
]


def test_the_admin_api_refuses_an_endpoint_on_an_internal_address(redis_url: str, tmp_path: Path) -> None:
    """Every internal spelling above: BAD_WEBHOOK on both surfaces, saying why, and nothing stored; a public
    address and a name are taken (a name is checked when a delivery resolves it)."""
    with private_service(redis_url, tmp_path, "wh-internal", workers=0, api=True, **NOT_ALLOWED) as svc, \
            svc.client() as c:
        assert svc.base is not None
        for url in INTERNAL:
            made = c.gql(CREATE, {"input": {"url": url}}, ADMIN)["createWebhookEndpoint"]
            assert made["__typename"] == "InvalidInput" and made["code"] == "BAD_WEBHOOK", (url, made)
            assert "FIREBREAK_WEBHOOK_ALLOWED_HOSTS" in made["message"], made
            answer = rest(svc.base, "POST", "/v1/admin/webhooks", ADMIN, {"url": url})
            assert answer.status_code == 422 and answer.json()["code"] == "BAD_WEBHOOK", (url, answer.text)
        assert c.gql(ENDPOINTS, token=ADMIN)["webhookEndpoints"]["endpoints"] == []
        for url in ("http://93.184.215.14/hook", "https://hooks.example.com/x"):
            answer = rest(svc.base, "POST", "/v1/admin/webhooks", ADMIN, {"url": url})
            assert answer.status_code == 201, (url, answer.text)
        made = c.gql(CREATE, {"input": {"url": "http://[2606:4700::1111]/"}}, ADMIN)["createWebhookEndpoint"]
        assert made["__typename"] == "WebhookEndpointCreated", made  # (REST's URL pattern takes no IPv6 address)


def test_a_delivery_to_a_host_resolving_to_an_internal_address_fails_at_once(redis_url: str, redis: Redis,
                                                                             tmp_path: Path) -> None:
    """Endpoints registered while the API allowed the local receiver (by name, localhost, and by address), then
    delivered by a worker that allows nothing: localhost resolves to a loopback address, so does 127.0.0.1; both
    deliveries are refused without a request reaching the receiver, and end failed after one attempt (not retried
    until the last), saying why."""
    queue = "wh-resolved"
    allowed = {**FAST, "FIREBREAK_QUEUE": queue, "FIREBREAK_WEBHOOK_ALLOWED_HOSTS": "localhost,127.0.0.1"}
    with receiver() as rx, private_service(redis_url, tmp_path, queue, workers=1, **NOT_ALLOWED) as svc, \
            api_process(redis_url, tmp_path / "api.log", allowed) as base:
        port = rx.url("/").split(":")[-1].rstrip("/")
        ids = {}
        for name, url in (("named", f"http://localhost:{port}/named"), ("literal", rx.url("/literal"))):
            answer = rest(base, "POST", "/v1/admin/webhooks", ADMIN, {"url": url, "eventTypes": ["invited"]})
            assert answer.status_code == 201, answer.text
            ids[name] = answer.json()["endpoint"]["id"]
        player = "wh-resolved-player"
        event = _emit(redis_url, svc.settings, player, FeedType.INVITED, {"matchId": "m1", "title": "t", "by": "p"})
        stored = {name: keys.webhook_delivery(queue, delivery_id(endpoint, player, event))
                  for name, endpoint in ids.items()}
        wait_for(lambda: all(redis.hget(key, "status") in ("failed", "succeeded") for key in stored.values()),
                 "both deliveries to finish")
        for key in stored.values():
            delivery = redis.hgetall(key)
            assert delivery["status"] == "failed" and delivery["attempts"] == "1", delivery
            assert "loopback" in delivery["lastError"], delivery
        assert rx.at("/named") == [] and rx.at("/literal") == []
