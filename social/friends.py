"""Friends, mutual: a player asks another (requestFriend), who accepts or declines; the asker may cancel; either may
remove the friendship. Each player keeps their own side (keys.friends, keys.incoming, keys.outgoing) in their own
slot, so every step is two small scripts, one per side, in a fixed order:

- a request writes the asker's side first (their caps: friends + pending requests sent <= friends_max, pending
  sent <= requests_max), then the other's (refused, and the asker's entry taken back, when the other blocks the
  asker or has as many requests waiting or friends as allowed: the same NOT_ACCEPTED either way);
- an acceptance writes the accepter's side first, then the asker's (whose slot was kept by the request).

A crash between the two leaves a one-sided entry (a friend, or a request sent, that the other side does not hold),
which the listing of its holder drops once older than GRACE seconds (younger ones may be a step still under way).
Events on the players' feeds (matches/feed.py, hence the webhooks and pushes): friendRequested to the asked,
friendAccepted to the asker; a decline, a cancel or a removal tells nobody."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firebreak.matches import feed
from firebreak.matches.connections import Script
from firebreak.matches.feed import FeedType
from firebreak.matches.refusals import Refusal
from firebreak.matches.store import MatchStore
from firebreak.players.records import Player
from firebreak.social import keys
from firebreak.social.config import SocialSettings
from firebreak.social.errors import SocialError, not_accepted

GRACE = 60.0  # seconds a one-sided entry is left alone by listings (the other side may be being written)


class FriendStatus(StrEnum):
    """Where the caller stands with another player."""

    NONE = "none"            # neither friends nor a pending request
    REQUESTED = "requested"  # the caller asked; the other has not answered
    FRIENDS = "friends"


# The asker's side. KEYS: outgoing, friends, blocks, incoming of the asker; ARGV: the asked, now, most requests,
# most friends. Returns 'ok', 'pending' (asked already), 'friends', 'incoming' (the other asked first), 'blocked'
# (the asker blocks the other), 'requests' or 'friends_full'.
_ASK = """
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 'blocked' end
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 'friends' end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'pending' end
if redis.call('ZSCORE', KEYS[4], ARGV[1]) then return 'incoming' end
local sent = redis.call('ZCARD', KEYS[1])
if sent >= tonumber(ARGV[3]) then return 'requests' end
if sent + redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 'friends_full' end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 'ok'
"""

# The asked player's side. KEYS: incoming, friends, outgoing, blocks of the asked; ARGV: the asker, now, most
# requests, most friends. Returns 'ok', 'pending', 'friends' or 'refused' (blocks the asker, or full).
_ASKED = """
if redis.call('ZSCORE', KEYS[4], ARGV[1]) then return 'refused' end
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 'friends' end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'pending' end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 'refused' end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 'refused' end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 'ok'
"""

# The accepter's side. KEYS: incoming, friends, outgoing of the accepter; ARGV: the asker, now, most friends.
# Returns 'ok', 'none' (no such request) or 'full'.
_ACCEPT = """
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'none' end
if redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 'ok'
"""

# The asker's side of an acceptance. KEYS: outgoing, friends, blocks, incoming of the asker; ARGV: the accepter,
# now. Returns 'ok', or 'blocked' (the asker blocked the accepter meanwhile: nothing written).
_ACCEPTED = """
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 'blocked' end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 'ok'
"""


@dataclass(frozen=True)
class Listed:
    """A friend or a pending request as its holder lists it: the other player's id and since when."""

    player: str
    since: float


