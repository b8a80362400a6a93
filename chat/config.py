"""The chat's settings, read once from the environment (a pydantic-settings model like matches/config.py)."""

from __future__ import annotations

from typing import ClassVar

from firebreak.matches.envsettings import EnvSettings, env
from firebreak.matches.ratelimit import Rate


class ChatSettings(EnvSettings):
    """What a deployment may tune about chat beside the board; every field has a working default."""

    section: ClassVar[str] = "Chat beside the board"

    per_minute: float = env("FIREBREAK_CHAT_PER_MINUTE", 20.0,
                            "Chat messages a player (or a seat's token) may send per minute, sustained, over all "
                            "matches (RATE_LIMITED past it); 0 turns the limit off.", ge=0)
    burst: int = env("FIREBREAK_CHAT_BURST", 5, "Chat messages a sender may send at once before the rate applies.",
                     ge=0)

    @property
    def rate(self) -> Rate:
        """The token bucket a sender is charged one message from."""
        return Rate(self.per_minute / 60, self.burst)
