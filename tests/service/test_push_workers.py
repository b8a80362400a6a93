"""Pushes sent by real worker processes (their webhooks forwarder makes them, their push sender sends them) to a
real local push service that verifies VAPID and decrypts each payload (tests/service/push_service.py); a worker
killed mid-send."""

from __future__ import annotations

import asyncio
import json
import os
import secrets as random_secrets
import signal
import time
from pathlib import Path
from typing import Any

import httpx
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from firebreak.matches.feed import FeedType
from firebreak.push import keys, vapid, watching
from firebreak.push.settings import PushSettings
from firebreak.push.subscriptions import Subscriptions
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.fcm_service import fcm_service
from tests.service.players_support import guest, rest
from tests.service.push_service import PushService, push_service
from tests.service.support import private_service, wait_for
from tests.service.test_my_matches import two_seats
from tests.service.test_subscription import _open
from tests.service.test_webhooks import _emit, metric

FAST = {"FIREBREAK_PUSH_ALLOWED_HOSTS": "127.0.0.1", "FIREBREAK_PUSH_RETRY_SECONDS": "0.2",
        "FIREBREAK_PUSH_RETRY_CAP_SECONDS": "0.5", "FIREBREAK_PUSH_TICK_SECONDS": "0.05",
        "FIREBREAK_WEBHOOK_TICK_SECONDS": "0.05"}


def register(redis_url: str, player: str, service: PushService, name: str) -> None:
    """Register a new browser of the push service for a player, as the API does."""
    browser = service.browser(name)

    async def run() -> None:
        client = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            subs = Subscriptions(client, PushSettings(allowed_hosts=("127.0.0.1",)).allowed, 10)
            await subs.add(player, service.endpoint(name), browser.p256dh, service.b64auth(browser))
        finally:
            await client.aclose()

    asyncio.run(run())


def payloads(service: PushService, name: str) -> list[dict[str, Any]]:
    """The decrypted payloads an endpoint got with a valid VAPID authorization."""
    return [g.payload for g in service.at(name) if g.payload is not None and not g.vapid_error]


def test_workers_push_a_players_events_with_the_key_of_the_data_folder(redis_url: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    public = vapid.load(PushSettings(), data).public_key  # the key the workers find in FIREBREAK_DATA_DIR
    with push_service(public) as service, private_service(redis_url, tmp_path, "push-w", workers=1, api=True,
                                                          FIREBREAK_DATA_DIR=str(data), **FAST) as svc:
        player = "push-w-" + random_secrets.token_hex(4)
        register(redis_url, player, service, "w")
        turn = _emit(redis_url, svc.settings, player, FeedType.YOUR_TURN, {"matchId": "m1", "seat": 0})
        _emit(redis_url, svc.settings, player, FeedType.MATCH_STARTED, {"matchId": "m1"})  # not pushed
        offer = _emit(redis_url, svc.settings, player, FeedType.REMATCH_OFFERED, {"matchId": "m0", "by": "p2"})
        got = wait_for(lambda: len(payloads(service, "w")) == 2 and payloads(service, "w"), "two pushes")
        assert sorted(p["eventId"] for p in got) == sorted([turn, offer])
        assert {p["type"] for p in got} == {"yourTurn", "rematchOffered"}
        assert all(g.vapid_error == "" for g in service.at("w"))
        text = httpx.get(f"{svc.base}/metrics").text  # /metrics counts the sends by outcome
        assert metric(text, "firebreak_push_sends_total", '{outcome="sent"}') >= 2
        assert metric(text, "firebreak_push_attempts_total", '{outcome="success"}') >= 2


def test_a_worker_killed_mid_send_leaves_the_push_to_be_sent_again(redis_url: str, redis: Redis,
                                                                   tmp_path: Path) -> None:
    """kill -9 of the only worker while the push service holds its answer: the push's lease ends, a new worker sends
    it again (same payload, same Topic: at least once; the push service got it twice, which RFC 8030 allows, and the
    Topic makes the second replace the first on a device that had not fetched it), and nothing is lost."""
    data = tmp_path / "data"
    public = vapid.load(PushSettings(), data).public_key
    queue = "push-kill-" + random_secrets.token_hex(3)
    with push_service(public) as service, private_service(
            redis_url, tmp_path, queue, workers=1, FIREBREAK_DATA_DIR=str(data),
            **{**FAST, "FIREBREAK_PUSH_TIMEOUT_SECONDS": "20", "FIREBREAK_PUSH_LEASE_SECONDS": "25"}) as svc:
        service.hold.add("k")
        player = "push-kill-" + random_secrets.token_hex(4)
        register(redis_url, player, service, "k")
        event = _emit(redis_url, svc.settings, player, FeedType.INVITED, {"matchId": "m1", "by": "p2"})
        assert service.held.wait(60), "the worker never sent the push"
        os.kill(svc.workers[0].pid, signal.SIGKILL)
        svc.workers[0].wait(timeout=10)
        service.release.set()
        svc.start_worker()
        wait_for(lambda: len(service.at("k")) == 2 and redis.zcard(keys.due(queue)) == 0,
                 "the push sent again after the lease ended")
        got = service.at("k")
        assert [(g.payload or {}).get("eventId") for g in got] == [event, event]
        assert got[0].headers["topic"] == got[1].headers["topic"] and not any(g.vapid_error for g in got)
        assert redis.hget(keys.PUSH_COUNTER, "push:sent")


def test_open_match_streams_mark_their_player_as_watching_until_the_last_closes(
        client: Client, server: str, redis: Redis) -> None:
    """A player's matchEvents subscriptions (two tabs) keep the mark the push forwarder skips a match by
    (test_push.py shows the skipping): closing one tab leaves the match watched, closing the other ends it."""
    ann = guest(client, "ann")
    match_id = two_seats(client, ann, 0, bot=True).match_id
    key = keys.watching(ann.player, match_id)

    async def watch() -> None:
        tabs = [await _open(server, ann.access) for _ in range(2)]
        try:
            for ws in tabs:
                await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                    "query": h.SUBSCRIBE, "variables": {"id": match_id, "after": 0}}}))
            for _ in range(500):  # each stream is open once its first look at the match counted it
                if redis.zcard(key) == 2:
                    break
                await asyncio.sleep(0.02)
            assert redis.zcard(key) == 2 and 0 < redis.ttl(key) <= watching.TTL
            await tabs[0].close()
            for _ in range(500):
                if redis.zcard(key) == 1:
                    break
                await asyncio.sleep(0.02)
            assert redis.zcard(key) == 1 and redis.zcount(key, time.time(), "+inf") == 1  # the other tab still counts
        finally:
            await tabs[1].close()

    asyncio.run(watch())
    wait_for(lambda: not redis.exists(key), "the mark dropped when the last stream closed")


