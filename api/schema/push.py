"""Push area: the VAPID public key, the signed-in player's push registrations and preferences (REST's
/v1/push/vapid-public-key, /v1/me/push-subscriptions, /v1/me/push-preferences)."""

from __future__ import annotations

from typing import Annotated, cast

import strawberry

from firebreak.api.context import Info
from firebreak.api.schema.problems import InvalidInput, Unauthenticated, player_problem
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import PlayerError
from firebreak.players.records import Principal
from firebreak.push.subscriptions import PushError, Subscription


@strawberry.type
class PushSubscription:
    """One of the player's registered browsers (its keys are never shown again)."""

    id: strawberry.ID = strawberry.field(description="The registration's id (the same for the same endpoint).")
    kind: str = strawberry.field(description="webpush (a browser) or fcm (a native app's device token).")
    endpoint: str = strawberry.field(description="The push service URL the browser gave; for fcm, fcm: and the "
                                                 "token's first characters.")
    created: float = strawberry.field(description="When it was registered (Unix seconds).")

    @classmethod
    def of(cls, sub: Subscription) -> PushSubscription:
        """From the stored registration."""
        shown = sub.to_json()
        return cls(id=strawberry.ID(sub.id), kind=sub.kind, endpoint=shown["endpoint"], created=sub.created)


@strawberry.type
class PushPreferences:
    """Every pushed kind and whether the player wants it pushed (every kind is on until turned off)."""

    your_turn: bool = strawberry.field(description="Pushed when a match waits for the player's decision.")
    match_ended: bool = strawberry.field(description="Pushed when a match the player sat in ended.")
    invited: bool = strawberry.field(description="Pushed when another player invited them to a match.")
    rematch_offered: bool = strawberry.field(description="Pushed when another person of a match offers a rematch.")
    seek_matched: bool = strawberry.field(description="Pushed when a seek of theirs found a table.")
    seat_taken_over: bool = strawberry.field(description="Pushed when their clock ran out and a bot plays their seat.")
    friend_requested: bool = strawberry.field(description="Pushed when another player asks to be their friend.")
    friend_accepted: bool = strawberry.field(description="Pushed when a player accepted their friend request.")

    @classmethod
    def of(cls, kinds: dict[str, bool]) -> PushPreferences:
        """From the kinds' settings."""
        return cls(your_turn=kinds["yourTurn"], match_ended=kinds["matchEnded"], invited=kinds["invited"],
                   rematch_offered=kinds["rematchOffered"], seek_matched=kinds["seekMatched"],
                   seat_taken_over=kinds["seatTakenOver"], friend_requested=kinds["friendRequested"],
                   friend_accepted=kinds["friendAccepted"])


@strawberry.input
class PushKeysInput:
    """A PushSubscription's keys, as its toJSON() gives them."""

    p256dh: str = strawberry.field(description="The browser's P-256 public key, base64url.")
    auth: str = strawberry.field(description="The 16-byte auth secret, base64url.")


@strawberry.input
class RegisterPushSubscriptionInput:
    """A browser's PushSubscription (its toJSON(): endpoint and keys)."""

    endpoint: str = strawberry.field(description="The push service URL the browser gave.")
    keys: PushKeysInput = strawberry.field(description="Its keys (p256dh, auth).")


@strawberry.input
class RegisterPushDeviceInput:
    """A native app's FCM registration token."""

    token: str = strawberry.field(description="The FCM registration token the app got.")


@strawberry.input
class RemovePushSubscriptionInput:
    """Which registration."""

    id: strawberry.ID = strawberry.field(description="The registration's id.")


def _change(when: str) -> bool | None:
    """An optional kind switch of UpdatePushPreferencesInput, described."""
    return cast(bool | None, strawberry.field(default=None,
                                              description=f"true: push when {when}; false: not; null: as it is."))


@strawberry.input
class UpdatePushPreferencesInput:
    """Kinds turned on (true) or off (false); null or left out: as it is."""

    your_turn: bool | None = _change("a match waits for the player's decision")
    match_ended: bool | None = _change("a match the player sat in ended")
    invited: bool | None = _change("another player invited them to a match")
    rematch_offered: bool | None = _change("another person of a match offers a rematch")
    seek_matched: bool | None = _change("a seek of theirs found a table")
    seat_taken_over: bool | None = _change("their clock ran out and a bot plays their seat")
    friend_requested: bool | None = _change("another player asks to be their friend")
    friend_accepted: bool | None = _change("a player accepted their friend request")


@strawberry.type
class PushSubscriptionRegistered:
    """The registration made (or replaced, for an endpoint registered before)."""

    subscription: PushSubscription = strawberry.field(description="The registration.")


@strawberry.type
class PushSubscriptionRemoved:
    """Whether a registration was removed (false: the player had none with this id)."""

    id: strawberry.ID = strawberry.field(description="The registration's id, as asked.")
    removed: bool = strawberry.field(description="false: the player had no registration with this id.")


