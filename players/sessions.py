"""Sessions: a short-lived access token (a JWT we sign, HS256) and an opaque refresh token, rotated on every use.

A session family begins at sign-in and carries one live refresh token. Refreshing swaps it for a new one (and a
new access token); presenting one already swapped revokes the whole family (refresh-token rotation, OAuth 2.0
Security BCP / RFC 6819). A family records the player's token version when it began: signing out everywhere bumps
that version, which stops every access token and every family of the player at once.

Two tabs (or a retry after a lost answer) may present the same refresh token at once: a reuse of the token that was
just rotated (the immediately previous one) within FIREBREAK_REFRESH_REUSE_GRACE_SECONDS of its rotation answers the
same successor (and a fresh access token) instead of revoking the family; a reuse after the window, or of an older
token, still revokes. No refresh secret is kept: a successor's secret is derived from the presented one
(successor()), so a reuse in the window recomputes it, and the hash the family keeps of its live secret verifies it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from typing import Any

import jwt

from firebreak.matches.connections import Script
from firebreak.matches.store import hash_token, pairs
from firebreak.players import keys
from firebreak.players.config import PlayerSettings
from firebreak.players.directory import ID, Directory, new_id
from firebreak.players.errors import PlayerNotFound, Reason, Unauthenticated
from firebreak.players.jwts import decode
from firebreak.players.records import Player, Principal, Session, Via

ISSUER = AUDIENCE = "firebreak"  # our access tokens' iss and aud
ALGORITHM = "HS256"
CLAIMS = ["sub", "ver", "sid", "iat", "exp", "iss", "aud"]
REFRESH_PREFIX = "fbr_"
REFRESH = re.compile(r"fbr_([0-9a-f]{16})\.([0-9a-f]{16})\.([A-Za-z0-9_-]{43})\Z")
USED_KEPT = 4096  # used refresh secrets a family remembers (an older one is refused without revoking)
FAMILIES_KEPT = 1000  # session families a player's index lists (the newest; the data export reads it)

# KEYS: player, family, the player's family index. ARGV: refresh hash, ttl, now, family id, most indexed. Begin a
# family at the player's token version and index it; answer {fields...} of the player, or {} when there is none.
_BEGIN = """
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then return {} end
redis.call('HSET', KEYS[2], 'refresh', ARGV[1], 'ver', redis.call('HGET', KEYS[1], 'ver'), 'gen', 0,
           'began', ARGV[3])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]))
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -tonumber(ARGV[5]) - 1)
return fields
"""

# KEYS: player, family. ARGV: the token's version. Answer {'ok', player fields...} while the player's version is
# the token's and the family lives at it, else {'revoked'} (or {'unknown'}: no such player).
_CHECK = """
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then return {'unknown'} end
local ver = redis.call('HGET', KEYS[1], 'ver')
if ver ~= ARGV[1] or redis.call('HGET', KEYS[2], 'ver') ~= ver then return {'revoked'} end
table.insert(fields, 1, 'ok')
return fields
"""

# KEYS: player, family, the family's used hashes, the player's family index. ARGV: the presented secret's hash, the
# hash of its successor's, ttl, how many used hashes to keep, now, family id, the reuse grace (seconds). Rotate (and
# index a family begun before the index, when it began unknown: now) when the presented secret is the family's live
# one, keeping the presented hash as the previous one and when it was rotated: answer {'ok', player fields...}. The
# previous one again within the grace, its successor being the live one: the same answer, nothing rotated. One
# already used otherwise revokes the family: {'reused'}. Else {'revoked'} (the family is gone or signed out
# everywhere) or {'wrong'} (never this family's: refused, nothing revoked, so a guessed id cannot sign anyone out).
_ROTATE = """
local family = redis.call('HMGET', KEYS[2], 'refresh', 'ver', 'gen', 'prev', 'rotated')
if not family[1] then return {'revoked'} end
if redis.call('HGET', KEYS[1], 'ver') ~= family[2] then
  redis.call('DEL', KEYS[2], KEYS[3])
  return {'revoked'}
