"""The web client's "Notify me" (issue 48, section 2) in headless Chromium: the switch registers a service worker
and a PushSubscription with the service's VAPID key and hands it to the service; the workers' push reaches a local
push service that decrypts it; that push delivered to the service worker (DevTools' ServiceWorker.deliverPushMessage)
shows a notification per match; the switch turned off removes the registration.

Chromium's own push service is Google's, out of reach here: the page's PushManager.subscribe answers a subscription
to the local push service (tests/service/push_service.py) with keys the test holds, as a browser would make them."""

from __future__ import annotations

import base64
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from redis import Redis

from firebreak.matches.feed import FeedType
from firebreak.players import keys as player_keys
from firebreak.push import keys, vapid
from firebreak.push.settings import PushSettings
from tests.service.push_service import push_service
from tests.service.support import private_service, wait_for
from tests.service.test_push_workers import FAST, payloads
from tests.service.test_webhooks import _emit
from tests.web.test_browser import opened
from tests.web.test_players_browser import sign_in

FAKE_SUBSCRIBE = """(() => {
  const fake = %s;
  let current = null;
  PushManager.prototype.subscribe = async function (options) {
    window.__pushKey = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
    window.__userVisibleOnly = options.userVisibleOnly;
    current = { endpoint: fake.endpoint, toJSON: () => fake,
                unsubscribe: async () => { current = null; return true; } };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();"""
NOTIFICATIONS = """() => navigator.serviceWorker.getRegistration('/static/sw.js')
  .then((r) => r ? r.getNotifications() : []).then((ns) => ns.map((n) => [n.title, n.tag]))"""


def test_notify_me_registers_the_browser_and_the_worker_shows_the_push(browser: Any, redis_url: str,
                                                                        tmp_path: Path) -> None:
    redis = Redis.from_url(redis_url, decode_responses=True)
    data = tmp_path / "data"
    public = vapid.load(PushSettings(), data).public_key
    with push_service(public) as service, private_service(redis_url, tmp_path, "push-web", workers=1, api=True,
                                                          FIREBREAK_DATA_DIR=str(data), **FAST) as svc:
        assert svc.base is not None
        chromium = service.browser("web")
        fake = {"endpoint": service.endpoint("web"),
                "keys": {"p256dh": chromium.p256dh, "auth": service.b64auth(chromium)}}
        with opened(browser, svc.base) as p:
            p.context.grant_permissions(["notifications"], origin=svc.base)
            p.context.add_init_script(FAKE_SUBSCRIBE % json.dumps(fake))
            page = p.page
            player = sign_in(page, "Push Pia")
            page.get_by_test_id("notify-me").check()
            page.wait_for_function("() => document.querySelector('[data-testid=notify-status]').textContent !== ''")
            assert page.get_by_test_id("notify-status").inner_text() == "Notifications on"
            served = base64.b64decode(page.evaluate("window.__pushKey"))
            assert served == base64.urlsafe_b64decode(public + "=" * (-len(public) % 4))
            assert page.evaluate("window.__userVisibleOnly") is True
            stored = redis.hgetall(keys.subscriptions(player))
            assert [json.loads(v)["endpoint"] for v in stored.values()] == [fake["endpoint"]]

            redis.hset(player_keys.player(player), "locale", "de")  # saved as updateProfile saves it: pushes speak it
            with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread: asyncio.run in another
                turn = pool.submit(_emit, redis_url, svc.settings, player, FeedType.YOUR_TURN,
                                   {"matchId": "m-web", "seat": 0, "title": "greatfire"}).result()
            got = wait_for(lambda: payloads(service, "web"), "the push at the local push service")
            assert got[0]["eventId"] == turn

            cdp = p.context.new_cdp_session(page)
            registrations: list[dict[str, Any]] = []
            cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
            cdp.send("ServiceWorker.enable")
            end = time.monotonic() + 20
            while not any(r["scopeURL"].endswith("/static/") for r in registrations) and time.monotonic() < end:
                page.wait_for_timeout(50)
            ours = next(r for r in registrations if r["scopeURL"].endswith("/static/") and not r["isDeleted"])
            cdp.send("ServiceWorker.deliverPushMessage", {"origin": svc.base, "registrationId":
                                                          ours["registrationId"], "data": json.dumps(got[0])})
            shown = wait_for(lambda: page.evaluate(NOTIFICATIONS), "the notification")
            assert got[0]["notification"]["body"] == "The Great Fire: London 1666: Du bist am Zug."
            assert shown == [["Du bist am Zug", "m-web"]]  # the service's words, in the player's saved locale

            page.get_by_test_id("notify-me").uncheck()
            page.get_by_test_id("notify-status").filter(has_text="Notifications off").wait_for()
            assert redis.hgetall(keys.subscriptions(player)) == {}
