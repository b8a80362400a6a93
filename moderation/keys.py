"""The moderation's Redis keys: a player's mute and ban in the player's slot ({p:<id>}, as players/keys.py); the ban
outbox on the queue Redis."""

from __future__ import annotations

from firebreak.matches import keys as match_keys


def muted(player_id: str) -> str:
    """String with the mute's time to live: until when (epoch seconds) the player may not chat."""
    return f"player:{{p:{player_id}}}:muted"


BANS_PENDING = match_keys.BANS_PENDING  # the ban's outbox: named in matches/keys.py, which the reconciler reads
