"""Deleting a player's account (GDPR Art. 17; Apple's App Review Guideline 5.1.1(v)): the players layer's part.

Asked with a credential of a recent sign-in (a session family begun, or an operator's token issued, at most
FIREBREAK_DELETION_REAUTH_SECONDS ago; a personal access token never may), the deletion happens in two stages:

1. At once, in the request: the deletion's outbox entry is written (keys.DELETIONS_PENDING, on the queue Redis),
   then one script over the player's slot seals the account: it keeps a deletion mark (keys.deleted: what the rest
   needs, the handle and the lookups to free) and deletes the player's hash, every session family (with its used
   refresh secrets), every personal access token and their indexes. Every credential of the player fails from
   then on (each check reads the player's hash), and no sign-in may create a player of that id again (the sign-in
   script reads the mark). Then the lookups that lead to it (the device, the operator's identity, the handle) are
   freed, each only if it still names the player: the same device then signs in as a new guest.
2. Then the rest, by a worker (workers/account_deletion.py): live seats resign, waiting seats leave, seeks are
   cancelled, invitations dropped, push registrations and events deleted, ratings taken off every leaderboard, and
   the seats of finished matches shown as a deleted player (matches/erasure.py, archive/erasure.py). Each part is
   idempotent; the outbox entry is dropped only once all are done, so a kill -9 anywhere leaves the entry for the
   reconciler, which hands it to a new job after stall_seconds.

The mark outlives the rest: `finish` trims it to the time of the deletion alone (no handle, no device hash, no
identity), which is all it must hold to keep the id from coming back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import orjson

from firebreak.matches import keys as match_keys
from firebreak.matches.connections import Script
from firebreak.players import handles, keys
from firebreak.players.directory import FREE_HANDLE, ID, UNCLAIM, Directory
from firebreak.players.errors import Reauthenticate
from firebreak.players.records import Identity, Principal, Via

DELETED_NAME = "Deleted player"  # the name a deleted player's seats show in other players' matches

# KEYS: the player, its deletion mark, its family index, its token index, its handle changes. ARGV: now (epoch
# seconds, as text). Seal the account (see the module's docstring): answer {'sealed', mark}; {'sealed', mark} again
# for an account sealed before (nothing changes); {'unknown'} when there is neither a player nor a mark.
_SEAL = """
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then
  local mark = redis.call('GET', KEYS[2])
  if mark then return {'sealed', mark} end
  return {'unknown'}
end
local player = {}
for i = 1, #fields, 2 do player[fields[i]] = fields[i + 1] end
local mark = cjson.encode({at = ARGV[1], handle = player['handle'] or '', device = player['device'] or '',
                           links = player['links'] or '[]'})
redis.call('SET', KEYS[2], mark)
for _, family in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  redis.call('DEL', KEYS[1] .. ':family:' .. family, KEYS[1] .. ':family:' .. family .. ':used')
end
for _, token in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
  redis.call('DEL', KEYS[1] .. ':pat:' .. token)
end
redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5])
return {'sealed', mark}
"""

# KEYS: the deletion mark. Trim it to {at} (the deletion done: nothing but its time is kept).
_TRIM = """
local mark = redis.call('GET', KEYS[1])
if not mark then return 0 end
redis.call('SET', KEYS[1], cjson.encode({at = cjson.decode(mark)['at']}))
return 1
"""


@dataclass(frozen=True)
class Mark:
    """A deleted account's mark: when it was deleted, and while the deletion is under way the handle it held,
    its device's hash and its linked identities (to free their lookups)."""

    at: float
    handle: str
    device: str
    identities: tuple[Identity, ...]

    @classmethod
    def from_json(cls, raw: str) -> Mark:
        """Read a stored mark."""
        data = orjson.loads(raw)
        links = orjson.loads(data.get("links") or "[]")
        return cls(float(data["at"]), data.get("handle") or "", data.get("device") or "",
                   tuple(Identity(issuer, subject) for issuer, subject in links))


