"""Creating and finding players: a guest by its device, an operator's account by (issuer, subject); renaming a
player; its handle (assigned at sign-in, or on the first read of a player made before handles, and changed at most
so often a day); linking a guest to an external identity (it keeps its id, and so its matches).

A handle is held by one key per uniqueness key (players/handles.py:key), set only where absent (atomic, whatever
number of API processes), then written into the player's hash; a rename takes the new key first, then moves the
player's hash from the old handle to the new one, then frees the old key. On a Cluster the two live in different
slots, so a crash in between can leave a key whose player shows another handle: after HANDLE_GRACE seconds another
player may take it over."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

import orjson

from firebreak.matches.connections import Script
from firebreak.matches.store import hash_token, pairs
from firebreak.players import handle_index, handles, keys
from firebreak.players.errors import (
    AlreadyLinked,
    BadDeviceId,
    BadHandle,
    BadName,
    HandleChangesLimited,
    HandleTaken,
    IdentityTaken,
    PlayerNotFound,
)
from firebreak.players.records import Identity, Player, PlayerKind

NAME_MAX = 40
DEVICE_MIN, DEVICE_MAX = 16, 200
ID = re.compile(r"[0-9a-f]{16}\Z")  # a player's, a session family's or a token's id
DELETED_RETRIES = 3  # fresh ids a sign-in tries when the id its lookup held was of a deleted account
REMEMBERED = 10_000  # external identities whose player id a process keeps in memory (they never change)
HANDLE_GRACE = 60.0  # seconds a handle's key is held for a player that does not show it (a rename under way)
HANDLE_ATTEMPTS = 40  # handles tried when assigning one (4 random digits, more as they collide)
DAY = 24 * 3600.0

# KEYS[1]: a lookup key; ARGV[1]: a candidate value. Set it if absent; answer the value it holds.
_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
"""

# KEYS[1]: a lookup key; ARGV[1]: a value. Delete the key if it holds that value.
UNCLAIM = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS[1]: a handle's key; ARGV: the value to hold ("<player id> <since>"), the player id, a stale value it may
# replace ('' for none). Keep the player's own hold, else set it if absent or stale; answer the value held.
_TAKE_HANDLE = """
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, 17) == ARGV[2] .. ' ' then return held end
if held and held ~= ARGV[3] then return held end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
"""

# KEYS[1]: a handle's key; ARGV[1]: a player id. Free the key if that player holds it.
FREE_HANDLE = """
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, 17) == ARGV[1] .. ' ' then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: a player, its handle changes. ARGV: the handle it should hold now, the new one, now, the changes a day
# allowed (0: an assignment, not counted), the window (s). Answer {'ok', fields...}, {'moved'} (it holds another
# handle now), {'limited', oldest change} or {'unknown'}.
_SET_HANDLE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'unknown'} end
local old = redis.call('HGET', KEYS[1], 'handle') or ''
if old ~= ARGV[1] then return {'moved'} end
local limit = tonumber(ARGV[4])
if limit > 0 then
  local now, window = tonumber(ARGV[3]), tonumber(ARGV[5])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
  if redis.call('ZCARD', KEYS[2]) >= limit then
    return {'limited', redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2]}
  end
  redis.call('ZADD', KEYS[2], now, ARGV[2] .. ' ' .. ARGV[3])
  redis.call('EXPIRE', KEYS[2], math.ceil(window))
end
redis.call('HSET', KEYS[1], 'handle', ARGV[2])
local fields = redis.call('HGETALL', KEYS[1])
table.insert(fields, 1, 'ok')
return fields
"""

# KEYS: a player, its deletion mark; ARGV: name, kind, created, links, device. Create the player unless it exists;
# answer {1 if created else 0, its fields...}, or {-1} when that player's account was deleted (its id is never
# used again: players/deletion.py).
_ENSURE = """
if redis.call('EXISTS', KEYS[2]) == 1 then return {-1} end
local created = 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'name', ARGV[1], 'kind', ARGV[2], 'created', ARGV[3], 'ver', '0',
             'links', ARGV[4], 'device', ARGV[5])
  created = 1
end
local fields = redis.call('HGETALL', KEYS[1])
table.insert(fields, 1, created)
return fields
"""

