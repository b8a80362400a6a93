"""The webhooks' settings, read once from the environment (FIREBREAK_WEBHOOK_*; a pydantic-settings model like
matches/config.py)."""

from __future__ import annotations

from typing import Annotated, ClassVar
from urllib.parse import urlsplit

from pydantic import field_validator, model_validator
from pydantic_settings import NoDecode

from firebreak.matches.envsettings import EnvSettings, env
from firebreak.notifications.webhooks.destinations import Allowed, Refused, check_host
from firebreak.notifications.webhooks.signing import check_secret


class WebhookSettings(EnvSettings):
    """What a deployment may tune about webhooks; every field has a working default."""

    section: ClassVar[str] = "Webhooks"

    url: str = env("FIREBREAK_WEBHOOK_URL", "",
                   "The settings' endpoint (http:// or https://), sent every event type; empty: none (endpoints "
                   "can still be added through the admin API).")
    secrets: Annotated[tuple[str, ...], NoDecode] = env(
        "FIREBREAK_WEBHOOK_SECRET", (),
        "The endpoint's signing secret, whsec_ followed by base64 of 24 to 64 bytes (two, space-separated, while "
        "rotating); required with FIREBREAK_WEBHOOK_URL.", secret=True)
    attempts: int = env("FIREBREAK_WEBHOOK_ATTEMPTS", 12, "Attempts of one delivery before it is marked failed.",
                        gt=0)
    retry_seconds: float = env("FIREBREAK_WEBHOOK_RETRY_SECONDS", 60.0,
                               "The wait after the first failed attempt; it doubles after each failure.", gt=0)
    retry_cap_seconds: float = env("FIREBREAK_WEBHOOK_RETRY_CAP_SECONDS", 8 * 3600.0,
                                   "The longest wait between attempts (12 attempts span about a day), with +-20 % "
                                   "jitter.", gt=0)
    timeout_seconds: float = env("FIREBREAK_WEBHOOK_TIMEOUT_SECONDS", 10.0,
                                 "One attempt's whole budget in seconds (connect, send, answer).", gt=0)
    lease_seconds: float = env("FIREBREAK_WEBHOOK_LEASE_SECONDS", 30.0,
                               "How long an attempt holds its delivery (a killed sender's comes due after it); "
                               "more than FIREBREAK_WEBHOOK_TIMEOUT_SECONDS.", gt=0)
    per_endpoint: int = env("FIREBREAK_WEBHOOK_PER_ENDPOINT", 4,
                            "Attempts in flight to one endpoint, per worker process.", gt=0)
    concurrency: int = env("FIREBREAK_WEBHOOK_CONCURRENCY", 32, "Attempts in flight, per worker process.", gt=0)
    tick_seconds: float = env("FIREBREAK_WEBHOOK_TICK_SECONDS", 0.2,
                              "How often a sender looks for due deliveries and feeds to forward.", gt=0)
    allowed_hosts: Annotated[tuple[str, ...], NoDecode] = env(
        "FIREBREAK_WEBHOOK_ALLOWED_HOSTS", (),
        "Hosts (names), addresses and networks (10.0.0.0/8) deliveries may reach although they are not public "
        "(loopback, private, link-local...), comma-separated, for a private deployment; empty: only public "
        "addresses.")
    kept_seconds: int = env("FIREBREAK_WEBHOOK_KEPT_SECONDS", 30 * 24 * 3600,
                            "How long a finished (delivered or failed) delivery is kept, in seconds.", ge=60)

    @field_validator("url", mode="after")
    @classmethod
    def _url(cls, value: str) -> str:
        value = value.strip()
        if value and not value.startswith(("http://", "https://")):
            raise ValueError("FIREBREAK_WEBHOOK_URL must be an http:// or https:// URL")
        return value

    @field_validator("secrets", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        return tuple(value.split()) if isinstance(value, str) else value

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        return tuple(part.strip() for part in value.split(",") if part.strip()) if isinstance(value, str) else value

    @field_validator("allowed_hosts", mode="after")
    @classmethod
    def _hosts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        Allowed.of(value)  # raises ValueError naming the entry
        return value

    @field_validator("secrets", mode="after")
    @classmethod
    def _secrets(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not all(check_secret(secret) for secret in value):
            raise ValueError("FIREBREAK_WEBHOOK_SECRET must be whsec_ followed by base64 of 24 to 64 bytes")
        return value

    @property
    def allowed(self) -> Allowed:
        """The hosts and networks deliveries may reach although they are not public."""
        return Allowed.of(self.allowed_hosts)

    @model_validator(mode="after")
    def _consistent(self) -> WebhookSettings:
        if self.url:
            try:
                check_host(urlsplit(self.url).hostname or "", self.allowed)
            except Refused as refused:
                raise ValueError(f"FIREBREAK_WEBHOOK_URL: {refused}") from None
        if self.url and not 1 <= len(self.secrets) <= 2:
            raise ValueError("FIREBREAK_WEBHOOK_SECRET must hold one whsec_ secret (two, space-separated, while "
                             "rotating) when FIREBREAK_WEBHOOK_URL is set")
        if self.lease_seconds <= self.timeout_seconds:
            raise ValueError("FIREBREAK_WEBHOOK_LEASE_SECONDS must exceed FIREBREAK_WEBHOOK_TIMEOUT_SECONDS (an "
                             "attempt must end before its lease does)")
        return self

    def __repr__(self) -> str:
        """The settings without the secrets (a log line or a traceback never shows one)."""
        return (f"WebhookSettings(url={self.url!r}, secrets=<{len(self.secrets)}>, attempts={self.attempts}, "
                f"timeout_seconds={self.timeout_seconds})")