def test_a_player_registers_a_browser_over_rest_and_gets_pushes(redis_url: str, tmp_path: Path) -> None:
    """The REST surface: the VAPID key served is the data folder's; a bad registration is refused with
    BAD_PUSH_SUBSCRIPTION and stores nothing; a registered browser gets the player's pushes, as the preferences
    say; a removed one gets nothing more."""
    data = tmp_path / "data"
    public = vapid.load(PushSettings(), data).public_key
    with push_service(public) as service, private_service(redis_url, tmp_path, "push-rest", workers=1, api=True,
                                                          FIREBREAK_DATA_DIR=str(data), **FAST) as svc:
        assert svc.base is not None
        key = rest(svc.base, "GET", "/v1/push/vapid-public-key")
        assert key.status_code == 200 and key.json() == {"publicKey": public}
        assert "PRIVATE" not in key.text
        with svc.client() as c:
            ann = guest(c, "ann")
        browser = service.browser("rest")
        good = {"endpoint": service.endpoint("rest"), "keys": {"p256dh": browser.p256dh,
                                                               "auth": service.b64auth(browser)}}
        for bad in ({**good, "endpoint": "http://10.0.0.1/push"}, {**good, "keys": {**good["keys"], "auth": "AAAA"}},
                    {**good, "keys": {"p256dh": "B" * 87, "auth": good["keys"]["auth"]}}):
            refused = rest(svc.base, "POST", "/v1/me/push-subscriptions", ann.access, bad)
            assert refused.status_code == 422 and refused.json()["code"] == "BAD_PUSH_SUBSCRIPTION", refused.text
        assert rest(svc.base, "POST", "/v1/me/push-subscriptions", None, good).status_code == 401
        assert rest(svc.base, "GET", "/v1/me/push-subscriptions", ann.access).json() == {"items": []}
        made = rest(svc.base, "POST", "/v1/me/push-subscriptions", ann.access, good)
        assert made.status_code == 201, made.text
        sub = made.json()["subscription"]
        assert sub["endpoint"] == good["endpoint"] and "keys" not in sub
        assert rest(svc.base, "GET", "/v1/me/push-subscriptions", ann.access).json()["items"] == [sub]
        prefs = rest(svc.base, "PUT", "/v1/me/push-preferences", ann.access, {"matchEnded": False})
        assert prefs.status_code == 200 and prefs.json()["matchEnded"] is False and prefs.json()["yourTurn"] is True
        assert rest(svc.base, "PUT", "/v1/me/push-preferences", ann.access, {"x": True}).status_code == 422
        assert rest(svc.base, "GET", "/v1/me/push-preferences", ann.access).json() == prefs.json()
        _emit(redis_url, svc.settings, ann.player, FeedType.MATCH_ENDED, {"matchId": "m1"})  # turned off
        turn = _emit(redis_url, svc.settings, ann.player, FeedType.YOUR_TURN, {"matchId": "m2", "seat": 0})
        wait_for(lambda: payloads(service, "rest"), "the push")
        assert [p["eventId"] for p in payloads(service, "rest")] == [turn]
        gone = rest(svc.base, "DELETE", f"/v1/me/push-subscriptions/{sub['id']}", ann.access)
        assert gone.json() == {"id": sub["id"], "removed": True}
        again = rest(svc.base, "DELETE", f"/v1/me/push-subscriptions/{sub['id']}", ann.access)
        assert again.json() == {"id": sub["id"], "removed": False}
        assert rest(svc.base, "GET", "/v1/me/push-subscriptions", ann.access).json() == {"items": []}