# KEYS[1]: a player; ARGV[1]: a new name. Answer its fields after renaming, or {} when there is no such player.
_RENAME = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('HSET', KEYS[1], 'name', ARGV[1])
return redis.call('HGETALL', KEYS[1])
"""

# KEYS[1]: a player; ARGV[1]: its saved locale ("" forgets it). Answer its fields ({} for no such player).
_SET_LOCALE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
if ARGV[1] == '' then redis.call('HDEL', KEYS[1], 'locale') else redis.call('HSET', KEYS[1], 'locale', ARGV[1]) end
return redis.call('HGETALL', KEYS[1])
"""

# KEYS[1]: a player; ARGV[1]: its links with one identity (JSON). Link it unless it has another: answer {'ok',
# fields...}, {'other'} or {'unknown'}.
_LINK = """
local links = redis.call('HGET', KEYS[1], 'links')
if not links then return {'unknown'} end
if links ~= '[]' and links ~= ARGV[1] then return {'other'} end
redis.call('HSET', KEYS[1], 'links', ARGV[1], 'kind', 'external')
local fields = redis.call('HGETALL', KEYS[1])
table.insert(fields, 1, 'ok')
return fields
"""


def clean_name(name: str) -> str:
    """The name trimmed; raise BadName unless it is 1 to 40 printable characters."""
    trimmed = name.strip()
    if not trimmed or len(trimmed) > NAME_MAX or not trimmed.isprintable():
        raise BadName(f"a name must be 1 to {NAME_MAX} printable characters")
    return trimmed


def device_hash(device_id: str) -> str:
    """The only form in which a device id (a secret of the device) is stored; raise BadDeviceId for a bad one."""
    if not DEVICE_MIN <= len(device_id) <= DEVICE_MAX or not device_id.isprintable():
        raise BadDeviceId(f"a device id must be {DEVICE_MIN} to {DEVICE_MAX} printable characters")
    return hash_token(device_id)


def new_id() -> str:
    """A fresh random id (players, session families, tokens)."""
    return secrets.token_hex(8)


def _links(identity: Identity | None) -> str:
    return orjson.dumps([[identity.issuer, identity.subject]] if identity else []).decode()


