"""The players layer's settings, read once from the environment (like matches/config.py)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from firebreak.matches.ratelimit import Rate

SECRET_BYTES = 32  # the least a signing secret may hold
ASYMMETRIC = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
SYMMETRIC = ("HS256", "HS384", "HS512")


@dataclass(frozen=True)
class PlayerSettings:
    """What a deployment may tune about players; every field has a working default (the operator's sign-in is off
    until its issuer, audience and a key source are set)."""

    session_secret: str = ""            # HS256 key of our access tokens; "": one generated and kept in Redis
    access_ttl: int = 15 * 60           # seconds an access token is valid
    refresh_ttl: int = 30 * 24 * 3600   # seconds a session family lives after its last refresh
    leeway: float = 10.0                # seconds of clock skew allowed on exp, nbf and iat
    jwt_issuer: str = ""                # the operator's identity provider: its iss...
    jwt_audience: str = ""              # ...the aud its tokens carry for us...
    jwks_url: str = ""                  # ...and where its public keys are (JWKS), or
    jwt_secret: str = ""                # ...the secret it shares with us
    jwt_algorithms: tuple[str, ...] = ()  # accepted algorithms; (): RS256 with a JWKS, HS256 with a secret
    jwt_name_claim: str = "name"        # the claim that holds a player's display name
    jwks_refresh_seconds: float = 30.0  # an unknown kid refetches the key set at most once this often
    jwks_cache_seconds: float = 300.0   # a fetched key set is used this long before it is fetched again
    jwks_timeout: float = 5.0           # seconds to fetch the key set
    tokens_per_player: int = 50         # personal access tokens a player may hold
    rate_registration_per_second: float = 0.1  # guest sign-ins per client address (0 turns the limit off)...
    rate_registration_burst: int = 20          # ...and the burst allowed

    def __post_init__(self) -> None:
        if self.session_secret and len(self.session_secret.encode()) < SECRET_BYTES:
            raise ValueError(f"FIREBREAK_SESSION_SECRET must be at least {SECRET_BYTES} bytes")
        for name, value in (("FIREBREAK_ACCESS_TOKEN_TTL", self.access_ttl),
                            ("FIREBREAK_REFRESH_TOKEN_TTL", self.refresh_ttl),
                            ("FIREBREAK_JWKS_REFRESH_SECONDS", self.jwks_refresh_seconds),
                            ("FIREBREAK_JWKS_CACHE_SECONDS", self.jwks_cache_seconds),
                            ("FIREBREAK_JWKS_TIMEOUT", self.jwks_timeout)):
            if not value > 0:
                raise ValueError(f"{name} must be above 0")
        if self.leeway < 0:
            raise ValueError("FIREBREAK_JWT_LEEWAY must be 0 or more")
        external = {"FIREBREAK_JWT_ISSUER": self.jwt_issuer, "FIREBREAK_JWT_AUDIENCE": self.jwt_audience,
                    "FIREBREAK_JWKS_URL or FIREBREAK_JWT_SECRET": self.jwks_url or self.jwt_secret}
        if any(external.values()) and not all(external.values()):
            missing = ", ".join(name for name, value in external.items() if not value)
            raise ValueError(f"the operator's sign-in is half configured: set {missing}")
        if self.jwks_url and self.jwt_secret:
            raise ValueError("set FIREBREAK_JWKS_URL or FIREBREAK_JWT_SECRET, not both")
        if self.jwt_secret and len(self.jwt_secret.encode()) < SECRET_BYTES:
            raise ValueError(f"FIREBREAK_JWT_SECRET must be at least {SECRET_BYTES} bytes")
        allowed = SYMMETRIC if self.jwt_secret else ASYMMETRIC  # never none; never HS with a public key
        if self.external and not set(self.algorithms) <= set(allowed):
            source = "a shared secret" if self.jwt_secret else "a JWKS"
            raise ValueError(f"FIREBREAK_JWT_ALGORITHMS with {source} may name only {', '.join(allowed)}")

    @property
    def external(self) -> bool:
        """Whether the operator's sign-in is on."""
        return bool(self.jwt_issuer and self.jwt_audience and (self.jwks_url or self.jwt_secret))

    @property
    def algorithms(self) -> tuple[str, ...]:
        """The algorithms an operator's JWT may be signed with."""
        return self.jwt_algorithms or (("HS256",) if self.jwt_secret else ("RS256",))

    @property
    def registration_rate(self) -> Rate:
        """The token bucket the API charges a client address for each guest sign-in (matches/ratelimit.py)."""
        return Rate(self.rate_registration_per_second, self.rate_registration_burst)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> PlayerSettings:
        """Read the FIREBREAK_* player variables over the defaults, from os.environ or the given mapping."""
        env = os.environ if environ is None else environ
        base = cls()

        def text(name: str, default: str) -> str:
            return env.get(name, default).strip()

        algorithms = tuple(a.strip() for a in text("FIREBREAK_JWT_ALGORITHMS", "").split(",") if a.strip())
        return cls(
            session_secret=env.get("FIREBREAK_SESSION_SECRET", base.session_secret),
            access_ttl=int(env.get("FIREBREAK_ACCESS_TOKEN_TTL", base.access_ttl)),
            refresh_ttl=int(env.get("FIREBREAK_REFRESH_TOKEN_TTL", base.refresh_ttl)),
            leeway=float(env.get("FIREBREAK_JWT_LEEWAY", base.leeway)),
            jwt_issuer=text("FIREBREAK_JWT_ISSUER", base.jwt_issuer),
            jwt_audience=text("FIREBREAK_JWT_AUDIENCE", base.jwt_audience),
            jwks_url=text("FIREBREAK_JWKS_URL", base.jwks_url),
            jwt_secret=env.get("FIREBREAK_JWT_SECRET", base.jwt_secret),
            jwt_algorithms=algorithms,
            jwt_name_claim=text("FIREBREAK_JWT_NAME_CLAIM", base.jwt_name_claim) or base.jwt_name_claim,
            jwks_refresh_seconds=float(env.get("FIREBREAK_JWKS_REFRESH_SECONDS", base.jwks_refresh_seconds)),
            jwks_cache_seconds=float(env.get("FIREBREAK_JWKS_CACHE_SECONDS", base.jwks_cache_seconds)),
            jwks_timeout=float(env.get("FIREBREAK_JWKS_TIMEOUT", base.jwks_timeout)),
            tokens_per_player=int(env.get("FIREBREAK_TOKENS_PER_PLAYER", base.tokens_per_player)),
            rate_registration_per_second=float(env.get("FIREBREAK_RATE_REGISTRATION_PER_SECOND",
                                                       base.rate_registration_per_second)),
            rate_registration_burst=int(env.get("FIREBREAK_RATE_REGISTRATION_BURST", base.rate_registration_burst)),
        )
