"""The players layer's settings, read once from the environment (a pydantic-settings model, like matches/config.py)."""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import StringConstraints, ValidationInfo, field_validator, model_validator
from pydantic_settings import NoDecode

from firebreak.matches.envsettings import EnvSettings, env
from firebreak.matches.ratelimit import Rate

SECRET_BYTES = 32  # the least a signing secret may hold
ASYMMETRIC = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
SYMMETRIC = ("HS256", "HS384", "HS512")
Stripped = Annotated[str, StringConstraints(strip_whitespace=True)]


class PlayerSettings(EnvSettings):
    """What a deployment may tune about players; every field has a working default (the operator's sign-in is off
    until its issuer, audience and a key source are set)."""

    section: ClassVar[str] = "Players: sessions and the operator's sign-in"

    session_secret: str = env("FIREBREAK_SESSION_SECRET", "",
                              f"The HS256 key of the access tokens the service signs (at least {SECRET_BYTES} "
                              "bytes); empty: one is generated and kept in Redis, shared by every process.",
                              secret=True)
    access_ttl: int = env("FIREBREAK_ACCESS_TOKEN_TTL", 15 * 60, "Seconds an access token is valid.", gt=0)
    refresh_ttl: int = env("FIREBREAK_REFRESH_TOKEN_TTL", 30 * 24 * 3600,
                           "Seconds a session family lives after its last refresh.", gt=0)
    refresh_reuse_grace: float = env("FIREBREAK_REFRESH_REUSE_GRACE_SECONDS", 5.0,
                                     "Seconds after a refresh during which the refresh token it swapped, presented "
                                     "again (two tabs refreshing at once, a retried request), answers the same "
                                     "successor instead of revoking the session; 0: strict (any reuse revokes).",
                                     ge=0)
    leeway: float = env("FIREBREAK_JWT_LEEWAY", 10.0, "Seconds of clock skew allowed on exp, nbf and iat.", ge=0)
    jwt_issuer: Stripped = env("FIREBREAK_JWT_ISSUER", "",
                               "The operator's identity provider: the iss its tokens carry (with "
                               "FIREBREAK_JWT_AUDIENCE and FIREBREAK_JWKS_URL or FIREBREAK_JWT_SECRET, it turns "
                               "the operator's sign-in on).")
    jwt_audience: Stripped = env("FIREBREAK_JWT_AUDIENCE", "", "The aud the operator's tokens carry for this service.")
    jwks_url: Stripped = env("FIREBREAK_JWKS_URL", "", "Where the operator's public keys are (a JWKS URL).")
    jwt_secret: str = env("FIREBREAK_JWT_SECRET", "",
                          f"Or the secret the operator shares with the service (HS256; at least {SECRET_BYTES} "
                          "bytes); not with FIREBREAK_JWKS_URL.", secret=True)
    jwt_algorithms: Annotated[tuple[str, ...], NoDecode] = env(
        "FIREBREAK_JWT_ALGORITHMS", (),
        "Algorithms an operator's token may be signed with, comma-separated; empty: RS256 with a JWKS, HS256 "
        "with a shared secret.")
    jwt_name_claim: Stripped = env("FIREBREAK_JWT_NAME_CLAIM", "name",
                                   "The claim of an operator's token that holds a player's display name.",
                                   min_length=1)
    jwks_refresh_seconds: float = env("FIREBREAK_JWKS_REFRESH_SECONDS", 30.0,
                                      "An unknown key id refetches the key set at most once this often (seconds).",
                                      gt=0)
    jwks_cache_seconds: float = env("FIREBREAK_JWKS_CACHE_SECONDS", 300.0,
                                    "Seconds a fetched key set is used before it is fetched again.", gt=0)
    jwks_timeout: float = env("FIREBREAK_JWKS_TIMEOUT", 5.0, "Seconds to fetch the key set.", gt=0)
    tokens_per_player: int = env("FIREBREAK_TOKENS_PER_PLAYER", 50,
                                 "Personal access tokens a player may hold.", gt=0)
    handle_changes_per_day: int = env("FIREBREAK_HANDLE_CHANGES_PER_DAY", 3,
                                      "Times a player may change handle in any 24 hours (the handle assigned at "
                                      "sign-in is not counted).", gt=0)
    rate_exports_per_hour: float = env("FIREBREAK_RATE_EXPORTS_PER_HOUR", 12.0,
                                       "Data exports (GET /v1/me/export) a player may download an hour, after a "
                                       "burst of FIREBREAK_RATE_EXPORTS_BURST; 0 turns the limit off.", ge=0)
    rate_exports_burst: int = env("FIREBREAK_RATE_EXPORTS_BURST", 3,
                                  "The burst of data exports a player may download at once.", ge=0)
    deletion_reauth_seconds: float = env("FIREBREAK_DELETION_REAUTH_SECONDS", 300.0,
                                         "Deleting an account needs a sign-in (a session begun, or an operator's "
                                         "token issued) at most this many seconds ago; an older one is refused "
                                         "with REAUTHENTICATE.", gt=0)
    rate_registration_per_second: float = env("FIREBREAK_RATE_REGISTRATION_PER_SECOND", 0.1,
                                              "Guest sign-ins per second per client address; 0 turns the limit off.",
                                              ge=0)
    rate_registration_burst: int = env("FIREBREAK_RATE_REGISTRATION_BURST", 20,
                                       "The burst of guest sign-ins a client address may make.", ge=0)

    @field_validator("session_secret", "jwt_secret", mode="after")
    @classmethod
    def _secret(cls, value: str, info: ValidationInfo) -> str:
        if value and len(value.encode()) < SECRET_BYTES:
            name = "FIREBREAK_SESSION_SECRET" if info.field_name == "session_secret" else "FIREBREAK_JWT_SECRET"
            raise ValueError(f"{name} must be at least {SECRET_BYTES} bytes")
        return value

    @field_validator("jwt_algorithms", mode="before")
    @classmethod
    def _algorithms(cls, value: object) -> object:
        return tuple(a.strip() for a in value.split(",") if a.strip()) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _consistent(self) -> PlayerSettings:
        external = {"FIREBREAK_JWT_ISSUER": self.jwt_issuer, "FIREBREAK_JWT_AUDIENCE": self.jwt_audience,
                    "FIREBREAK_JWKS_URL or FIREBREAK_JWT_SECRET": self.jwks_url or self.jwt_secret}
        if any(external.values()) and not all(external.values()):
            missing = ", ".join(name for name, value in external.items() if not value)
            raise ValueError(f"the operator's sign-in is half configured: set {missing}")
        if self.jwks_url and self.jwt_secret:
            raise ValueError("set FIREBREAK_JWKS_URL or FIREBREAK_JWT_SECRET, not both")
        allowed = SYMMETRIC if self.jwt_secret else ASYMMETRIC  # never none; never HS with a public key
        if self.external and not set(self.algorithms) <= set(allowed):
            source = "a shared secret" if self.jwt_secret else "a JWKS"
            raise ValueError(f"FIREBREAK_JWT_ALGORITHMS with {source} may name only {', '.join(allowed)}")
        return self

    @property
    def external(self) -> bool:
        """Whether the operator's sign-in is on."""
        return bool(self.jwt_issuer and self.jwt_audience and (self.jwks_url or self.jwt_secret))

    @property
    def algorithms(self) -> tuple[str, ...]:
        """The algorithms an operator's JWT may be signed with."""
        return self.jwt_algorithms or (("HS256",) if self.jwt_secret else ("RS256",))

    @property
    def export_rate(self) -> Rate:
        """The token bucket the API charges a player for each data export it downloads (each reads the player's
        whole history)."""
        return Rate(self.rate_exports_per_hour / 3600, self.rate_exports_burst)

    @property
    def registration_rate(self) -> Rate:
        """The token bucket the API charges a client address for each guest sign-in (matches/ratelimit.py)."""
        return Rate(self.rate_registration_per_second, self.rate_registration_burst)
