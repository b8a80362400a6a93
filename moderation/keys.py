"""The moderation's Redis keys: a player's mute and ban in the player's slot ({p:<id>}, as players/keys.py); the ban
outbox on the queue Redis."""

from __future__ import annotations


def muted(player_id: str) -> str:
    """String with the mute's time to live: until when (epoch seconds) the player may not chat."""
    return f"player:{{p:{player_id}}}:muted"


# Sorted set on the queue Redis: player id -> when its ban was laid (its seats are resigned by a worker:
# workers/moderation.py; dropped once done, handed on by the reconciler after stall_seconds). Named in
# matches/reconciler.py too (that layer imports no moderation).
BANS_PENDING = "moderation:bans"
