"""The handles' search index: one sorted set (INDEX, every score 0) whose members are "<handle key> <player id>"
(players/handles.py:key), so that the players whose handle starts with a prefix are one ZRANGEBYLEX range, paged by
the last member seen (social/search.py reads it).

The directory puts a player's entry when it assigns or changes a handle (after the player's hash, in another slot:
a crash in between leaves the entry missing or stale); a reader checks each entry against the player's hash and
drops a stale one (its player gone, or showing another handle). Players whose handles were given before the index
existed are put in by a one-time backfill (social/search.py:backfill)."""

from __future__ import annotations

from typing import Any

from firebreak.players import handles

INDEX = "players:handle-index"  # sorted set: "<handle key> <player id>" -> 0
BUILT = "players:handle-index:built"  # string: set once the backfill of the handles given before the index is done


def member(handle: str, player_id: str) -> str:
    """A player's entry for a handle (the key has no space: handles hold letters, digits, '-', '_' and '.')."""
    return f"{handles.key(handle)} {player_id}"


async def put(redis: Any, player_id: str, old: str, new: str) -> None:
    """Index the player under a new handle, dropping its entry for the old one ('' for none)."""
    if old and handles.key(old) != handles.key(new):
        await redis.zrem(INDEX, member(old, player_id))
    await redis.zadd(INDEX, {member(new, player_id): 0})


async def drop(redis: Any, player_id: str, handle: str) -> None:
    """Take a player's entry for a handle out of the index."""
    if handle:
        await redis.zrem(INDEX, member(handle, player_id))
