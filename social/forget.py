"""Forgetting a player's social traces (for the account's deletion): their friends and requests on both sides, the
blocks they made and those made on them, their presence and their entry in the handles' search index."""

from __future__ import annotations

from typing import Any

from firebreak.players import handle_index
from firebreak.players import keys as player_keys
from firebreak.social import keys, presence


async def forget_player(redis: Any, player_id: str) -> None:
    """Remove everything social of a player, both sides of every pair; idempotent (a second call finds nothing).
    Call it before the player's hash goes (its handle names the search entry; an entry left behind is dropped by
    the first search that meets it, its player being gone)."""
    pipe = redis.pipeline(transaction=False)
    for key in (keys.friends, keys.incoming, keys.outgoing, keys.blocks, keys.blockers):
        pipe.zrange(key(player_id), 0, -1)
    pipe.hget(player_keys.player(player_id), "handle")
    friends, incoming, outgoing, blocks, blockers, handle = await pipe.execute()
    pipe = redis.pipeline(transaction=False)
    for other in friends:
        pipe.zrem(keys.friends(other), player_id)
    for other in incoming:  # they asked the player
        pipe.zrem(keys.outgoing(other), player_id)
    for other in outgoing:  # the player asked them
        pipe.zrem(keys.incoming(other), player_id)
    for other in blocks:
        pipe.zrem(keys.blockers(other), player_id)
    for other in blockers:
        pipe.zrem(keys.blocks(other), player_id)
    await pipe.execute()
    await redis.delete(*keys.every(player_id))
    if handle:
        await handle_index.drop(redis, player_id, handle)
    presence.forget(player_id)