REGISTER = """mutation($input: RegisterPushSubscriptionInput!) { registerPushSubscription(input: $input) {
  __typename ... on PushSubscriptionRegistered { subscription { id endpoint } } ... on Problem { code message } } }"""
REMOVE = """mutation($id: ID!) { removePushSubscription(input: {id: $id}) { __typename
  ... on PushSubscriptionRemoved { id removed } ... on Problem { code } } }"""
PREFS = """mutation($input: UpdatePushPreferencesInput!) { updatePushPreferences(input: $input) { __typename
  ... on PushPreferences { yourTurn matchEnded } ... on Problem { code } } }"""
ME = "{ pushPublicKey me { pushSubscriptions { id endpoint } pushPreferences { yourTurn matchEnded } } }"


def test_graphql_registers_lists_and_removes_push_subscriptions(redis_url: str, tmp_path: Path) -> None:
    """The same over GraphQL: pushPublicKey, registerPushSubscription (InvalidInput BAD_PUSH_SUBSCRIPTION for a bad
    one), me { pushSubscriptions pushPreferences }, updatePushPreferences, removePushSubscription."""
    data = tmp_path / "data"
    public = vapid.load(PushSettings(), data).public_key
    with push_service(public) as service, private_service(redis_url, tmp_path, "push-gql", workers=0, api=True,
                                                          FIREBREAK_DATA_DIR=str(data), **FAST) as svc, \
            svc.client() as c:
        ann = guest(c, "ann")
        browser = service.browser("gql")
        good = {"endpoint": service.endpoint("gql"), "keys": {"p256dh": browser.p256dh,
                                                              "auth": service.b64auth(browser)}}
        bad = c.gql(REGISTER, {"input": {**good, "keys": {**good["keys"], "auth": "AAAA"}}}, ann.access)
        assert bad["registerPushSubscription"] == {"__typename": "InvalidInput", "code": "BAD_PUSH_SUBSCRIPTION",
                                                   "message": "keys.auth must be 16 bytes (base64url)"}
        assert c.gql(REGISTER, {"input": good})["registerPushSubscription"]["__typename"] == "Unauthenticated"
        made = c.gql(REGISTER, {"input": good}, ann.access)["registerPushSubscription"]
        assert made["__typename"] == "PushSubscriptionRegistered"
        changed = c.gql(PREFS, {"input": {"matchEnded": False}}, ann.access)["updatePushPreferences"]
        assert changed == {"__typename": "PushPreferences", "yourTurn": True, "matchEnded": False}
        me = c.gql(ME, None, ann.access)
        assert me["pushPublicKey"] == public
        assert me["me"] == {"pushSubscriptions": [made["subscription"]],
                            "pushPreferences": {"yourTurn": True, "matchEnded": False}}
        removed = c.gql(REMOVE, {"id": made["subscription"]["id"]}, ann.access)["removePushSubscription"]
        assert removed == {"__typename": "PushSubscriptionRemoved", "id": made["subscription"]["id"], "removed": True}
        assert c.gql(ME, None, ann.access)["me"]["pushSubscriptions"] == []


def test_workers_send_fcm_messages_to_a_native_app_registered_over_rest(redis_url: str, tmp_path: Path) -> None:
    """A native app's FCM token registered over REST (POST /v1/me/push-devices) gets the player's events from real
    workers through a local FCM HTTP v1 peer, whose token endpoint verified the service account's assertion."""
    with fcm_service() as peer, private_service(
            redis_url, tmp_path, "push-fcm", workers=1, api=True, FIREBREAK_DATA_DIR=str(tmp_path / "data"),
            FIREBREAK_PUSH_FCM_SERVICE_ACCOUNT=json.dumps(peer.service_account()),
            FIREBREAK_PUSH_FCM_ENDPOINT=peer.endpoint(), **FAST) as svc:
        assert svc.base is not None
        with svc.client() as c:
            ann = guest(c, "ann")
        token = "app-token-" + random_secrets.token_urlsafe(40)
        refused = rest(svc.base, "POST", "/v1/me/push-devices", ann.access, {"token": "no good"})
        assert refused.status_code == 422 and refused.json()["code"] == "BAD_PUSH_SUBSCRIPTION"
        made = rest(svc.base, "POST", "/v1/me/push-devices", ann.access, {"token": token})
        assert made.status_code == 201 and made.json()["subscription"]["kind"] == "fcm"
        assert token not in made.text  # a device token is shown by its first characters only
        invited = _emit(redis_url, svc.settings, ann.player, FeedType.INVITED, {"matchId": "m5", "by": "bob"})
        sent = wait_for(lambda: [m for m in peer.messages if m["token"] == token], "the FCM message")
        assert sent[0]["data"]["eventId"] == invited and sent[0]["data"]["type"] == "invited"
        assert peer.refused == [] and set(peer.grants) == {""}