end
if family[1] == ARGV[1] then
  local gen = tonumber(family[3]) + 1
  redis.call('HSET', KEYS[2], 'refresh', ARGV[2], 'gen', gen, 'prev', ARGV[1], 'rotated', ARGV[5])
  redis.call('ZADD', KEYS[3], gen, ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -tonumber(ARGV[4]) - 1)
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
  redis.call('EXPIRE', KEYS[3], tonumber(ARGV[3]))
  redis.call('ZADD', KEYS[4], 'NX', ARGV[5], ARGV[6])
  local fields = redis.call('HGETALL', KEYS[1])
  table.insert(fields, 1, 'ok')
  return fields
end
local grace = tonumber(ARGV[7])
if family[4] == ARGV[1] and family[1] == ARGV[2] and grace > 0
   and tonumber(ARGV[5]) - tonumber(family[5]) <= grace then
  local fields = redis.call('HGETALL', KEYS[1])
  table.insert(fields, 1, 'ok')
  return fields
end
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then
  redis.call('DEL', KEYS[2], KEYS[3])
  return {'reused'}
end
return {'wrong'}
"""

# KEYS[1]: a player. Bump its token version; answer 1, or 0 when there is no such player.
_BUMP = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'ver', 1)
return 1
"""

_REFUSED = {"revoked": Reason.REVOKED, "unknown": Reason.UNKNOWN, "reused": Reason.REUSED, "wrong": Reason.INVALID}


def _refused(status: str) -> Unauthenticated:
    return Unauthenticated(_REFUSED.get(status, Reason.INVALID))


