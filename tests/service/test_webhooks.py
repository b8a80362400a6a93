"""The operator's webhooks (issue 25, section 2) with real parts: a real local HTTP receiver (good, failing, slow,
hanging and holding endpoints), real worker processes (their sender threads), a real API and Redis; deliveries are
verified with the standardwebhooks package."""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets as random_secrets
import signal
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis
from redis.asyncio import Redis as AsyncRedis
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from firebreak.matches import feed, keys
from firebreak.matches.config import Settings
from firebreak.matches.feed import FeedType
from firebreak.matches.store import MatchStore
from firebreak.notifications.webhooks.deliveries import Deliveries, delivery_id, retry_delay
from firebreak.notifications.webhooks.endpoints import DEFAULT_ID
from firebreak.notifications.webhooks.forwarder import Forwarder
from firebreak.notifications.webhooks.service import Webhooks
from firebreak.notifications.webhooks.settings import WebhookSettings
from firebreak.notifications.webhooks.signing import headers, new_secret
from tests.service.conftest import Client, service_env
from tests.service.players_support import guest, rest
from tests.service.support import play_to_end, private_service, wait_for
from tests.service.test_my_matches import two_seats
from tests.service.webhook_receiver import Received, receiver

ENDS = ["matchStarted", "matchEnded"]
ADMIN = "admin-" + random_secrets.token_urlsafe(24)
ATTEMPTS = 3
FAST = {  # retries within a test's time: 3 attempts a fraction of a second apart, a 1 s budget per attempt
    "FIREBREAK_ADMIN_TOKEN": ADMIN, "FIREBREAK_WEBHOOK_ATTEMPTS": str(ATTEMPTS),
    "FIREBREAK_WEBHOOK_RETRY_SECONDS": "0.2", "FIREBREAK_WEBHOOK_RETRY_CAP_SECONDS": "0.5",
    "FIREBREAK_WEBHOOK_TIMEOUT_SECONDS": "1", "FIREBREAK_WEBHOOK_LEASE_SECONDS": "3",
    "FIREBREAK_WEBHOOK_TICK_SECONDS": "0.05", "FIREBREAK_WEBHOOK_PER_ENDPOINT": "2",
    "FIREBREAK_WEBHOOK_ALLOWED_HOSTS": "127.0.0.1",  # the receiver is local: not a public address
}
DELIVERIES = """query($ep: ID, $status: WebhookDeliveryStatus, $player: ID, $after: String) {
  webhookDeliveries(endpointId: $ep, status: $status, playerId: $player, first: 100, after: $after) { __typename
    ... on WebhookDeliveryPage { nodes { id endpointId playerId eventId type status attempts lastStatus lastError
                                         payload }
                                 pageInfo { endCursor hasNextPage } }
    ... on Problem { code message } } }"""
REDELIVER = """mutation($id: ID!) { redeliverWebhook(input: {deliveryId: $id}) { __typename
  ... on WebhookRedelivered { delivery { id status attempts } } ... on Problem { code message } } }"""
CREATE = """mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { __typename
  ... on WebhookEndpointCreated { secret endpoint { id url eventTypes secretCount } }
  ... on Problem { code message } } }"""
ENDPOINTS = "{ webhookEndpoints { __typename ... on WebhookEndpointList { endpoints { id url fromSettings } } " \
            "... on Problem { code } } }"


def feed_events(redis: Redis, player: str) -> list[feed.FeedEvent]:
    """A player's feed as stored."""
    return [feed.FeedEvent.parse(entry_id, fields) for entry_id, fields in redis.xrange(keys.feed(player))]


def verified(request: Received, *secrets: str) -> dict[str, Any]:
    """The body of a request, checked against each secret alone (every one must verify it)."""
    bodies = [Webhook(secret).verify(request.body, request.headers) for secret in secrets]
    assert all(body == bodies[0] for body in bodies)
    result: dict[str, Any] = bodies[0]
    return result


def all_deliveries(c: Client, **filters: Any) -> list[dict[str, Any]]:
    """Every kept delivery matching the filters, through the admin GraphQL query (page after page)."""
    out: list[dict[str, Any]] = []
    after = None
    while True:
        page = c.gql(DELIVERIES, {**filters, "after": after}, ADMIN)["webhookDeliveries"]
        assert page["__typename"] == "WebhookDeliveryPage", page
        out += page["nodes"]
        if not page["pageInfo"]["hasNextPage"]:
            return out
        after = page["pageInfo"]["endCursor"]


