"""The operator's admin credential (FIREBREAK_ADMIN_TOKEN): only its SHA-256 is kept, a presented bearer token is
compared by hash in constant time, and neither is ever logged or echoed. Unset: the admin API refuses everyone."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from pydantic import field_validator

from firebreak.matches.envsettings import EnvSettings, env

if TYPE_CHECKING:
    from firebreak.api.context import Context

MIN_LENGTH = 24  # an admin token shorter than this is refused at start


class AdminSettings(EnvSettings):
    """The operator's admin token (the API keeps only its hash)."""

    section: ClassVar[str] = "Admin API"

    admin_token: str = env("FIREBREAK_ADMIN_TOKEN", "",
                           f"The bearer token of the admin API (webhook endpoints and deliveries; reports, mutes, bans "
                           f"and the moderation log), at least {MIN_LENGTH} "
                           "characters; empty: the admin API refuses everyone.", secret=True)

    @field_validator("admin_token", mode="after")
    @classmethod
    def _long_enough(cls, value: str) -> str:
        value = value.strip()
        if value and len(value) < MIN_LENGTH:
            raise ValueError(f"FIREBREAK_ADMIN_TOKEN must be at least {MIN_LENGTH} characters")
        return value


class AdminCredential:
    """Checks bearer tokens against the admin token's hash."""

    def __init__(self, token: str = "") -> None:
        token = token.strip()
        if token and len(token) < MIN_LENGTH:
            raise ValueError(f"FIREBREAK_ADMIN_TOKEN must be at least {MIN_LENGTH} characters")
        self._hash = _digest(token) if token else None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> AdminCredential:
        """The credential FIREBREAK_ADMIN_TOKEN sets (none: the admin API is closed)."""
        return cls.from_settings(AdminSettings.from_env(environ))

    @classmethod
    def from_settings(cls, settings: AdminSettings) -> AdminCredential:
        """The credential the settings' admin token sets."""
        return cls(settings.admin_token)

    @property
    def configured(self) -> bool:
        """Whether an admin token is set."""
        return self._hash is not None

    def allows(self, token: str | None) -> bool:
        """Whether a bearer token is the admin token (constant time over the hashes)."""
        if self._hash is None or not token:
            return False
        return hmac.compare_digest(_digest(token), self._hash)

    def __repr__(self) -> str:
        """Never the hash."""
        return f"AdminCredential(configured={self.configured})"


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


async def is_admin(context: Context) -> bool:
    """Whether the request carries the admin token; a wrong credential presented counts as a failed
    authentication (RATE_LIMITED past the limit, as for any other credential)."""
    context.check_not_blocked()
    if context.services.admin.allows(context.token):
        return True
    if context.presented:
        await context.auth_failed()
    return False
