"""Friend events pushed (issue 49): real API and worker processes, a real local push service that checks VAPID and
decrypts each payload (tests/service/push_service.py). A friend request and its acceptance reach the other player's
browser with public facts only; a kind turned off in the preferences is not pushed."""

from __future__ import annotations

from pathlib import Path

from firebreak.push import vapid
from firebreak.push.settings import PushSettings
from tests.service.players_support import guest, rest
from tests.service.push_service import push_service
from tests.service.support import private_service, wait_for
from tests.service.test_push_workers import FAST, payloads, register
from tests.service.test_social import step


def test_friend_requests_and_acceptances_are_pushed_with_public_facts_only(redis_url: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    public = vapid.load(PushSettings(), data).public_key
    with push_service(public) as service, private_service(redis_url, tmp_path, "push-social", workers=1, api=True,
                                                          FIREBREAK_DATA_DIR=str(data), **FAST) as svc, \
            svc.client() as c:
        ann, bob, cat = guest(c, "ann"), guest(c, "bob"), guest(c, "cat")
        register(redis_url, ann.player, service, "ann")
        register(redis_url, bob.player, service, "bob")
        ann_handle = c.gql("{ me { handle } }", token=ann.access)["me"]["handle"]
        assert step(c, "requestFriend", ann, playerId=bob.player)["status"] == "REQUESTED"
        (asked,) = wait_for(lambda: payloads(service, "bob") or None, "bob's friendRequested push")
        assert set(asked) == {"type", "eventId", "at", "playerId", "by", "handle", "notification"}
        assert asked["notification"] == {"title": "Friend request", "body": f"{ann_handle} wants to be your friend."}
        assert (asked["type"], asked["playerId"], asked["by"], asked["handle"]) == ("friendRequested", bob.player,
                                                                                     ann.player, ann_handle)
        off = rest(svc.base or "", "PUT", "/v1/me/push-preferences", ann.access, {"friendAccepted": False})
        assert off.status_code == 200 and off.json()["friendAccepted"] is False
        assert step(c, "acceptFriend", bob, playerId=ann.player)["status"] == "FRIENDS"
        # ann turned friendAccepted off: cat's request, sent after the acceptance, is her next (and only) push
        assert step(c, "requestFriend", cat, playerId=ann.player)["status"] == "REQUESTED"
        got = wait_for(lambda: payloads(service, "ann") or None, "ann's push of cat's request")
        assert [(p["type"], p["by"]) for p in got] == [("friendRequested", cat.player)]
