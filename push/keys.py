"""The pushes' Redis keys: a player's registrations and preferences in the player's slot of the matches Redis (beside
their feed), the pushes being sent on the queue Redis."""

from __future__ import annotations

PUSH_COUNTER = "stats:push"  # hash on the queue Redis: attempt:<outcome> / push:<final outcome> -> count


def subscriptions(player_id: str) -> str:
    """Hash: registration id -> its record (JSON: endpoint, keys, created)."""
    return f"player:{{p:{player_id}}}:push:subs"


def preferences(player_id: str) -> str:
    """Hash: event kind -> "0" (off) or "1" (on); a kind not in it is on."""
    return f"player:{{p:{player_id}}}:push:prefs"


def pushed(player_id: str) -> str:
    """String: the id of the player's last feed event turned into pushes."""
    return f"player:{{p:{player_id}}}:feed:pushed"


def watching(player_id: str, match_id: str) -> str:
    """Sorted set with a short TTL: the player's live streams on this match -> until when each is counted as open
    (each refreshes its own entry and drops it when it closes: push/watching.py)."""
    return f"player:{{p:{player_id}}}:watchers:{match_id}"


def due(queue: str) -> str:
    """Sorted set on the queue Redis: push id -> when its next attempt is due (or its lease ends)."""
    return f"push:{queue}:due"


def push(queue: str, push_id: str) -> str:
    """Hash on the queue Redis: one push being sent (player, registration, payload, headers, attempts)."""
    return f"push:{queue}:push:{push_id}"
