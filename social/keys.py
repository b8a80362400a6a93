"""The social room's Redis keys, on the matches Redis in the player's slot ({p:<id>}, as players/keys.py): each
player's own side of a friendship, request or block. A pair's two sides live in two slots, so no script writes both
(the module that writes them says in which order, and what a crash in between leaves)."""

from __future__ import annotations


def friends(player_id: str) -> str:
    """Sorted set: the player's friends -> since when (epoch seconds)."""
    return f"player:{{p:{player_id}}}:friends"


def incoming(player_id: str) -> str:
    """Sorted set: the players who asked to be the player's friend -> when."""
    return f"player:{{p:{player_id}}}:friend-requests:in"


def outgoing(player_id: str) -> str:
    """Sorted set: the players the player asked to be friends with -> when."""
    return f"player:{{p:{player_id}}}:friend-requests:out"


def blocks(player_id: str) -> str:
    """Sorted set: the players the player blocked -> when (private to the player)."""
    return f"player:{{p:{player_id}}}:blocks"


def blockers(player_id: str) -> str:
    """Sorted set: the players who blocked the player -> when (never shown: the reverse index that lets a deletion
    or a check find the blocks on a player)."""
    return f"player:{{p:{player_id}}}:blockers"


def seen(player_id: str) -> str:
    """String with a long TTL: when the player was last seen acting or holding a stream open (epoch seconds)."""
    return f"player:{{p:{player_id}}}:seen"


def every(player_id: str) -> list[str]:
    """Every social key of one player (one slot)."""
    return [friends(player_id), incoming(player_id), outgoing(player_id), blocks(player_id), blockers(player_id),
            seen(player_id)]
