"""Web Push (issue 48, section 2) against a real local push service (tests/service/push_service.py) that verifies
each push's VAPID JWT and decrypts its aes128gcm payload with the browser side's keys, over a real Redis: the
forwarder and the sender run in this process here; test_push_workers.py runs them in real workers."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis as AsyncRedis

from firebreak.matches import keys as match_keys
from firebreak.matches.envsettings import SettingsError
from firebreak.matches.feed import FeedType, payload
from firebreak.players import keys as player_keys
from firebreak.push import keys, preferences, vapid
from firebreak.push.fcm import Fcm
from firebreak.push.forwarder import PushForwarder
from firebreak.push.sender import Sender
from firebreak.push.settings import PushSettings
from firebreak.push.subscriptions import PushError, Subscriptions, delete_all_for_player
from tests.service.fcm_service import fcm_service
from tests.service.push_service import PushService, push_service

SETTINGS = PushSettings(allowed_hosts=("127.0.0.1",), retry_seconds=0.01, retry_cap_seconds=0.05, attempts=3,
                        timeout_seconds=2, lease_seconds=5)


@pytest.fixture
def keys_dir(tmp_path: Path) -> Path:
    """A fresh data folder."""
    return tmp_path / "data"


@pytest.fixture
def service(keys_dir: Path) -> Iterator[PushService]:
    """A local push service trusting the VAPID key generated into the data folder."""
    with push_service(vapid.load(SETTINGS, keys_dir).public_key) as svc:
        yield svc


def run(redis_url: str, work: Any) -> Any:
    """Run a coroutine function of an async Redis client."""
    async def main() -> Any:
        redis = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            return await work(redis)
        finally:
            await redis.aclose()

    return asyncio.run(main())


def queue_name() -> str:
    """A queue name of its own per test (its due set is then the test's alone)."""
    return "pushtest-" + uuid.uuid4().hex[:8]


async def event(redis: Any, player: str, kind: FeedType, **data: Any) -> str:
    """Write one event to a player's feed, as matches/feed.py does."""
    return str(await redis.xadd(match_keys.feed(player), {"e": payload(kind, data)}))


async def drain(redis: Any, queue: str, keys_dir: Path, rounds: int = 200) -> Sender:
    """Tick a sender until its queue is empty (every push sent, removed or given up)."""
    sender = Sender(redis, redis, SETTINGS, vapid.load(SETTINGS, keys_dir), queue)
    for _ in range(rounds):
        await sender.tick()
        if sender.tasks:
            await asyncio.gather(*sender.tasks)
        if not await sender.queue.waiting():
            break
        await asyncio.sleep(0.02)
    await sender.client.aclose()
    return sender


def test_a_push_is_signed_encrypted_and_has_its_topic_ttl_and_urgency(redis_url: str, service: PushService,
                                                                      keys_dir: Path) -> None:
    browser = service.browser("ann")
    player, queue = "p-" + uuid.uuid4().hex, queue_name()

    async def work(redis: Any) -> None:
        subs = Subscriptions(redis, SETTINGS.allowed, SETTINGS.per_player)
        await redis.hset(player_keys.player(player), "locale", "uk")  # as updateProfile saves it
        await event(redis, player, FeedType.MATCH_STARTED, matchId="before")  # before registering: not pushed
        await subs.add(player, service.endpoint("ann"), browser.p256dh, service.b64auth(browser))
        ids = [await event(redis, player, FeedType.YOUR_TURN, matchId="m1", title="t", seat=0),
               await event(redis, player, FeedType.MATCH_STARTED, matchId="m1"),  # not a pushed kind
               await event(redis, player, FeedType.YOUR_TURN, matchId="m2", titleId="t", seat=1),
               await event(redis, player, FeedType.MATCH_ENDED, matchId="m1", result="won")]
        forward = PushForwarder(redis, redis, queue, subs)
        assert await forward(player) == 3
        assert await forward(player) == 0  # a re-run makes nothing twice
        await drain(redis, queue, keys_dir)
        by_event = {(g.payload or {}).get("eventId"): g for g in service.at("ann")}  # sent concurrently: any order
        assert sorted(by_event) == sorted([ids[0], ids[2], ids[3]]) and len(service.at("ann")) == 3
        got = [by_event[ids[0]], by_event[ids[2]], by_event[ids[3]]]
        assert [g.vapid_error for g in got] == ["", "", ""]
        first = got[0].payload or {}
        assert first["type"] == "yourTurn" and first["matchId"] == "m1" and first["playerId"] == player
        assert first["notification"] == {"title": "Ваш хід", "body": "t: ваш хід."}  # the saved locale (uk)
        assert (got[2].payload or {})["notification"]["title"] == "Партію завершено"
        assert [g.headers["urgency"] for g in got] == ["high", "high", "normal"]
        assert got[0].headers["topic"] == got[2].headers["topic"] != got[1].headers["topic"]  # one per match
        assert all(len(g.headers["topic"]) <= 32 for g in got)
        assert 0 < int(got[0].headers["ttl"]) <= 24 * 3600
        assert got[0].headers["content-encoding"] == "aes128gcm"

    run(redis_url, work)


def test_gone_subscriptions_are_removed_and_429_is_retried_after_its_retry_after(
        redis_url: str, service: PushService, keys_dir: Path) -> None:
    gone, limited = service.browser("gone"), service.browser("limited")
    service.answers["gone"] = [(410, "")]
    service.answers["limited"] = [(429, "0"), (503, ""), (201, "")]
    player, queue = "p-" + uuid.uuid4().hex, queue_name()

    async def work(redis: Any) -> None:
        subs = Subscriptions(redis, SETTINGS.allowed, SETTINGS.per_player)
        for name, browser in (("gone", gone), ("limited", limited)):
            await subs.add(player, service.endpoint(name), browser.p256dh, service.b64auth(browser))
        await event(redis, player, FeedType.INVITED, matchId="m9", by="bob")
        before = await redis.hgetall(keys.PUSH_COUNTER)
        assert await PushForwarder(redis, redis, queue, subs)(player) == 2
        await drain(redis, queue, keys_dir)
        assert [s.endpoint for s in await subs.all(player)] == [service.endpoint("limited")]
        assert len(service.at("gone")) == 1
        assert [g.payload is not None for g in service.at("limited")] == [True, True, True]
        after = await redis.hgetall(keys.PUSH_COUNTER)
        grew = {k: int(after[k]) - int(before.get(k, 0)) for k in after if int(after[k]) != int(before.get(k, 0))}
        assert grew == {"attempt:gone": 1, "push:removed": 1, "attempt:rate_limited": 1, "attempt:server_error": 1,
                        "push:retried": 2, "attempt:success": 1, "push:sent": 1}

    run(redis_url, work)


def test_preferences_and_an_open_match_hold_a_push_back(redis_url: str, service: PushService,
                                                        keys_dir: Path) -> None:
    browser = service.browser("prefs")
    player, queue = "p-" + uuid.uuid4().hex, queue_name()

    async def work(redis: Any) -> None:
        subs = Subscriptions(redis, SETTINGS.allowed, SETTINGS.per_player)
        await subs.add(player, service.endpoint("prefs"), browser.p256dh, service.b64auth(browser))
        assert (await preferences.update(redis, player, {"matchEnded": False}))["matchEnded"] is False
        with pytest.raises(PushError, match="not a pushed kind"):
            await preferences.update(redis, player, {"yourTurn": False, "nonsense": True})
        assert (await preferences.read(redis, player))["yourTurn"] is True  # the refused change changed nothing
        await redis.zadd(keys.watching(player, "open"), {"a-stream": time.time() + 30})
        await redis.zadd(keys.watching(player, "closed"), {"a-dead-stream": time.time() - 1})  # aged out
        await event(redis, player, FeedType.MATCH_ENDED, matchId="m1")
        await event(redis, player, FeedType.YOUR_TURN, matchId="open")
        kept = await event(redis, player, FeedType.YOUR_TURN, matchId="closed")
        assert await PushForwarder(redis, redis, queue, subs)(player) == 1
        await drain(redis, queue, keys_dir)
        assert [(g.payload or {}).get("eventId") for g in service.at("prefs")] == [kept]

    run(redis_url, work)


def test_a_registration_is_checked_and_a_refused_one_stores_nothing(redis_url: str, service: PushService) -> None:
    browser = service.browser("checked")
    player = "p-" + uuid.uuid4().hex
    good = (service.endpoint("checked"), browser.p256dh, service.b64auth(browser))

    async def work(redis: Any) -> None:
        strict = Subscriptions(redis, PushSettings().allowed, 10)
        with pytest.raises(PushError, match=r"loopback.*FIREBREAK_PUSH_ALLOWED_HOSTS"):
            await strict.add(player, *good)
        open_ = Subscriptions(redis, SETTINGS.allowed, 2)
        for bad, says in (((good[0], good[1][:-4], good[2]), "P-256"), ((good[0], good[1], good[2][:-2]), "16 bytes"),
                          (("ftp://x.example/p", good[1], good[2]), "https"),
                          ((good[0], "A" * 87, good[2]), "P-256")):
            with pytest.raises(PushError, match=says):
                await open_.add(player, *bad)
        assert await open_.all(player) == []
        for n in range(3):  # the oldest beyond the limit goes
            await open_.add(player, f"{good[0]}{n}", good[1], good[2])
        assert [s.endpoint for s in await open_.all(player)] == [f"{good[0]}1", f"{good[0]}2"]
        assert await open_.remove(player, f"{good[0]}1") and not await open_.remove(player, f"{good[0]}1")
        await delete_all_for_player(redis, player)
        assert await open_.all(player) == [] and not await redis.exists(keys.pushed(player))

    run(redis_url, work)


def test_the_vapid_key_is_generated_once_into_the_data_folder_and_never_shown(keys_dir: Path) -> None:
    first = vapid.load(SETTINGS, keys_dir)
    path = keys_dir / vapid.KEY_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert vapid.load(SETTINGS, keys_dir).public_key == first.public_key
    pem = path.read_text()
    assert "PRIVATE" in pem and pem not in repr(first)
    from_setting = vapid.load(PushSettings(vapid_private_key=pem), keys_dir / "other")
    assert from_setting.public_key == first.public_key and not (keys_dir / "other").exists()
    assert "set" in repr(PushSettings(vapid_private_key=pem)) and pem not in repr(PushSettings(vapid_private_key=pem))
    with pytest.raises(ValueError, match="not a P-256 private key") as refused:
        vapid.load(PushSettings(vapid_private_key="not-a-key"), keys_dir)
    assert "not-a-key" not in str(refused.value)



def test_an_endpoint_that_is_not_a_url_is_refused(redis_url: str) -> None:
    """A malformed URL (an unclosed IPv6 bracket, a bad port) is a PushError, never an unexpected error."""
    browser_key = "B" + "A" * 86
    player = "p-" + uuid.uuid4().hex

    async def work(redis: Any) -> None:
        subs = Subscriptions(redis, SETTINGS.allowed, 10)
        for endpoint in ("http://[::1/push", "https://push.example:99999/x", "https://", "push.example/x"):
            with pytest.raises(PushError):
                await subs.add(player, endpoint, browser_key, "A" * 22)
        assert await subs.all(player) == []

    run(redis_url, work)


def test_fcm_pushes_get_an_oauth_token_by_the_jwt_bearer_grant_and_have_the_v1_shape(redis_url: str,
                                                                                    keys_dir: Path) -> None:
    """FCM HTTP v1 against a local peer (tests/service/fcm_service.py): the access token comes from the service
    account's token URI by an RS256 assertion the peer verifies; each message has the v1 shape, a collapse key per
    match and string data; 404 UNREGISTERED removes the registration; 429 is retried."""
    player, queue = "p-" + uuid.uuid4().hex, queue_name()
    good, unregistered = "tok-good-" + "a" * 40, "tok-gone-" + "b" * 40
    with fcm_service() as peer:
        peer.answers[good] = [(429, "0"), (200, "")]
        peer.answers[unregistered] = [(404, "")]
        account = json.dumps(peer.service_account())
        settings = PushSettings(fcm_service_account=account, fcm_endpoint=peer.endpoint(), retry_seconds=0.01,
                                retry_cap_seconds=0.05, attempts=3, timeout_seconds=5, lease_seconds=10)
        assert account not in repr(settings) and "BEGIN" not in repr(settings)

        async def work(redis: Any) -> None:
            subs = Subscriptions(redis, settings.allowed, settings.per_player)
            with pytest.raises(PushError, match="FCM registration token"):
                await subs.add_fcm(player, "short")
            kept = await subs.add_fcm(player, good)
            await subs.add_fcm(player, unregistered)
            assert kept.to_json()["endpoint"] == "fcm:tok-good..." and good not in json.dumps(kept.to_json())
            turn = await event(redis, player, FeedType.YOUR_TURN, matchId="m1", seat=0)
            assert await PushForwarder(redis, redis, queue, subs)(player) == 2
            sender = Sender(redis, redis, settings, vapid.load(settings, keys_dir), queue,
                            Fcm(peer.service_account(), settings.fcm_endpoint))
            for _ in range(200):
                await sender.tick()
                if sender.tasks:
                    await asyncio.gather(*sender.tasks)
                if not await sender.queue.waiting():
                    break
                await asyncio.sleep(0.02)
            await sender.client.aclose()
            assert peer.refused == [] and peer.grants and set(peer.grants) == {""}
            sent = [m for m in peer.messages if m["token"] == good]
            assert len(sent) == 2 and sent[0]["data"]["eventId"] == turn and sent[0]["data"]["type"] == "yourTurn"
            # what the phone shows of a closed app's push: a notification, in English (no saved locale), not data
            assert sent[0]["notification"] == {"title": "Your turn", "body": "Firebreak: it is your move."}
            assert "notification" not in sent[0]["data"]
            assert sent[0]["android"]["priority"] == "HIGH" and 0 < int(sent[0]["android"]["ttl"][:-1]) <= 24 * 3600
            assert sent[0]["android"]["collapse_key"] == sent[1]["apns"]["headers"]["apns-collapse-id"]
            assert [s.id for s in await subs.all(player)] == [kept.id]  # the unregistered token went

        run(redis_url, work)


def test_a_bad_service_account_setting_is_refused_without_its_content() -> None:
    with pytest.raises(SettingsError, match="FIREBREAK_PUSH_FCM_SERVICE_ACCOUNT") as refused:
        PushSettings(fcm_service_account='{"private_key": "secret-material"}')
    assert "secret-material" not in str(refused.value)
