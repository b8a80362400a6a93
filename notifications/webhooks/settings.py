"""The webhooks' settings, read once from the environment (FIREBREAK_WEBHOOK_*)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass

from firebreak.notifications.webhooks.signing import check_secret


@dataclass(frozen=True)
class WebhookSettings:
    """What a deployment may tune about webhooks; every field has a working default."""

    url: str = ""                    # FIREBREAK_WEBHOOK_URL: the settings' endpoint (every event type); "": none
    secrets: tuple[str, ...] = ()    # FIREBREAK_WEBHOOK_SECRET: its whsec_ secret (two, space-separated, to rotate)
    attempts: int = 12               # attempts of one delivery before it is marked failed
    retry_seconds: float = 60.0      # the wait after the first failed attempt; doubles after each failure...
    retry_cap_seconds: float = 8 * 3600.0  # ...up to this (12 attempts span about a day), with +-20 % jitter
    timeout_seconds: float = 10.0    # one attempt's whole budget (connect, send, answer)
    lease_seconds: float = 30.0      # how long an attempt holds its delivery (a killed sender's comes due after it)
    per_endpoint: int = 4            # attempts in flight to one endpoint, per worker process
    concurrency: int = 32            # attempts in flight, per worker process
    tick_seconds: float = 0.2        # how often a sender looks for due deliveries and feeds to forward
    kept_seconds: int = 30 * 24 * 3600  # how long a finished (delivered or failed) delivery is kept

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WebhookSettings:
        """Read the FIREBREAK_WEBHOOK_* variables over the defaults (ValueError names a bad one, never a secret)."""
        env = os.environ if environ is None else environ
        base = cls()

        def number(name: str, default: float, low: float = 0.0) -> float:
            raw = env.get(name, "")
            try:
                value = float(raw) if raw.strip() else default
            except ValueError:
                value = math.nan
            if not low < value < math.inf:
                raise ValueError(f"{name} must be a number above {low:g}")
            return value

        url = env.get("FIREBREAK_WEBHOOK_URL", "").strip()
        secrets = tuple(env.get("FIREBREAK_WEBHOOK_SECRET", "").split())
        if url and not url.startswith(("http://", "https://")):
            raise ValueError("FIREBREAK_WEBHOOK_URL must be an http:// or https:// URL")
        if url and not 1 <= len(secrets) <= 2:
            raise ValueError("FIREBREAK_WEBHOOK_SECRET must hold one whsec_ secret (two, space-separated, while "
                             "rotating) when FIREBREAK_WEBHOOK_URL is set")
        for secret in secrets:
            if not check_secret(secret):
                raise ValueError("FIREBREAK_WEBHOOK_SECRET must be whsec_ followed by base64 of 24 to 64 bytes")
        settings = cls(
            url=url, secrets=secrets,
            attempts=int(number("FIREBREAK_WEBHOOK_ATTEMPTS", base.attempts, 0.5)),
            retry_seconds=number("FIREBREAK_WEBHOOK_RETRY_SECONDS", base.retry_seconds),
            retry_cap_seconds=number("FIREBREAK_WEBHOOK_RETRY_CAP_SECONDS", base.retry_cap_seconds),
            timeout_seconds=number("FIREBREAK_WEBHOOK_TIMEOUT_SECONDS", base.timeout_seconds),
            lease_seconds=number("FIREBREAK_WEBHOOK_LEASE_SECONDS", base.lease_seconds),
            per_endpoint=int(number("FIREBREAK_WEBHOOK_PER_ENDPOINT", base.per_endpoint, 0.5)),
            concurrency=int(number("FIREBREAK_WEBHOOK_CONCURRENCY", base.concurrency, 0.5)),
            tick_seconds=number("FIREBREAK_WEBHOOK_TICK_SECONDS", base.tick_seconds),
            kept_seconds=int(number("FIREBREAK_WEBHOOK_KEPT_SECONDS", base.kept_seconds, 59)),
        )
        if settings.lease_seconds <= settings.timeout_seconds:
            raise ValueError("FIREBREAK_WEBHOOK_LEASE_SECONDS must exceed FIREBREAK_WEBHOOK_TIMEOUT_SECONDS (an "
                             "attempt must end before its lease does)")
        return settings

    def __repr__(self) -> str:
        """The settings without the secrets (a log line or a traceback never shows one)."""
        return (f"WebhookSettings(url={self.url!r}, secrets=<{len(self.secrets)}>, attempts={self.attempts}, "
                f"timeout_seconds={self.timeout_seconds})")