def metric(text: str, name: str, labels: str = "") -> float:
    """One sample's value from a Prometheus exposition (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(f"{name}{labels} "):
            return float(line.split()[-1])
    return 0.0


def test_deliveries_reach_a_good_endpoint_past_failing_slow_and_hanging_ones(redis_url: str, redis: Redis,
                                                                            tmp_path: Path) -> None:
    """The settings' endpoint (URL and secret from the settings alone) gets every event of both players of a match
    played to its end, signed per Standard Webhooks, once per event id, while endpoints the admin API added fail
    (500), hang (no answer) or answer slowly: the failing and hanging ones' deliveries end failed after the last
    attempt and are kept (listed by the webhookDeliveries query, sent again by redeliverWebhook); the slow one
    (rotated: every delivery signed with both secrets) gets the types it asked for; /metrics counts it all."""
    secret = new_secret()
    with receiver() as rx, private_service(redis_url, tmp_path, "wh-fanout", workers=2, api=True,
                                           FIREBREAK_WEBHOOK_URL=rx.url("/good"), FIREBREAK_WEBHOOK_SECRET=secret,
                                           **FAST) as svc, svc.client() as c:
        assert svc.base is not None
        added = {}
        for name, types in (("fail", ENDS), ("hang", ENDS), ("slow", [])):
            answer = rest(svc.base, "POST", "/v1/admin/webhooks", ADMIN, {"url": rx.url(f"/{name}"),
                                                                         "eventTypes": types})
            assert answer.status_code == 201, answer.text
            assert answer.json()["secret"].startswith("whsec_") and answer.json()["endpoint"]["eventTypes"] == types
            added[name] = answer.json()
        rotated = rest(svc.base, "POST", f"/v1/admin/webhooks/{added['slow']['endpoint']['id']}/rotate", ADMIN, {})
        assert rotated.status_code == 200 and rotated.json()["endpoint"]["secretCount"] == 2, rotated.text
        listed = c.gql(ENDPOINTS, token=ADMIN)["webhookEndpoints"]["endpoints"]
        assert [e["id"] for e in listed] == [DEFAULT_ID] + [added[n]["endpoint"]["id"] for n in ("fail", "hang",
                                                                                               "slow")]
        assert "secret" not in json.dumps(listed).lower().replace("secretcount", "")

        first, second = guest(c, "hook one"), guest(c, "hook two")
        s = two_seats(c, first, 0, other=second)
        play_to_end(c, s, random.Random(5))
        players = {first.player, second.player}
        wait_for(lambda: all([e.type for e in feed_events(redis, p)][-1:] == [FeedType.MATCH_ENDED] for p in players),
                 "both players' matchEnded")
        events = {(p, e.id): e for p in players for e in feed_events(redis, p)}
        ends = {key for key, e in events.items() if e.type.value in ENDS}
        assert len(ends) == 4

        # the settings' endpoint: every event once (by webhook-id), signed with the settings' secret
        def good_ids() -> set[str]:
            return {r.headers["webhook-id"] for r in rx.at("/good")}

        wanted = {delivery_id(DEFAULT_ID, p, e): (p, e) for p, e in events}
        wait_for(lambda: good_ids() >= set(wanted), "every event at the good endpoint")
        for request in rx.at("/good"):
            if request.headers["webhook-id"] not in wanted:
                continue
            body = verified(request, secret)
            player, event_id = wanted[request.headers["webhook-id"]]
            event = events[(player, event_id)]
            assert body["type"] == event.type.value
            assert body["data"] == {"playerId": player, "eventId": event_id, **event.data}
            with pytest.raises(WebhookVerificationError):
                Webhook(new_secret()).verify(request.body, request.headers)

        # the slow endpoint: every event, each delivery signed with the new and the previous secret
        slow_secrets = (rotated.json()["secret"], added["slow"]["secret"])
        slow_wanted = {delivery_id(added["slow"]["endpoint"]["id"], p, e) for p, e in events}
        wait_for(lambda: {r.headers["webhook-id"] for r in rx.at("/slow")} >= slow_wanted, "the slow endpoint")
        for request in rx.at("/slow"):
            assert verified(request, *slow_secrets)["data"]["playerId"] in players
            assert len(request.headers["webhook-signature"].split()) == 2

        # the failing and hanging endpoints (their two types only): every delivery failed after ATTEMPTS attempts,
        # kept and listed
        for name, last_status in (("fail", 500), ("hang", None)):
            endpoint = added[name]["endpoint"]["id"]

            def failed(endpoint: str = endpoint) -> list[dict[str, Any]]:
                return all_deliveries(c, ep=endpoint, status="FAILED")

            wait_for(lambda failed=failed: len(failed()) == len(ends), f"the {name} endpoint's deliveries to fail")
            for delivery in failed():
                assert delivery["attempts"] == ATTEMPTS and delivery["lastStatus"] == last_status, delivery
                assert (delivery["playerId"], delivery["eventId"]) in ends and delivery["type"] in ENDS
        fail_id = added["fail"]["endpoint"]["id"]
        per_id: dict[str, int] = {}
        for request in rx.at("/fail"):
            per_id[request.headers["webhook-id"]] = per_id.get(request.headers["webhook-id"], 0) + 1
        assert per_id == {delivery_id(fail_id, p, e): ATTEMPTS for p, e in ends}

        # redeliver one failed delivery: the same webhook-id is sent again from a first attempt
        again = delivery_id(fail_id, *sorted(ends)[0])
        redelivered = c.gql(REDELIVER, {"id": again}, ADMIN)["redeliverWebhook"]
        assert redelivered["__typename"] == "WebhookRedelivered" and redelivered["delivery"]["attempts"] == 0
        wait_for(lambda: sum(r.headers["webhook-id"] == again for r in rx.at("/fail")) == 2 * ATTEMPTS,
                 "the redelivery's attempts")
        wait_for(lambda: [d["status"] for d in all_deliveries(c, ep=fail_id) if d["id"] == again] == ["FAILED"],
                 "the redelivery to fail again")
        assert c.gql(REDELIVER, {"id": "msg_nope_x"}, ADMIN)["redeliverWebhook"]["code"] == "DELIVERY_NOT_FOUND"

        # a player's filter, and the settings' endpoint's deliveries all succeeded
        mine = all_deliveries(c, ep=DEFAULT_ID, player=first.player)
        assert {d["eventId"] for d in mine} == {e for p, e in events if p == first.player}
        assert {d["status"] for d in mine} == {"SUCCEEDED"}

        # removing the hanging endpoint; /metrics counts each outcome
        removed = rest(svc.base, "DELETE", f"/v1/admin/webhooks/{added['hang']['endpoint']['id']}", ADMIN)
        assert removed.status_code == 200 and removed.json()["abandoned"] == 0, removed.text
        text = httpx.get(f"{svc.base}/metrics").text
        for outcome in ("success", "http_error", "timeout"):
            assert metric(text, "firebreak_webhook_attempts_total", f'{{outcome="{outcome}"}}') > 0, outcome
        assert metric(text, "firebreak_webhook_deliveries_total", '{outcome="failed"}') >= 2 * len(ends)
        assert metric(text, "firebreak_webhook_attempt_seconds_count") > 0


def test_the_admin_api_refuses_without_the_admin_token_and_bad_input_changes_nothing(redis_url: str,
                                                                                       tmp_path: Path) -> None:
    """No credential, a player's or a wrong one: ADMIN_UNAUTHORIZED on both surfaces (401 over REST); a bad URL or
    event type: BAD_WEBHOOK and no endpoint stored; the settings' endpoint cannot be removed through the API."""
    with private_service(redis_url, tmp_path, "wh-admin", workers=0, api=True,
                         FIREBREAK_ADMIN_TOKEN=ADMIN) as svc, svc.client() as c:
        assert svc.base is not None
        player = guest(c, "not admin")
        for token in (None, player.access, ADMIN + "x"):
            assert c.gql(ENDPOINTS, token=token)["webhookEndpoints"]["code"] == "ADMIN_UNAUTHORIZED"
            answer = rest(svc.base, "GET", "/v1/admin/webhooks", token)
            assert answer.status_code == 401 and answer.json()["code"] == "ADMIN_UNAUTHORIZED", answer.text
            made = c.gql(CREATE, {"input": {"url": "http://127.0.0.1:1/x"}}, token)["createWebhookEndpoint"]
            assert made["code"] == "ADMIN_UNAUTHORIZED"
        for bad in ({"url": "ftp://example.com/x"}, {"url": "http://user:pw@example.com/"},
                    {"url": "http://example.com/", "eventTypes": ["yourTurn", "nope"]}):
            made = c.gql(CREATE, {"input": bad}, ADMIN)["createWebhookEndpoint"]
            assert made["__typename"] == "InvalidInput" and made["code"] == "BAD_WEBHOOK", made
            answer = rest(svc.base, "POST", "/v1/admin/webhooks", ADMIN, bad)
            assert answer.status_code == 422 and answer.json()["code"] == "BAD_WEBHOOK", answer.text
        assert c.gql(ENDPOINTS, token=ADMIN)["webhookEndpoints"]["endpoints"] == []
        gone = rest(svc.base, "DELETE", f"/v1/admin/webhooks/{DEFAULT_ID}", ADMIN)
        assert gone.status_code == 404 and gone.json()["code"] == "WEBHOOK_NOT_FOUND"
        cursor = rest(svc.base, "GET", "/v1/admin/webhook-deliveries?after=%%%", ADMIN)
        assert cursor.status_code == 422 and cursor.json()["code"] == "BAD_CURSOR"


