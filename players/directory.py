"""Creating and finding players: a guest by its device, an operator's account by (issuer, subject); renaming a
player; linking a guest to an external identity (it keeps its id, and so its matches)."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

import orjson

from firebreak.matches.connections import Script
from firebreak.matches.store import hash_token, pairs
from firebreak.players import keys
from firebreak.players.errors import AlreadyLinked, BadDeviceId, BadName, IdentityTaken, PlayerNotFound
from firebreak.players.records import Identity, Player, PlayerKind

NAME_MAX = 40
DEVICE_MIN, DEVICE_MAX = 16, 200
ID = re.compile(r"[0-9a-f]{16}\Z")  # a player's, a session family's or a token's id
REMEMBERED = 10_000  # external identities whose player id a process keeps in memory (they never change)

# KEYS[1]: a lookup key; ARGV[1]: a candidate value. Set it if absent; answer the value it holds.
_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
"""

# KEYS[1]: a lookup key; ARGV[1]: a value. Delete the key if it holds that value.
_UNCLAIM = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS[1]: a player; ARGV: name, kind, created, links, device. Create the player unless it exists; answer
# {1 if created else 0, its fields...}.
_ENSURE = """
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

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._claim = Script(redis, _CLAIM)
        self._unclaim = Script(redis, _UNCLAIM)
        self._ensure = Script(redis, _ENSURE)
        self._rename = Script(redis, _RENAME)
        self._link = Script(redis, _LINK)
        self._known: dict[Identity, str] = {}  # external identity -> player id, as claimed in Redis

    async def claim(self, key: str, candidate: str) -> str:
        """Set a lookup key to candidate unless it holds a value already; return the value it holds."""
        return str(await self._claim([key], [candidate]))

    async def guest(self, name: str, device_id: str) -> tuple[Player, bool]:
        """The guest player of a device, created (named so) on the device's first sign-in; and whether it was."""
        clean = clean_name(name)
        device = device_hash(device_id)
        # The device is claimed first, then its player created if missing: a crash in between leaves a claim whose
        # player the next sign-in creates, never a player no device leads to.
        player_id = await self.claim(keys.device(device), new_id())
        return await self._ensure_player(player_id, clean, PlayerKind.GUEST, None, device)

    async def external(self, identity: Identity, name: str) -> tuple[Player, bool]:
        """The player of an external identity, created (named so) on first sight; and whether it was."""
        player_id = self._known.get(identity)
        if player_id is None:
            player_id = await self.claim(keys.external(identity.issuer, identity.subject), new_id())
            if len(self._known) >= REMEMBERED:
                self._known.clear()
            self._known[identity] = player_id
        return await self._ensure_player(player_id, name, PlayerKind.EXTERNAL, identity, "")

    async def _ensure_player(self, player_id: str, name: str, kind: PlayerKind, identity: Identity | None,
                             device: str) -> tuple[Player, bool]:
        reply = await self._ensure([keys.player(player_id)], [name, kind.value, repr(time.time()), _links(identity),
                                                              device])
        return Player.from_fields(player_id, pairs(reply[1:])), bool(int(reply[0]))

    async def get(self, player_id: str) -> Player | None:
        """The player with that id, or None."""
        if not ID.match(player_id):
            return None
        fields = await self.redis.hgetall(keys.player(player_id))
        return Player.from_fields(player_id, fields) if fields else None

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
