"""A match's chat in Redis: each channel a run of numbered messages (the newest KEPT), written with the channel's
counter and a wake-up signal by one script in the match's slot.

A message names its sender by player id (None: a seat token's person), seat (None: a spectator) and the name shown
then; the text is kept as sent (chat/text.py checked it) or, for a preset, its id with its English text. The chat
lives as long as the match's keys: each write gives the chat's keys the time to live the match has (none while it is
live, the finished match's once it is over: chat/finisher.py sets it when the match ends, and copies the chat into
the archive's database, which a message written after the end joins too).

A deleted account's messages become "message removed" (erase): the text, the sender's id and name go, the seat and
time stay (chat/archive.py does the same to the archive's rows).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firebreak.chat import keys
from firebreak.matches import connections
from firebreak.matches import keys as match_keys

KEPT = 200            # messages a channel keeps in Redis (the oldest go first)
CHATTED_KEPT = 1000   # matches a player's chatted index keeps (the newest)
SIGNALS_KEPT = 1000   # wake-up entries the signal stream keeps (about)
PAGE = 100            # messages one read answers at most


class Channel(StrEnum):
    """Who reads a channel: every seated person (seats), or anyone who may read the match (spectators: seats read
    it too, but a spectator never reads the seats' channel)."""

    SEATS = "seats"
    SPECTATORS = "spectators"


@dataclass(frozen=True)
class Sender:
    """Who sends: a player (None: a seat token's person), its seat (None: a spectator), the name shown."""

    player: str | None
    seat: int | None
    name: str


@dataclass(frozen=True)
class Message:
    """A kept message: its number in its channel, when, who, what (text, or a preset's id and English text), and
    whether it was removed (its sender's account deleted: no text, id or name then)."""

    seq: int
    channel: Channel
    at: float
    player: str | None
    seat: int | None
    name: str
    text: str
    preset: str | None = None
    removed: bool = False

    @classmethod
    def from_json(cls, raw: str) -> Message:
        """Read a stored message."""
        data = json.loads(raw)
        return cls(int(data["seq"]), Channel(data["ch"]), float(data["at"]), data.get("p"), data.get("seat"),
                   data.get("n") or "", data.get("t") or "", data.get("pr"), bool(data.get("rm", False)))


# KEYS: messages, last, signal, the match's meta, its packed over form. ARGV: channel, the message's JSON without
# its closing brace and seq, KEPT, SIGNALS_KEPT. Answer {seq, status ('over' for a packed match)}, or {-1} when
# the match is gone. The chat's keys take the match's time to live (none: none).
_SEND = """
local status
local ttl
if redis.call('EXISTS', KEYS[4]) == 1 then
  status = redis.call('HGET', KEYS[4], 'status') or ''
  ttl = redis.call('PTTL', KEYS[4])
elseif redis.call('EXISTS', KEYS[5]) == 1 then
  status = 'over'
  ttl = redis.call('PTTL', KEYS[5])
else
  return {-1}
end
local seq = redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('HSET', KEYS[1], ARGV[1] .. ':' .. seq, ARGV[2] .. ',"seq":' .. seq .. '}')
local old = seq - tonumber(ARGV[3])
if old > 0 then redis.call('HDEL', KEYS[1], ARGV[1] .. ':' .. old) end
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[4], '*', 'c', ARGV[1], 's', seq)
for i = 1, 3 do
  if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
end
return {seq, status}
"""

# KEYS: messages. ARGV: field, the value read, its replacement, ... Replace each field still holding the value read
# (a message trimmed meanwhile stays gone); answer how many were replaced.
_REPLACE = """
local n = 0
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
    n = n + 1
  end
end
return n
"""


class ChatStore:
    """The chats of matches, over the matches Redis (a decode_responses client, plain or Cluster)."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._send = connections.Script(redis, _SEND)
        self._replace = connections.Script(redis, _REPLACE)

    async def send(self, match_id: str, channel: Channel, sender: Sender, text: str,
                   preset: str | None = None) -> tuple[Message, str] | None:
        """Keep a message (its text checked already); the message and the match's status then ("over" for a
        finished match), or None when the match is gone."""
        at = time.time()
        if sender.player is not None and sender.seat is None:  # indexed first: a crash leaves no message unindexed
            pipe = self.redis.pipeline(transaction=False)
            pipe.zadd(keys.chatted(sender.player), {match_id: at})
            pipe.zremrangebyrank(keys.chatted(sender.player), 0, -CHATTED_KEPT - 1)
            await pipe.execute()
        body = json.dumps({"ch": channel.value, "at": at, "p": sender.player, "seat": sender.seat, "n": sender.name,
                           "t": text, "pr": preset}, ensure_ascii=False, separators=(",", ":"))[:-1]
        reply = await self._send(keys=[keys.messages(match_id), keys.last(match_id), keys.signal(match_id),
                                       match_keys.meta(match_id), match_keys.archive(match_id)],
                                 args=[channel.value, body, KEPT, SIGNALS_KEPT])
        seq = int(reply[0])
        if seq < 0:
            return None
        return Message(seq, channel, at, sender.player, sender.seat, sender.name, text, preset), str(reply[1])

    async def newest(self, match_id: str) -> dict[Channel, int]:
        """Each channel's newest seq (0: none yet)."""
        raw = await self.redis.hgetall(keys.last(match_id))
        return {channel: int(raw.get(channel.value, 0)) for channel in Channel}

    async def page(self, match_id: str, channel: Channel, after: int, limit: int = PAGE,
                   newest: int | None = None) -> list[Message]:
        """The kept messages of a channel after seq `after`, oldest first, at most `limit` (those Redis no longer
        keeps are skipped: a reader far behind gets the oldest kept); newest: the channel's newest seq when the
        caller has read it already."""
        if newest is None:
            newest = (await self.newest(match_id))[channel]
        start = max(after, newest - KEPT) + 1
        seqs = list(range(start, min(newest, start + max(1, min(limit, PAGE)) - 1) + 1))
        return await self.many(match_id, channel, seqs)

    async def many(self, match_id: str, channel: Channel, seqs: list[int]) -> list[Message]:
        """The kept messages of these seqs (those gone left out), in the order given."""
        if not seqs:
            return []
        raw = await self.redis.hmget(keys.messages(match_id), [f"{channel.value}:{seq}" for seq in seqs])
        return [Message.from_json(one) for one in raw if one is not None]

    async def everything(self, match_id: str) -> list[Message]:
        """Every kept message of both channels, by channel then seq (for the archive)."""
        raw = await self.redis.hvals(keys.messages(match_id))
        return sorted((Message.from_json(one) for one in raw), key=lambda m: (m.channel.value, m.seq))

    async def erase(self, match_id: str, player: str, name: str) -> int:
        """Make the player's messages in this match "removed", shown under `name` (its account was deleted; a
        client shows "message removed"); return how many."""
        changes: list[str] = []
        for field, raw in (await self.redis.hgetall(keys.messages(match_id))).items():
            data = json.loads(raw)
            if data.get("p") == player:  # everything but the seq, the seat and the time goes
                data.update({"p": None, "n": name, "t": "", "pr": None, "rm": True})
                changes += [field, raw, json.dumps(data, ensure_ascii=False, separators=(",", ":"))]
        if not changes:
            return 0
        return int(await self._replace(keys=[keys.messages(match_id)], args=changes))

    async def chatted(self, player: str) -> list[str]:
        """The matches the player wrote in as a spectator (the newest CHATTED_KEPT)."""
        return [str(m) for m in await self.redis.zrange(keys.chatted(player), 0, -1)]

    async def expire_like(self, match_id: str, seconds: int) -> None:
        """Give the chat's keys a time to live (the finished match's)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in keys.every(match_id):
            pipe.expire(key, seconds)
        await pipe.execute()