def test_a_worker_killed_mid_send_leaves_the_delivery_to_be_sent_again(redis_url: str, redis: Redis,
                                                                      tmp_path: Path) -> None:
    """kill -9 of the only worker while its attempt waits for the endpoint's answer: the delivery's lease ends and
    a new worker sends it again, with the same webhook-id, and it is delivered (at least once)."""
    secret = new_secret()
    queue = "wh-kill"
    with receiver() as rx, private_service(redis_url, tmp_path, queue, workers=1, api=False,
                                           FIREBREAK_WEBHOOK_URL=rx.url("/hold"), FIREBREAK_WEBHOOK_SECRET=secret,
                                           **{**FAST, "FIREBREAK_WEBHOOK_TIMEOUT_SECONDS": "20",
                                              "FIREBREAK_WEBHOOK_LEASE_SECONDS": "25"}) as svc:
        player = "wh-kill-" + random_secrets.token_hex(4)
        event_id = _emit(redis_url, svc.settings, player, FeedType.INVITED,
                         {"matchId": "m1", "title": "t", "by": "p2"})
        assert rx.held.wait(60), "the worker never sent the delivery"
        os.kill(svc.workers[0].pid, signal.SIGKILL)
        svc.workers[0].wait(timeout=10)
        rx.release.set()
        svc.start_worker()
        message = delivery_id(DEFAULT_ID, player, event_id)
        stored = keys.webhook_delivery(queue, message)
        wait_for(lambda: redis.hget(stored, "status") == "succeeded", "the delivery after the lease ended")
        sent = [r for r in rx.at("/hold") if r.headers["webhook-id"] == message]
        assert len(sent) == 2 and int(redis.hget(stored, "attempts") or 0) == 2
        assert all(verified(r, secret)["data"]["eventId"] == event_id for r in sent)