class Deletions:
    """The players layer's part of deleting accounts, over the matches Redis (players' keys) and the queue Redis
    (the outbox)."""

    def __init__(self, redis: Any, queue: Any, directory: Directory, reauth_seconds: float) -> None:
        self.redis = redis
        self.queue = queue
        self.directory = directory
        self.reauth_seconds = reauth_seconds
        self._seal = Script(redis, _SEAL)
        self._trim = Script(redis, _TRIM)
        self._unclaim = Script(redis, UNCLAIM)
        self._free_handle = Script(redis, FREE_HANDLE)

    async def signed_in_at(self, principal: Principal) -> float | None:
        """When the person behind a credential last proved who they are: the session family's start, or an
        operator's token's auth_time (else iat); None for a personal access token or when it is not known."""
        if principal.via is Via.SESSION and principal.session_id is not None:
            began = await self.redis.hget(keys.family(principal.player.id, principal.session_id), "began")
            return None if began is None else float(began)
        if principal.via is Via.EXTERNAL:
            return principal.issued
        return None

    async def check_recent(self, principal: Principal, now: float | None = None) -> None:
        """Raise Reauthenticate unless the credential comes from a sign-in within reauth_seconds."""
        now = time.time() if now is None else now
        since = await self.signed_in_at(principal)
        if since is None or now - since > self.reauth_seconds:
            if principal.via is Via.ACCESS_TOKEN:
                raise Reauthenticate("a personal access token cannot delete an account: sign in and ask again")
            raise Reauthenticate(f"deleting the account needs a sign-in within the last "
                                 f"{self.reauth_seconds:g} seconds: sign in again and ask again")

    async def request(self, principal: Principal, now: float | None = None) -> float:
        """Delete the principal's account (the first stage: see the module's docstring) after checking that its
        sign-in is recent (raise Reauthenticate); return when the deletion was asked. The caller then queues the
        job that does the rest (the reconciler does it anyway after stall_seconds)."""
        now = time.time() if now is None else now
        await self.check_recent(principal, now)
        player_id = principal.player.id
        await self.queue.zadd(match_keys.DELETIONS_PENDING, {player_id: now}, nx=True)
        mark = await self.seal(player_id, now)
        if mark is not None:
            await self.free_lookups(player_id, mark)
        return now

    async def seal(self, player_id: str, now: float | None = None) -> Mark | None:
        """Seal the account (idempotent); its mark, or None when there is no such player and no mark."""
        if not ID.match(player_id):
            return None
        now = time.time() if now is None else now
        reply = await self._seal(keys=[keys.player(player_id), keys.deleted(player_id), keys.families(player_id),
                                       keys.tokens(player_id), keys.handle_changes(player_id)], args=[repr(now)])
        return Mark.from_json(reply[1]) if reply[0] == "sealed" else None

    async def mark(self, player_id: str) -> Mark | None:
        """The deletion mark of a player, or None (never deleted)."""
        raw = await self.redis.get(keys.deleted(player_id)) if ID.match(player_id) else None
        return None if raw is None else Mark.from_json(raw)

    async def free_lookups(self, player_id: str, mark: Mark) -> None:
        """Free the device, identity and handle lookups that still lead to the deleted player (idempotent)."""
        if mark.device:
            await self._unclaim(keys=[keys.device(mark.device)], args=[player_id])
        for identity in mark.identities:
            await self._unclaim(keys=[keys.external(identity.issuer, identity.subject)], args=[player_id])
            self.directory.forget_identity(identity)
        if mark.handle:
            await self._free_handle(keys=[keys.handle(handles.key(mark.handle))], args=[player_id])

    async def finish(self, player_id: str) -> None:
        """The players layer's last part: drop the player's invitations index (the invitations themselves are
        dropped by then) and trim the mark to the deletion's time."""
        await self.redis.delete(keys.invitations(player_id))
        await self._trim(keys=[keys.deleted(player_id)], args=[])

    async def is_deleted(self, player_id: str) -> bool:
        """Whether the player's account was deleted."""
        return bool(ID.match(player_id)) and bool(await self.redis.exists(keys.deleted(player_id)))
