"""The operator's admin credential (FIREBREAK_ADMIN_TOKEN): only its SHA-256 is kept, a presented bearer token is
compared by hash in constant time, and neither is ever logged or echoed. Unset: the admin API refuses everyone."""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firebreak.api.context import Context

MIN_LENGTH = 24  # an admin token shorter than this is refused at start


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
        env = os.environ if environ is None else environ
        return cls(env.get("FIREBREAK_ADMIN_TOKEN", ""))

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
