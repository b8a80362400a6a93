"""The operator's sign-in: JWTs of the operator's identity provider (Firebase Auth, Auth0, Cognito, Supabase,
Keycloak...), verified with PyJWT against its JWKS (or a secret it shares with us).

Only the configured algorithms are accepted (never none; never an HS algorithm with a JWKS, whose keys are public:
no algorithm confusion), and a JWKS key only for the algorithm it is for. The key set is kept in memory, fetched
again when it grows old or a token names an unknown kid, but at most once per jwks_refresh_seconds whatever
arrives (a flood of tokens with made-up kids costs one fetch per window). The fetch is blocking (urllib): it runs
in a thread, one at a time.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jwt

from firebreak.players.config import PlayerSettings
from firebreak.players.directory import NAME_MAX
from firebreak.players.errors import Reason, Unauthenticated
from firebreak.players.jwts import decode
from firebreak.players.records import Identity

REQUIRED = ["exp", "iss", "aud", "sub"]
SUBJECT_MAX = 255
KID_MAX = 200
SHORT_SUBJECT = 12  # characters of sub that name a player whose token carries no usable name


@dataclass(frozen=True)
class Claimed:
    """What a verified operator's JWT says: whose identity it is and the display name it gives."""

    identity: Identity
    name: str
    issued: float | None = None  # auth_time, else iat (epoch seconds), when the token carries one


class KeySet:
    """The operator's JWKS, fetched with PyJWT's PyJWKClient and kept in memory (see the module's docstring)."""

    def __init__(self, url: str, refresh_seconds: float, cache_seconds: float, timeout: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.client = jwt.PyJWKClient(url, cache_jwk_set=False, timeout=timeout)
        self.refresh_seconds = refresh_seconds
        self.cache_seconds = cache_seconds
        self.clock = clock
        self.keys: dict[str, jwt.PyJWK] = {}
        self.fetched: float | None = None  # when the keys were last fetched...
        self.tried: float | None = None    # ...and last asked for (fetched or not)
        self.lock = threading.Lock()

    def _fresh(self, now: float) -> bool:
        return self.fetched is not None and now - self.fetched < self.cache_seconds

    def _may_try(self, now: float) -> bool:
        return self.tried is None or now - self.tried >= self.refresh_seconds

    async def key(self, kid: str) -> jwt.PyJWK:
        """The signing key with that kid (raise Unauthenticated: unknown kid, or the key set unavailable)."""
        now = self.clock()
        if kid in self.keys and (self._fresh(now) or not self._may_try(now)):
            return self.keys[kid]
        if self._may_try(now):
            await asyncio.to_thread(self._fetch)
        if kid in self.keys:
            return self.keys[kid]
        raise Unauthenticated(Reason.INVALID if self.fetched is not None else Reason.UNAVAILABLE)

    def _fetch(self) -> None:
        """Fetch the key set unless another thread just did (a failed fetch keeps the keys known before)."""
        with self.lock:
            now = self.clock()
            if not self._may_try(now):
                return
            self.tried = now
            try:
                found = self.client.get_jwk_set(refresh=True)
            except (jwt.PyJWTError, ValueError, OSError):  # unreachable, not JSON, not a key set
                return
            self.keys = {k.key_id: k for k in found.keys if k.key_id and k.public_key_use in ("sig", None)}
            self.fetched = now


class ExternalVerifier:
    """Verifies the operator's JWTs: signature, exp, nbf, iss, aud, the required claims, the algorithm."""

    def __init__(self, settings: PlayerSettings, clock: Callable[[], float] = time.monotonic) -> None:
        if not settings.external:
            raise ValueError("the operator's sign-in is not configured")
        self.settings = settings
        self.keys = KeySet(settings.jwks_url, settings.jwks_refresh_seconds, settings.jwks_cache_seconds,
                           settings.jwks_timeout, clock) if settings.jwks_url else None

    async def verify(self, token: str) -> Claimed:
        """The identity and name a JWT of the operator's provider vouches for (raise Unauthenticated)."""
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise Unauthenticated(Reason.MALFORMED) from None
        algorithm = header.get("alg")
        if algorithm not in self.settings.algorithms:
            raise Unauthenticated(Reason.ALGORITHM)
        key: Any = self.settings.jwt_secret
        if self.keys is not None:
            kid = header.get("kid")
            if not isinstance(kid, str) or not 0 < len(kid) <= KID_MAX:
                raise Unauthenticated(Reason.INVALID)
            jwk = await self.keys.key(kid)
            if jwk.algorithm_name != algorithm:  # a key is for one algorithm only
                raise Unauthenticated(Reason.ALGORITHM)
            key = jwk.key
        claims = decode(token, key, algorithm=algorithm, audience=self.settings.jwt_audience,
                        issuer=self.settings.jwt_issuer, leeway=self.settings.leeway, require=REQUIRED)
        subject = claims["sub"]
        if not isinstance(subject, str) or not 0 < len(subject) <= SUBJECT_MAX:
            raise Unauthenticated(Reason.INVALID)
        issued = claims.get("auth_time", claims.get("iat"))
        return Claimed(Identity(self.settings.jwt_issuer, subject),
                       self._name(claims.get(self.settings.jwt_name_claim), subject),
                       float(issued) if isinstance(issued, int | float) and not isinstance(issued, bool) else None)

    @staticmethod
    def _name(claimed: object, subject: str) -> str:
        """The claim's name (trimmed, cut to the longest name), else a short form of sub."""
        if isinstance(claimed, str):
            name = claimed.strip()[:NAME_MAX].strip()
            if name and name.isprintable():
                return name
        short = "".join(c for c in subject[-SHORT_SUBJECT:] if c.isprintable()).strip()
        return short or "player"
