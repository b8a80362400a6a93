"""Blocks: a player blocks another (privately: the blocked player is never told), which ends any friendship and
pending friend request between the two; the blocked player can then send the blocker no friend request, invitation
or rematch offer (each refused as NOT_ACCEPTED), and seeks never seat the two at one table, either way.

The blocker's side (keys.blocks) is the truth and is written first; the blocked player's side (keys.blockers, a
reverse index that only a deletion and the friendship clean-up read) second: on a Cluster the two live in different
slots. A crash in between leaves a block whose reverse entry is missing (a deletion of the blocker then leaves one
stale entry in its own, deleted, keys) and maybe a one-sided friendship, which the next friends listing drops."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from firebreak.matches.connections import Script
from firebreak.matches.refusals import Refusal
from firebreak.social import keys
from firebreak.social.errors import SocialError

# The blocker's side. KEYS: blocks, friends, incoming, outgoing of the blocker; ARGV: the blocked, now, most blocks.
# Returns {'ok', since} (since: the block's time, an earlier one kept) or {'many'}.
_BLOCK = """
local since = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not since then
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return {'many'} end
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  since = ARGV[2]
end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return {'ok', since}
"""

# The blocked player's side. KEYS: blockers, friends, incoming, outgoing of the blocked; ARGV: the blocker, now.
_BLOCKED = """
redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return 1
"""


class Blocks:
    """Block, unblock and list, over the matches Redis (decode_responses)."""

    def __init__(self, redis: Any, most: int) -> None:
        self.redis = redis
        self.most = most
        self._block = Script(redis, _BLOCK)
        self._blocked = Script(redis, _BLOCKED)

    async def block(self, player: str, other: str) -> float:
        """Block another (existing) player, ending any friendship and request between the two; again is a no-op.
        Returns since when (SocialError NOT_YOURSELF, TOO_MANY_BLOCKS)."""
        if player == other:
            raise SocialError(Refusal.NOT_YOURSELF, "a player cannot block themselves")
        now = repr(time.time())
        reply = await self._block([keys.blocks(player), keys.friends(player), keys.incoming(player),
                                   keys.outgoing(player)], [other, now, self.most])
        if reply[0] == "many":
            raise SocialError(Refusal.TOO_MANY_BLOCKS, f"you block {self.most} players already: unblock one first")
        await self._blocked([keys.blockers(other), keys.friends(other), keys.incoming(other), keys.outgoing(other)],
                            [player, now])
        return float(reply[1])

    async def unblock(self, player: str, other: str) -> bool:
        """Lift a block (whether there was one). Nothing else comes back: a friendship it ended stays ended."""
        removed = bool(await self.redis.zrem(keys.blocks(player), other))
        await self.redis.zrem(keys.blockers(other), player)
        return removed

    async def listing(self, player: str) -> list[tuple[str, float]]:
        """The players the player blocks, most recent first, with since when."""
        rows = await self.redis.zrevrange(keys.blocks(player), 0, -1, withscores=True)
        return [(str(other), float(since)) for other, since in rows]


async def blocked_by(redis: Any, player: str, others: Iterable[str]) -> set[str]:
    """Which of the others block the player (one pipelined round trip)."""
    wanted = [other for other in dict.fromkeys(others) if other != player]
    if not wanted:
        return set()
    pipe = redis.pipeline(transaction=False)
    for other in wanted:
        pipe.zscore(keys.blocks(other), player)
    found = await pipe.execute()
    return {other for other, score in zip(wanted, found, strict=True) if score is not None}


async def apart(redis: Any, players: Iterable[str]) -> frozenset[frozenset[str]]:
    """The pairs among these players that must never sit at one table: one of the two blocks the other (one
    pipelined read of each player's blocks)."""
    wanted = list(dict.fromkeys(players))
    if len(wanted) < 2:
        return frozenset()
    pipe = redis.pipeline(transaction=False)
    for player in wanted:
        pipe.zrange(keys.blocks(player), 0, -1)
    present = set(wanted)
    pairs: set[frozenset[str]] = set()
    for player, blocked in zip(wanted, await pipe.execute(), strict=True):
        pairs.update(frozenset((player, str(other))) for other in blocked if other in present and other != player)
    return frozenset(pairs)
