"""What the API does with pushes: the VAPID public key, a player's registrations and preferences (over the matches
Redis, in the player's slot)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firebreak.push import preferences, subscriptions
from firebreak.push.settings import PushSettings
from firebreak.push.subscriptions import Subscription, Subscriptions
from firebreak.push.vapid import Keys, load


class Push:
    """The pushes' API side: one per API process."""

    def __init__(self, redis: Any, settings: PushSettings, keys: Keys) -> None:
        self.redis = redis
        self.settings = settings
        self.keys = keys
        self.subscriptions = Subscriptions(redis, settings.allowed, settings.per_player)

    @classmethod
    def from_env(cls, redis: Any, data_dir: str | Path) -> Push:
        """From the environment's settings, the key pair generated into data_dir when none is set."""
        settings = PushSettings.from_env()
        return cls(redis, settings, load(settings, data_dir))

    @property
    def public_key(self) -> str:
        """The VAPID public key browsers subscribe with (applicationServerKey), base64url."""
        return self.keys.public_key

    async def register(self, player: str, endpoint: str, p256dh: str, auth: str) -> Subscription:
        """Register a browser's PushSubscription (PushError: refused, nothing stored)."""
        return await self.subscriptions.add(player, endpoint, p256dh, auth)

    async def register_device(self, player: str, token: str) -> Subscription:
        """Register a native app's FCM device token (PushError: refused, nothing stored)."""
        return await self.subscriptions.add_fcm(player, token)

    async def listing(self, player: str) -> list[Subscription]:
        """The player's registrations, oldest first."""
        return await self.subscriptions.all(player)

    async def remove(self, player: str, subscription_id: str) -> bool:
        """Remove one of the player's registrations (by id or endpoint); whether there was one."""
        return await self.subscriptions.remove(player, subscription_id)

    async def preferences(self, player: str) -> dict[str, bool]:
        """Every pushed kind -> whether the player wants it."""
        return await preferences.read(self.redis, player)

    async def update_preferences(self, player: str, changes: Mapping[str, bool]) -> dict[str, bool]:
        """Turn kinds on or off (PushError for an unknown kind, nothing changed)."""
        return await preferences.update(self.redis, player, changes)

    async def delete_all_for_player(self, player_id: str) -> None:
        """Forget every registration, preference and cursor of a player (account deletion)."""
        await subscriptions.delete_all_for_player(self.redis, player_id)