RegisterPushSubscriptionResult = Annotated[
    PushSubscriptionRegistered | Unauthenticated | InvalidInput,
    strawberry.union("RegisterPushSubscriptionResult", description="The registration, or why none was made.")]
RemovePushSubscriptionResult = Annotated[
    PushSubscriptionRemoved | Unauthenticated,
    strawberry.union("RemovePushSubscriptionResult", description="Whether it was removed, or why not.")]
UpdatePushPreferencesResult = Annotated[
    PushPreferences | Unauthenticated | InvalidInput,
    strawberry.union("UpdatePushPreferencesResult", description="The preferences as they now are, or why they did "
                                                                "not change.")]
_KINDS = {"your_turn": "yourTurn", "match_ended": "matchEnded", "invited": "invited",
          "rematch_offered": "rematchOffered", "seek_matched": "seekMatched", "seat_taken_over": "seatTakenOver",
          "friend_requested": "friendRequested", "friend_accepted": "friendAccepted"}


async def my_push_subscriptions(info: Info, principal: Principal) -> list[PushSubscription]:
    """The player's registrations, oldest first (me { pushSubscriptions })."""
    return [PushSubscription.of(s) for s in await info.context.services.push.listing(principal.player.id)]


async def my_push_preferences(info: Info, principal: Principal) -> PushPreferences:
    """The player's push preferences (me { pushPreferences })."""
    return PushPreferences.of(await info.context.services.push.preferences(principal.player.id))


def _bad(exc: PushError) -> InvalidInput:
    return InvalidInput(code=Refusal.BAD_PUSH_SUBSCRIPTION, message=str(exc))


@strawberry.type
class PushQuery:
    """Push reads."""

    @strawberry.field
    def push_public_key(self, info: Info) -> str:
        """The VAPID public key browsers subscribe with (PushManager.subscribe's applicationServerKey, base64url)."""
        return info.context.services.push.public_key


@strawberry.type
class PushMutation:
    """Push writes."""

    @strawberry.mutation
    async def register_push_subscription(
        self, info: Info, input: Annotated[RegisterPushSubscriptionInput, strawberry.argument(
            description="The browser's PushSubscription.")],
    ) -> RegisterPushSubscriptionResult:
        """Register a browser's PushSubscription for the signed-in player: their events (yourTurn, matchEnded,
        invited, rematchOffered, seekMatched, seatTakenOver) are pushed to it while the app is closed. A
        subscription Firebreak cannot push to: InvalidInput BAD_PUSH_SUBSCRIPTION, nothing stored."""
        principal = await info.context.player_or_refusal()
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated, player_problem(principal))
        try:
            sub = await info.context.services.push.register(principal.player.id, input.endpoint, input.keys.p256dh,
                                                            input.keys.auth)
        except PushError as exc:
            return _bad(exc)
        return PushSubscriptionRegistered(subscription=PushSubscription.of(sub))

    @strawberry.mutation
    async def register_push_device(
        self, info: Info, input: Annotated[RegisterPushDeviceInput, strawberry.argument(
            description="The app's FCM token.")],
    ) -> RegisterPushSubscriptionResult:
        """Register a native app's FCM registration token for the signed-in player: their events are sent to it
        through FCM HTTP v1 (when the operator set a service account). Listed and removed with the browsers'."""
        principal = await info.context.player_or_refusal()
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated, player_problem(principal))
        try:
            sub = await info.context.services.push.register_device(principal.player.id, input.token)
        except PushError as exc:
            return _bad(exc)
        return PushSubscriptionRegistered(subscription=PushSubscription.of(sub))

    @strawberry.mutation
    async def remove_push_subscription(
        self, info: Info, input: Annotated[RemovePushSubscriptionInput, strawberry.argument(
            description="Which registration.")],
    ) -> RemovePushSubscriptionResult:
        """Remove one of the signed-in player's registrations: nothing more is pushed to that browser."""
        principal = await info.context.player_or_refusal()
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated, player_problem(principal))
        removed = await info.context.services.push.remove(principal.player.id, str(input.id))
        return PushSubscriptionRemoved(id=input.id, removed=removed)

    @strawberry.mutation
    async def update_push_preferences(
        self, info: Info, input: Annotated[UpdatePushPreferencesInput, strawberry.argument(
            description="The kinds to change.")],
    ) -> UpdatePushPreferencesResult:
        """Turn kinds on or off for the signed-in player; a kind left out stays as it is."""
        principal = await info.context.player_or_refusal()
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated, player_problem(principal))
        changes = {kind: value for name, kind in _KINDS.items() if (value := getattr(input, name)) is not None}
        try:
            kinds = await info.context.services.push.update_preferences(principal.player.id, changes)
        except PushError as exc:
            return _bad(exc)
        return PushPreferences.of(kinds)
