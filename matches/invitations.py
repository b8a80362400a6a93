"""Invitations, the match's side: which players the host invited to a waiting match (keys.invited, in the match's
slot), and who may join a private match. The players' own lists of invitations are the players layer's
(players/invitations.py), kept after this, the truth."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from firebreak.matches import connections, keys
from firebreak.matches.store import MatchStore

MAX_PER_MATCH = 100

# Invite players to a waiting match. KEYS: meta, invited; ARGV: the record (JSON), ttl, most invitations kept, then
# the player ids. Returns {0, 'started'} when the match is not waiting, {0, 'full'} when it would hold too many,
# {0, 'invited', id} for a player invited already, else {1} (all or nothing).
_INVITE = """
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return {0, 'started'} end
if redis.call('HLEN', KEYS[2]) + #ARGV - 3 > tonumber(ARGV[3]) then return {0, 'full'} end
for i = 4, #ARGV do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 then return {0, 'invited', ARGV[i]} end
end
for i = 4, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], ARGV[1]) end
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]))
return {1}
"""


@dataclass(frozen=True)
class Invitation:
    """A player's invitation to a match: when, and by which player (None: by the host token)."""

    match_id: str
    player: str
    at: float
    by: str | None
    by_name: str | None


class Invitations:
    """The invited hashes of matches."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        self._invite = connections.Script(store.redis, _INVITE)

    async def invite(self, match_id: str, players: list[str], by: str | None, by_name: str | None,
                     at: float | None = None) -> tuple[str, str | None]:
        """Invite players, all or none: ("ok", None), ("started", None), ("full", None) or ("invited", player)."""
        record = json.dumps({"at": time.time() if at is None else at, "by": by, "name": by_name})
        reply = await self._invite(keys=[keys.meta(match_id), keys.invited(match_id)],
                                   args=[record, self.store.settings.waiting_ttl, MAX_PER_MATCH, *players])
        if int(reply[0]):
            return "ok", None
        return str(reply[1]), (str(reply[2]) if len(reply) > 2 else None)

    async def of(self, match_id: str, player: str) -> Invitation | None:
        """The player's invitation to the match, or None."""
        raw = await self.store.redis.hget(keys.invited(match_id), player)
        return None if raw is None else _invitation(match_id, player, raw)

    async def several(self, pairs: list[tuple[str, str]]) -> list[Invitation | None]:
        """The invitations of several (match, player) pairs, in one pipelined round trip."""
        if not pairs:
            return []
        pipe = self.store.redis.pipeline(transaction=False)
        for match_id, player in pairs:
            pipe.hget(keys.invited(match_id), player)
        raws: list[Any] = await pipe.execute()
        return [None if raw is None else _invitation(m, p, raw) for (m, p), raw in zip(pairs, raws, strict=True)]

    async def remove(self, match_id: str, player: str) -> bool:
        """Withdraw a player's invitation (answered); return whether there was one."""
        return bool(await self.store.redis.hdel(keys.invited(match_id), player))


def _invitation(match_id: str, player: str, raw: str) -> Invitation:
    data = json.loads(raw)
    return Invitation(match_id, player, float(data["at"]), data.get("by"), data.get("name"))