def test_forwarding_again_makes_no_delivery_twice(redis_url: str, redis: Redis) -> None:
    """A forwarder re-run over events already handed on (its cursor lost, as after a crash between the deliveries'
    write and the cursor's) makes no new delivery; the ids are the same for the same (event, endpoint)."""
    queue = "wh-forward-" + random_secrets.token_hex(3)
    settings = Settings.from_env({**service_env(redis_url), "FIREBREAK_QUEUE": queue})
    player = "wh-fwd-" + random_secrets.token_hex(4)
    for n in range(3):
        _emit(redis_url, settings, player, FeedType.INVITED, {"matchId": f"m{n}", "title": "t", "by": "p"})

    async def scenario() -> tuple[int, int, int]:
        client = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            hooks = Webhooks(client, WebhookSettings(allowed_hosts=("127.0.0.1",)), queue)
            await hooks.create("http://127.0.0.1:1/x", ["invited"])
            forwarder = Forwarder(client, client, queue, hooks.endpoints, hooks.deliveries)
            made = await forwarder(1e10)
            await client.delete(keys.feed_forwarded(player))
            await client.zadd(keys.feed_pending(queue), {player: 0})
            again = await forwarder(1e10)
            listed = await Deliveries(client, WebhookSettings(), queue).listing(100)
            return made, again, len(listed.items)
        finally:
            await client.aclose()

    assert asyncio.run(scenario()) == (3, 0, 3)
    assert redis.zscore(keys.feed_pending(queue), player) is None


def test_retries_span_about_a_day_and_both_rotation_secrets_sign() -> None:
    """The default schedule: 12 attempts over 20 to 30 hours (backoff doubling to a cap, with jitter); a signature
    header made with two secrets verifies with either, not with a third, nor for another body."""
    rng = random.Random(7)
    settings = WebhookSettings()
    waits = [retry_delay(settings, n, rng) for n in range(1, settings.attempts)]
    assert settings.attempts == 12 and 20 * 3600 < sum(waits) < 30 * 3600
    assert all(w <= settings.retry_cap_seconds * 1.2 for w in waits) and waits[0] < waits[5] < waits[9]
    one, two = new_secret(), new_secret()
    sent = headers("msg_x_y", 1.7e9, '{"a":1}', [one, two])
    for secret in (one, two):
        hook = Webhook(secret)
        assert hook.sign("msg_x_y", _moment(1.7e9), '{"a":1}') in sent["webhook-signature"].split()
    assert Webhook(new_secret()).sign("msg_x_y", _moment(1.7e9), '{"a":1}') not in sent["webhook-signature"]


def _moment(at: float) -> datetime:
    return datetime.fromtimestamp(at, tz=UTC)


def _emit(redis_url: str, settings: Settings, player: str, kind: FeedType, data: dict[str, Any]) -> str:
    """Write one event to a player's feed (as the service does), marking the player for the queue's webhooks."""
    async def run() -> str:
        client = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            return await feed.emit(MatchStore(client, settings, client), player, kind, data,
                                   random_secrets.token_hex(8))
        finally:
            await client.aclose()

    return asyncio.run(run())
