"""Personal access tokens for bot writers: made by a signed-in player with a name and scopes, shown once
(fbp_<player_id>.<token_id>.<secret>), stored as a hash, listed without the secret, revoked; no expiry unless
asked for one."""

from __future__ import annotations

import hmac
import math
import re
import secrets
import time
from collections.abc import Iterable
from typing import Any

from firebreak.matches.connections import Script
from firebreak.matches.store import hash_token, pairs
from firebreak.players import keys
from firebreak.players.config import PlayerSettings
from firebreak.players.directory import ID, clean_name, new_id
from firebreak.players.errors import (
    BadScopes,
    ForbiddenScope,
    PlayerNotFound,
    Reason,
    TokenNotFound,
    TooManyTokens,
    Unauthenticated,
)
from firebreak.players.records import Player, Principal, Scope, TokenInfo, Via

PREFIX = "fbp_"
TOKEN = re.compile(r"fbp_([0-9a-f]{16})\.([0-9a-f]{16})\.([A-Za-z0-9_-]{43})\Z")
MAX_LIFETIME = 10 * 365 * 24 * 3600  # the longest expiry one may ask for, in seconds

# KEYS: player, its token index, the new token. ARGV: token id, name, scopes, hash, created, expires ('inf' for
# never), ttl ('' for none), now, most tokens. Answer 'ok', 'unknown' (no such player) or 'full'.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'unknown' end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[8])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[9]) then return 'full' end
redis.call('HSET', KEYS[3], 'name', ARGV[2], 'scopes', ARGV[3], 'hash', ARGV[4], 'created', ARGV[5],
           'expires', ARGV[6])
if ARGV[7] ~= '' then redis.call('EXPIRE', KEYS[3], tonumber(ARGV[7])) end
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[1])
return 'ok'
"""

# KEYS: the token, its player. Answer {token fields, player fields}.
_READ = """
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2])}
"""

# KEYS: the player's token index, the token. ARGV: token id. Answer how many were removed.
_REVOKE = """
redis.call('ZREM', KEYS[1], ARGV[1])
return redis.call('DEL', KEYS[2])
"""


def _scopes(text: str) -> frozenset[Scope]:
    return frozenset(Scope(s) for s in text.split(",") if s)


def _info(token_id: str, fields: dict[str, str]) -> TokenInfo:
    expires = float(fields["expires"])
    return TokenInfo(id=token_id, name=fields["name"], scopes=_scopes(fields["scopes"]),
                     created=float(fields["created"]), expires=None if math.isinf(expires) else expires)


class AccessTokens:
    """The personal access tokens kept in Redis (a decode_responses client of the matches Redis)."""

    def __init__(self, redis: Any, settings: PlayerSettings) -> None:
        self.redis = redis
        self.settings = settings
        self._create = Script(redis, _CREATE)
        self._read = Script(redis, _READ)
        self._revoke = Script(redis, _REVOKE)

    async def create(self, principal: Principal, name: str, scopes: Iterable[str],
                     expires_in: int | None = None) -> tuple[str, TokenInfo]:
        """Make a token for the principal's player (a signed-in player: not with another personal access token);
        return it (shown this once) and its listing (raise BadName, BadScopes, TooManyTokens, ForbiddenScope)."""
        if principal.via is Via.ACCESS_TOKEN:
            raise ForbiddenScope("a personal access token cannot make another: sign in")
        clean = clean_name(name)
        try:
            wanted = frozenset(Scope(s) for s in scopes)
        except ValueError:
            raise BadScopes(f"scopes are among {', '.join(Scope)}") from None
        if not wanted:
            raise BadScopes("a token needs at least one scope")
        if expires_in is not None and not 0 < expires_in <= MAX_LIFETIME:
            raise BadScopes(f"a token's lifetime is 1 to {MAX_LIFETIME} seconds")
        player_id, token_id, secret = principal.player.id, new_id(), secrets.token_urlsafe(32)
        now = time.time()
        expires = math.inf if expires_in is None else now + expires_in
        scope_text = ",".join(sorted(wanted))
        outcome = await self._create(
            [keys.player(player_id), keys.tokens(player_id), keys.token(player_id, token_id)],
            [token_id, clean, scope_text, hash_token(secret), repr(now), "inf" if expires_in is None else repr(expires),
             "" if expires_in is None else expires_in, repr(now), self.settings.tokens_per_player])
        if outcome == "unknown":
            raise PlayerNotFound("no such player")
        if outcome == "full":
            raise TooManyTokens(f"a player holds at most {self.settings.tokens_per_player} tokens: revoke one")
        info = TokenInfo(token_id, clean, wanted, now, None if expires_in is None else expires)
        return f"{PREFIX}{player_id}.{token_id}.{secret}", info

    async def verify(self, token: str) -> Principal:
        """The principal of a personal access token: its player and scopes, in one Redis round trip (raise
        Unauthenticated)."""
        parsed = TOKEN.match(token)
        if parsed is None:
            raise Unauthenticated(Reason.MALFORMED)
        player_id, token_id, secret = parsed.groups()
        stored, player = await self._read([keys.token(player_id, token_id), keys.player(player_id)])
        fields = pairs(stored)
        if not fields or not player:
            raise Unauthenticated(Reason.UNKNOWN)
        if not hmac.compare_digest(fields["hash"].encode(), hash_token(secret).encode()):
            raise Unauthenticated(Reason.INVALID)
        if float(fields["expires"]) <= time.time():
            raise Unauthenticated(Reason.EXPIRED)
        return Principal(Player.from_fields(player_id, pairs(player)), Via.ACCESS_TOKEN, _scopes(fields["scopes"]),
                         token_id=token_id)

    async def listing(self, player_id: str) -> list[TokenInfo]:
        """The player's live tokens, oldest first (never their secrets)."""
        if not ID.match(player_id):
            return []
        ids = await self.redis.zrangebyscore(keys.tokens(player_id), f"({time.time()!r}", "+inf")
        if not ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for token_id in ids:
            pipe.hgetall(keys.token(player_id, token_id))
        found = [_info(t, fields) for t, fields in zip(ids, await pipe.execute(), strict=True) if fields]
        return sorted(found, key=lambda info: info.created)

    async def revoke(self, player_id: str, token_id: str) -> None:
        """Revoke one of the player's tokens: it stops working at once (raise TokenNotFound)."""
        if not (ID.match(player_id) and ID.match(token_id)
                and await self._revoke([keys.tokens(player_id), keys.token(player_id, token_id)], [token_id])):
            raise TokenNotFound("no such token")