class Directory:
    """The players kept in Redis (a decode_responses client of the matches Redis, plain or Cluster)."""

    def __init__(self, redis: Any, handle_changes_per_day: int = 3) -> None:
        self.redis = redis
        self.handle_changes_per_day = handle_changes_per_day
        self.draw = secrets.randbelow  # the random numbers of assigned handles (a test may fix them)
        self._take_handle = Script(redis, _TAKE_HANDLE)
        self._free_handle = Script(redis, FREE_HANDLE)
        self._set_handle = Script(redis, _SET_HANDLE)
        self._claim = Script(redis, _CLAIM)
        self._unclaim = Script(redis, UNCLAIM)
        self._ensure = Script(redis, _ENSURE)
        self._rename = Script(redis, _RENAME)
        self._set_locale = Script(redis, _SET_LOCALE)
        self._link = Script(redis, _LINK)
        self._known: dict[Identity, str] = {}  # external identity -> player id, as claimed in Redis

    def forget_identity(self, identity: Identity) -> None:
        """Drop this process's memory of an identity's player (its account was deleted)."""
        self._known.pop(identity, None)

    async def claim(self, key: str, candidate: str) -> str:
        """Set a lookup key to candidate unless it holds a value already; return the value it holds."""
        return str(await self._claim([key], [candidate]))

    async def guest(self, name: str, device_id: str) -> tuple[Player, bool]:
        """The guest player of a device, created (named so) on the device's first sign-in; and whether it was."""
        clean = clean_name(name)
        device = device_hash(device_id)
        # The device is claimed first, then its player created if missing: a crash in between leaves a claim whose
        # player the next sign-in creates, never a player no device leads to. A claim still naming a deleted
        # account (a sign-in racing the deletion, which frees the claim) is freed here and the device claimed anew.
        lookup = keys.device(device)
        for _attempt in range(DELETED_RETRIES):
            player_id = await self.claim(lookup, new_id())
            found = await self._ensure_player(player_id, clean, PlayerKind.GUEST, None, device)
            if found is not None:
                return found
            await self._unclaim([lookup], [player_id])
        raise PlayerNotFound("no such player")

    async def external(self, identity: Identity, name: str) -> tuple[Player, bool]:
        """The player of an external identity, created (named so) on first sight; and whether it was."""
        lookup = keys.external(identity.issuer, identity.subject)
        for _attempt in range(DELETED_RETRIES):
            player_id = self._known.get(identity)
            if player_id is None:
                player_id = await self.claim(lookup, new_id())
                if len(self._known) >= REMEMBERED:
                    self._known.clear()
                self._known[identity] = player_id
            found = await self._ensure_player(player_id, name, PlayerKind.EXTERNAL, identity, "")
            if found is not None:
                return found
            self._known.pop(identity, None)  # the account was deleted: the identity starts a new player
            await self._unclaim([lookup], [player_id])
        raise PlayerNotFound("no such player")

    async def _ensure_player(self, player_id: str, name: str, kind: PlayerKind, identity: Identity | None,
                             device: str) -> tuple[Player, bool] | None:
        """The player of that id, created unless it exists, and whether it was; None when its account was
        deleted."""
        reply = await self._ensure([keys.player(player_id), keys.deleted(player_id)],
                                   [name, kind.value, repr(time.time()), _links(identity), device])
        if int(reply[0]) == -1:
            return None
        player = await self.with_handle(Player.from_fields(player_id, pairs(reply[1:])))
        return player, bool(int(reply[0]))

    async def get(self, player_id: str) -> Player | None:
        """The player with that id (given a handle if it has none yet), or None."""
        if not ID.match(player_id):
            return None
        fields = await self.redis.hgetall(keys.player(player_id))
        return await self.with_handle(Player.from_fields(player_id, fields)) if fields else None

    async def by_handle(self, handle: str) -> Player | None:
        """The player holding a handle (compared by its key), or None."""
        wanted = handles.key(handles.problem(handle)[0])
        held = await self.redis.get(keys.handle(wanted))
        player = None if held is None else await self.get(held.partition(" ")[0])
        return player if player is not None and handles.key(player.handle) == wanted else None

    async def with_handle(self, player: Player) -> Player:
        """The player, given a handle made of its display name (e.g. ann-4821) if it has none yet: a player made
        before handles existed gets one on its first read (raise PlayerNotFound)."""
        if player.handle:
            return player
        for attempt in range(HANDLE_ATTEMPTS):
            digits = 4 + attempt // 4
            number = self.draw(9 * 10 ** (digits - 1)) + 10 ** (digits - 1)
            handle = handles.candidate(player.name, number, digits)
            if not await self._take(player.id, handle):
                continue
            reply = await self._set_handle([keys.player(player.id), keys.handle_changes(player.id)],
                                           ["", handle, repr(time.time()), 0, DAY])
            if reply[0] == "ok":
                await handle_index.put(self.redis, player.id, "", handle)
                return Player.from_fields(player.id, pairs(reply[1:]))
            await self._free(player.id, handle)
            if reply[0] == "moved":  # given one meanwhile (another read of the same player)
                fields = await self.redis.hgetall(keys.player(player.id))
                if fields:
                    return Player.from_fields(player.id, fields)
            raise PlayerNotFound("no such player")
        raise HandleTaken("no free handle was found for this name")

    async def change_handle(self, player_id: str, handle: str) -> Player:
        """Give a player the handle asked for, freeing its old one (raise BadHandle, HandleTaken,
        HandleChangesLimited, PlayerNotFound)."""
        text, reason = handles.problem(handle)
        if reason is not None:
            raise BadHandle(reason)
        player = await self.get(player_id)
        if player is None:
            raise PlayerNotFound("no such player")
        if player.handle == text:
            return player
        same_key = handles.key(player.handle) == handles.key(text)
        if not await self._take(player.id, text):
            raise HandleTaken("another player holds this handle")
        now = time.time()
        reply = await self._set_handle([keys.player(player.id), keys.handle_changes(player.id)],
                                       [player.handle, text, repr(now), self.handle_changes_per_day, DAY])
        if reply[0] == "ok":
            await handle_index.put(self.redis, player.id, player.handle, text)  # the old entry goes
            if not same_key:
                await self._free(player.id, player.handle)
            return Player.from_fields(player.id, pairs(reply[1:]))
        if not same_key:
            await self._free(player.id, text)
        if reply[0] == "limited":
            raise HandleChangesLimited(max(0.001, float(reply[1]) + DAY - now))
        if reply[0] == "moved":
            raise HandleTaken("the player's handle changed meanwhile: read it and try again")
        raise PlayerNotFound("no such player")

    async def update_profile(self, player_id: str, handle: str | None, name: str | None,
                             locale: str | None = None) -> Player:
        """Change a player's handle, display name and/or saved locale ("" forgets it; the API checks it is a
        language the service speaks), each checked before any changes (raise BadHandle, BadName, HandleTaken,
        HandleChangesLimited, PlayerNotFound)."""
        if handle is not None and (reason := handles.problem(handle)[1]) is not None:
            raise BadHandle(reason)
        clean = None if name is None else clean_name(name)
        player = await self.change_handle(player_id, handle) if handle is not None else await self.get(player_id)
        if player is None:
            raise PlayerNotFound("no such player")
        if clean is not None and clean != player.name:
            player = await self.with_handle(await self.rename(player_id, clean))
        if locale is not None and locale != player.locale:
            fields = await self._set_locale([keys.player(player_id)], [locale])
            if not fields:
                raise PlayerNotFound("no such player")
            player = await self.with_handle(Player.from_fields(player_id, pairs(fields)))
        return player

    async def _take(self, player_id: str, handle: str) -> bool:
        """Hold a handle's key for a player unless another player holds it (one that does not show it, for longer
        than HANDLE_GRACE, is taken over); whether the player holds it now."""
        lookup = keys.handle(handles.key(handle))
        mine = f"{player_id} {time.time()!r}"
        held = str(await self._take_handle([lookup], [mine, player_id, ""]))
        holder, _, since = held.partition(" ")
        if holder == player_id:
            return True
        if time.time() - float(since or 0) < HANDLE_GRACE:
            return False
        shown = await self.redis.hget(keys.player(holder), "handle") if ID.match(holder) else None
        if shown is not None and handles.key(shown) == handles.key(handle):
            return False
        held = str(await self._take_handle([lookup], [mine, player_id, held]))
        return held.partition(" ")[0] == player_id

    async def _free(self, player_id: str, handle: str) -> None:
        if handle:
            await self._free_handle([keys.handle(handles.key(handle))], [player_id])

    async def rename(self, player_id: str, name: str) -> Player:
        """Give a player a new display name (raise BadName, PlayerNotFound)."""
        clean = clean_name(name)
        fields = await self._rename([keys.player(player_id)], [clean]) if ID.match(player_id) else []
        if not fields:
            raise PlayerNotFound("no such player")
        return Player.from_fields(player_id, pairs(fields))

    async def link(self, player_id: str, identity: Identity) -> Player:
        """Link an external identity to a player, which keeps its id (raise IdentityTaken when the identity is
        another player's, AlreadyLinked when the player has another identity, PlayerNotFound)."""
        player = await self.get(player_id)
        if player is None:
            raise PlayerNotFound("no such player")
        if player.identities and identity not in player.identities:
            raise AlreadyLinked("this player is linked to another identity already")
        lookup = keys.external(identity.issuer, identity.subject)
        holder = await self.claim(lookup, player_id)
        if holder != player_id:
            raise IdentityTaken("this identity belongs to another player")
        reply = await self._link([keys.player(player_id)], [_links(identity)])
        if reply[0] != "ok":  # linked to another identity meanwhile (or gone): give back the claim just made
            await self._unclaim([lookup], [player_id])
            if reply[0] == "other":
                raise AlreadyLinked("this player is linked to another identity already")
            raise PlayerNotFound("no such player")
        self._known[identity] = player_id
        return Player.from_fields(player_id, pairs(reply[1:]))