class Sessions:
    """Signs players in (guests by device), verifies and refreshes their sessions, signs them out."""

    def __init__(self, redis: Any, settings: PlayerSettings, directory: Directory) -> None:
        self.redis = redis
        self.settings = settings
        self.directory = directory
        self._key = settings.session_secret
        self._begin = Script(redis, _BEGIN)
        self._check = Script(redis, _CHECK)
        self._rotate = Script(redis, _ROTATE)
        self._bump = Script(redis, _BUMP)

    async def signing_key(self) -> str:
        """The access tokens' HS256 key: FIREBREAK_SESSION_SECRET, else the one kept in Redis (made by the first
        process that needed it, so that every API process shares it)."""
        if not self._key:
            self._key = await self.directory.claim(keys.SIGNING_SECRET, secrets.token_urlsafe(48))
        return self._key

    async def sign_in_as_guest(self, name: str, device_id: str) -> Session:
        """Sign a device's guest in, creating the player on the device's first sign-in (raise BadName,
        BadDeviceId)."""
        player, created = await self.directory.guest(name, device_id)
        return await self.begin(player.id, created)

    async def begin(self, player_id: str, created: bool = False) -> Session:
        """Begin a new session family for a player (raise PlayerNotFound)."""
        family_id, secret = new_id(), secrets.token_urlsafe(32)
        fields = await self._begin(
            [keys.player(player_id), keys.family(player_id, family_id), keys.families(player_id)],
            [hash_token(secret), self.settings.refresh_ttl, repr(time.time()), family_id, FAMILIES_KEPT])
        if not fields:
            raise PlayerNotFound("no such player")
        player = await self.directory.with_handle(Player.from_fields(player_id, pairs(fields)))
        return await self._session(player, family_id, secret, created)

    async def _session(self, player: Player, family_id: str, secret: str, created: bool) -> Session:
        if player.banned():  # no session for a banned player (its older ones died with the ban's version bump)
            raise Unauthenticated(Reason.BANNED)
        now = int(time.time())
        claims = {"sub": player.id, "ver": player.token_version, "sid": family_id, "iat": now,
                  "exp": now + self.settings.access_ttl, "iss": ISSUER, "aud": AUDIENCE}
        access = jwt.encode(claims, await self.signing_key(), algorithm=ALGORITHM)
        return Session(player=player, access_token=access, access_expires_in=self.settings.access_ttl,
                       refresh_token=f"{REFRESH_PREFIX}{player.id}.{family_id}.{secret}",
                       refresh_expires_in=self.settings.refresh_ttl, session_id=family_id, created=created)

    async def verify(self, access_token: str) -> Principal:
        """The principal of one of our access tokens: signature, expiry, issuer, audience, algorithm (HS256 only),
        then, in one Redis round trip, the player's token version and its session family (raise Unauthenticated)."""
        claims = decode(access_token, await self.signing_key(), algorithm=ALGORITHM, audience=AUDIENCE,
                        issuer=ISSUER, leeway=self.settings.leeway, require=CLAIMS)
        player_id, family_id, version = claims["sub"], claims["sid"], claims["ver"]
        if not (isinstance(player_id, str) and ID.match(player_id) and isinstance(family_id, str)
                and ID.match(family_id) and type(version) is int):
            raise Unauthenticated(Reason.INVALID)
        reply = await self._check([keys.player(player_id), keys.family(player_id, family_id)], [version])
        if reply[0] != "ok":
            raise _refused(reply[0])
        return Principal(Player.from_fields(player_id, pairs(reply[1:])), Via.SESSION, session_id=family_id)

    async def successor(self, family_id: str, secret: str) -> str:
        """The refresh secret that follows a presented one in its family: HMAC-SHA256 under the signing key (so
        only the service can work it out), the same every time it is asked (a reuse within the grace window answers
        the same successor without the service keeping any secret)."""
        key = (await self.signing_key()).encode()
        digest = hmac.new(key, f"refresh\n{family_id}\n{secret}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    async def refresh(self, refresh_token: str) -> Session:
        """Swap a refresh token for a new session of the same family (the old token stops working); the one just
        swapped, again within the reuse grace, answers the same successor; another already used one revokes the
        whole family (raise Unauthenticated)."""
        parsed = REFRESH.match(refresh_token)
        if parsed is None:
            raise Unauthenticated(Reason.MALFORMED)
        player_id, family_id, secret = parsed.groups()
        new_secret = await self.successor(family_id, secret)
        reply = await self._rotate(
            [keys.player(player_id), keys.family(player_id, family_id), keys.family_used(player_id, family_id),
             keys.families(player_id)],
            [hash_token(secret), hash_token(new_secret), self.settings.refresh_ttl, USED_KEPT, repr(time.time()),
             family_id, repr(self.settings.refresh_reuse_grace)])
        if reply[0] != "ok":
            raise _refused(reply[0])
        player = await self.directory.with_handle(Player.from_fields(player_id, pairs(reply[1:])))
        return await self._session(player, family_id, new_secret, False)

    async def sign_out_principal(self, principal: Principal, everywhere: bool) -> None:
        """Sign out what a credential names: every session of its player (everywhere), else the credential's own
        session (nothing for a credential without one, such as the operator's JWT; raise PlayerNotFound)."""
        if everywhere:
            await self.sign_out_everywhere(principal.player.id)
        elif principal.via is Via.SESSION and principal.session_id is not None:
            await self.sign_out(principal.player.id, principal.session_id)

    async def sign_out(self, player_id: str, session_id: str) -> None:
        """End one session family (this device): its refresh token and access tokens stop working."""
        if ID.match(player_id) and ID.match(session_id):
            await self.redis.delete(keys.family(player_id, session_id), keys.family_used(player_id, session_id))

    async def sign_out_everywhere(self, player_id: str) -> None:
        """Bump the player's token version: every access token and session family of the player stops working at
        once (raise PlayerNotFound)."""
        if not (ID.match(player_id) and await self._bump([keys.player(player_id)])):
            raise PlayerNotFound("no such player")
