"""REST pushes: the VAPID public key, the signed-in player's push registrations and preferences (GraphQL's
pushPublicKey, me { pushSubscriptions pushPreferences }, registerPushSubscription, removePushSubscription,
updatePushPreferences)."""

from __future__ import annotations

from typing import Any

from firebreak.api.rest import callers
from firebreak.api.rest import requests as R
from firebreak.api.rest.problems import problem
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.matches.refusals import Refusal
from firebreak.push.subscriptions import PushError, Subscription


def subscription_json(sub: Subscription) -> dict[str, Any]:
    """A registration as its player sees it (never its keys)."""
    return sub.to_json()


async def public_key(call: Call) -> Reply:
    """The VAPID public key browsers subscribe with."""
    return Reply({"publicKey": call.services.push.public_key})


async def register(call: Call) -> Reply:
    """Register a browser's PushSubscription for the signed-in player; 201."""
    principal = await callers.principal(call)
    body = call.form(R.RegisterPushSubscription)
    try:
        sub = await call.services.push.register(principal.player.id, body.endpoint, body.keys.p256dh, body.keys.auth)
    except PushError as exc:
        raise problem(Refusal.BAD_PUSH_SUBSCRIPTION, str(exc)) from None
    return Reply({"subscription": subscription_json(sub)}, 201,
                 {"Location": f"/v1/me/push-subscriptions/{sub.id}"})


async def register_device(call: Call) -> Reply:
    """Register a native app's FCM device token for the signed-in player; 201."""
    principal = await callers.principal(call)
    body = call.form(R.RegisterPushDevice)
    try:
        sub = await call.services.push.register_device(principal.player.id, body.token)
    except PushError as exc:
        raise problem(Refusal.BAD_PUSH_SUBSCRIPTION, str(exc)) from None
    return Reply({"subscription": subscription_json(sub)}, 201,
                 {"Location": f"/v1/me/push-subscriptions/{sub.id}"})


async def listing(call: Call) -> Reply:
    """The signed-in player's registrations."""
    principal = await callers.principal(call)
    return Reply({"items": [subscription_json(s) for s in await call.services.push.listing(principal.player.id)]})


async def remove(call: Call) -> Reply:
    """Remove one of the signed-in player's registrations."""
    principal = await callers.principal(call)
    sub_id = call.params["subscriptionId"]
    return Reply({"id": sub_id, "removed": await call.services.push.remove(principal.player.id, sub_id)})


async def get_preferences(call: Call) -> Reply:
    """Which kinds the signed-in player wants pushed."""
    principal = await callers.principal(call)
    return Reply(await call.services.push.preferences(principal.player.id))


async def put_preferences(call: Call) -> Reply:
    """Turn kinds on or off for the signed-in player."""
    principal = await callers.principal(call)
    changes = call.form(R.UpdatePushPreferences).model_dump(exclude_none=True)
    try:
        return Reply(await call.services.push.update_preferences(principal.player.id, changes))
    except PushError as exc:
        raise problem(Refusal.BAD_PUSH_SUBSCRIPTION, str(exc)) from None


SUBSCRIPTION_ID = Param("subscriptionId", "path", str, "The registration's id.", required=True)
OPERATIONS = [
    Operation("GET", "/v1/push/vapid-public-key", "getVapidPublicKey", "push", "The VAPID public key",
              "The key a browser subscribes with (PushManager.subscribe's applicationServerKey): pushes to it are "
              "signed with its private key (RFC 8292).", public_key, response="VapidPublicKey"),
    Operation("POST", "/v1/me/push-subscriptions", "registerPushSubscription", "push", "Register a browser for pushes",
              "Register a browser's PushSubscription (its toJSON(): endpoint and keys) for the signed-in player: "
              "their events (yourTurn, matchEnded, invited, rematchOffered, seekMatched, seatTakenOver) are pushed "
              "to it while the app is closed. The same endpoint again replaces it; past "
              "FIREBREAK_PUSH_SUBSCRIPTIONS_PER_PLAYER the oldest goes.", register, success=201,
              response="PushSubscriptionRegistered", body=R.RegisterPushSubscription,
              example={"endpoint": "https://push.example/abc", "keys": {
                  "p256dh": "BD4hcFgjLdXC-xirGZxvUiNCh1Tk4_lTemtNZoYSqhEJRwBnHsvaBoo4f3Yf0bMKUurNXjLSOtrZfTfssiPVo0E",
                  "auth": "gBqRFphIBwdhJhTNV6LY9w"}},
              auth=Auth.PLAYER, write=True, codes=(Refusal.BAD_PUSH_SUBSCRIPTION,), headers=("Location",)),
    Operation("POST", "/v1/me/push-devices", "registerPushDevice", "push", "Register a native app for pushes",
              "Register a native app's FCM registration token for the signed-in player: their events are sent to "
              "it through FCM HTTP v1 (when the operator set FIREBREAK_PUSH_FCM_SERVICE_ACCOUNT). It is listed "
              "and removed with the browsers' registrations.", register_device, success=201,
              response="PushSubscriptionRegistered", body=R.RegisterPushDevice,
              example={"token": "dXk3x0examplex0token:APA91bExample"}, auth=Auth.PLAYER, write=True,
              codes=(Refusal.BAD_PUSH_SUBSCRIPTION,), headers=("Location",)),
    Operation("GET", "/v1/me/push-subscriptions", "listPushSubscriptions", "push", "List my push registrations",
              "The signed-in player's registered browsers (never their keys).", listing,
              response="PushSubscriptionList", auth=Auth.PLAYER),
    Operation("DELETE", "/v1/me/push-subscriptions/{subscriptionId}", "removePushSubscription", "push",
              "Remove a push registration", "Nothing more is pushed to that browser; removed is false when the "
              "player had no registration with this id.", remove, response="PushSubscriptionRemoved",
              params=(SUBSCRIPTION_ID,), auth=Auth.PLAYER, write=True),
    Operation("GET", "/v1/me/push-preferences", "getPushPreferences", "push", "My push preferences",
              "Every pushed kind and whether the signed-in player wants it pushed (every kind is on until turned "
              "off).", get_preferences, response="PushPreferences", auth=Auth.PLAYER),
    Operation("PUT", "/v1/me/push-preferences", "updatePushPreferences", "push", "Change my push preferences",
              "Turn kinds on (true) or off (false); a kind left out stays as it is.", put_preferences,
              response="PushPreferences", body=R.UpdatePushPreferences, example={"matchEnded": False},
              auth=Auth.PLAYER, write=True, codes=(Refusal.BAD_PUSH_SUBSCRIPTION,)),
]