class Friends:
    """Friendship steps over the matches Redis (the store's, whose feed they write to)."""

    def __init__(self, store: MatchStore, settings: SocialSettings) -> None:
        self.store = store
        self.redis: Any = store.redis
        self.settings = settings
        self._ask = Script(self.redis, _ASK)
        self._asked = Script(self.redis, _ASKED)
        self._accept = Script(self.redis, _ACCEPT)
        self._accepted = Script(self.redis, _ACCEPTED)

    async def request(self, asker: Player, asked: Player) -> FriendStatus:
        """Ask another player to be friends: REQUESTED, or FRIENDS when they had asked the asker already (this
        accepts their request). Asking again is a no-op. SocialError: NOT_YOURSELF, PLAYER_BLOCKED (the asker
        blocks them), ALREADY_FRIENDS, TOO_MANY_FRIEND_REQUESTS, TOO_MANY_FRIENDS, NOT_ACCEPTED (the other side
        cannot take it, whatever the reason)."""
        if asker.id == asked.id:
            raise SocialError(Refusal.NOT_YOURSELF, "a player cannot befriend themselves")
        now = repr(time.time())
        mine = await self._ask([keys.outgoing(asker.id), keys.friends(asker.id), keys.blocks(asker.id),
                                keys.incoming(asker.id)],
                               [asked.id, now, self.settings.requests_max, self.settings.friends_max])
        if mine == "blocked":
            raise SocialError(Refusal.PLAYER_BLOCKED, "you block this player: unblock them first")
        if mine == "friends":
            raise SocialError(Refusal.ALREADY_FRIENDS, "you are friends already")
        if mine == "pending":
            return FriendStatus.REQUESTED
        if mine == "incoming":
            return await self.accept(asker, asked)
        if mine == "requests":
            raise SocialError(Refusal.TOO_MANY_FRIEND_REQUESTS,
                              f"you have {self.settings.requests_max} friend requests waiting for an answer: cancel "
                              "one first")
        if mine == "friends_full":
            raise SocialError(Refusal.TOO_MANY_FRIENDS,
                              f"you have {self.settings.friends_max} friends (with the requests you sent): remove "
                              "one first")
        theirs = await self._asked([keys.incoming(asked.id), keys.friends(asked.id), keys.outgoing(asked.id),
                                    keys.blocks(asked.id)],
                                   [asker.id, now, self.settings.requests_max, self.settings.friends_max])
        if theirs == "refused":
            await self.redis.zrem(keys.outgoing(asker.id), asked.id)
            raise not_accepted("a friend request")
        if theirs == "friends":  # their side kept a friendship ours lost (a crash): mend ours
            await self._accepted([keys.outgoing(asker.id), keys.friends(asker.id), keys.blocks(asker.id),
                                  keys.incoming(asker.id)], [asked.id, now])
            return FriendStatus.FRIENDS
        if theirs == "ok":
            await feed.emit(self.store, asked.id, FeedType.FRIEND_REQUESTED,
                            {"by": asker.id, "handle": asker.handle}, f"friendRequested:{asker.id}:{now}")
        return FriendStatus.REQUESTED

    async def accept(self, accepter: Player, asker: Player) -> FriendStatus:
        """Accept another player's request: FRIENDS (SocialError FRIEND_REQUEST_NOT_FOUND, TOO_MANY_FRIENDS)."""
        now = repr(time.time())
        mine = await self._accept([keys.incoming(accepter.id), keys.friends(accepter.id), keys.outgoing(accepter.id)],
                                  [asker.id, now, self.settings.friends_max])
        if mine == "none":
            raise SocialError(Refusal.FRIEND_REQUEST_NOT_FOUND, "this player has no friend request waiting for you")
        if mine == "full":
            raise SocialError(Refusal.TOO_MANY_FRIENDS,
                              f"you have {self.settings.friends_max} friends (with the requests you sent): remove "
                              "one first")
        theirs = await self._accepted([keys.outgoing(asker.id), keys.friends(asker.id), keys.blocks(asker.id),
                                       keys.incoming(asker.id)], [accepter.id, now])
        if theirs == "blocked":
            await self.redis.zrem(keys.friends(accepter.id), asker.id)
            raise SocialError(Refusal.FRIEND_REQUEST_NOT_FOUND, "this player has no friend request waiting for you")
        await feed.emit(self.store, asker.id, FeedType.FRIEND_ACCEPTED,
                        {"by": accepter.id, "handle": accepter.handle}, f"friendAccepted:{accepter.id}:{now}")
        return FriendStatus.FRIENDS

    async def decline(self, decliner: str, asker: str) -> FriendStatus:
        """Decline another player's request (nobody is told): NONE (SocialError FRIEND_REQUEST_NOT_FOUND)."""
        if not await self.redis.zrem(keys.incoming(decliner), asker):
            raise SocialError(Refusal.FRIEND_REQUEST_NOT_FOUND, "this player has no friend request waiting for you")
        await self.redis.zrem(keys.outgoing(asker), decliner)
        return FriendStatus.NONE

    async def cancel(self, asker: str, asked: str) -> FriendStatus:
        """Take back a request the player sent: NONE (SocialError FRIEND_REQUEST_NOT_FOUND)."""
        if not await self.redis.zrem(keys.outgoing(asker), asked):
            raise SocialError(Refusal.FRIEND_REQUEST_NOT_FOUND, "you have no friend request waiting on this player")
        await self.redis.zrem(keys.incoming(asked), asker)
        return FriendStatus.NONE

    async def remove(self, player: str, friend: str) -> FriendStatus:
        """End a friendship, both sides (nobody is told): NONE (SocialError FRIEND_NOT_FOUND)."""
        if not await self.redis.zrem(keys.friends(player), friend):
            raise SocialError(Refusal.FRIEND_NOT_FOUND, "this player is not your friend")
        await self.redis.zrem(keys.friends(friend), player)
        return FriendStatus.NONE

    async def friends(self, player: str) -> list[Listed]:
        """The player's friends, oldest friendship first (one-sided entries past GRACE are dropped on the way)."""
        return await self._mutual(player, keys.friends, keys.friends)

    async def incoming(self, player: str) -> list[Listed]:
        """The requests waiting for the player's answer, oldest first."""
        return await self._mutual(player, keys.incoming, keys.outgoing)

    async def outgoing(self, player: str) -> list[Listed]:
        """The requests the player sent that wait for an answer, oldest first."""
        return await self._mutual(player, keys.outgoing, keys.incoming)

    async def _mutual(self, player: str, mine: Any, theirs: Any) -> list[Listed]:
        rows = await self.redis.zrange(mine(player), 0, -1, withscores=True)
        if not rows:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for other, _since in rows:
            pipe.zscore(theirs(other), player)
        held = await pipe.execute()
        now = time.time()
        out: list[Listed] = []
        stale: list[str] = []
        for (other, since), their_side in zip(rows, held, strict=True):
            if their_side is None and now - float(since) > GRACE:
                stale.append(str(other))
            elif their_side is not None:
                out.append(Listed(str(other), float(since)))
        if stale:
            await self.redis.zrem(mine(player), *stale)
        return out


async def status(redis: Any, player: str, other: str) -> FriendStatus:
    """Where the player stands with another (their own side only)."""
    pipe = redis.pipeline(transaction=False)
    pipe.zscore(keys.friends(player), other)
    pipe.zscore(keys.outgoing(player), other)
    friend, asked = await pipe.execute()
    if friend is not None:
        return FriendStatus.FRIENDS
    return FriendStatus.REQUESTED if asked is not None else FriendStatus.NONE
