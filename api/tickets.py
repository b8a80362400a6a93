"""One-time tickets: a short-lived, single-use opaque value that stands in for a credential where no header can be
sent (a download link, a browser's EventSource), so that no long-lived credential is ever put in a URL.

A ticket (<prefix><secret>) is kept only as its SHA-256 under a key of its kind, holding what it was issued for, with
a short time to live; its one use takes it (GETDEL), so a ticket seen in a URL afterwards (browser history, a proxy's
log) is worthless. The data export's download (api/account_export.py) and the player's event stream
(api/stream_tickets.py) each have a kind.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from firebreak.matches.store import hash_token

LONGEST = 100  # characters of a presented ticket worth looking up


@dataclass(frozen=True)
class TicketKind:
    """One kind of ticket: its prefix (what a ticket of this kind starts with), the name of its keys, and how many
    seconds a ticket lives unless used."""

    prefix: str
    name: str
    ttl: int

    def key(self, ticket: str) -> str:
        """The Redis key of a ticket: its SHA-256 only (outside any player's slot)."""
        return f"players:{self.name}:{hash_token(ticket)}"

    def looks_like(self, presented: str) -> bool:
        """Whether a presented value has this kind's shape (anything else is never looked up)."""
        return presented.startswith(self.prefix) and len(presented) <= LONGEST

    async def issue(self, redis: object, value: str) -> tuple[str, int]:
        """A fresh ticket holding the value, and how many seconds it lives."""
        ticket = f"{self.prefix}{secrets.token_urlsafe(32)}"
        await redis.set(self.key(ticket), value, ex=self.ttl)  # type: ignore[attr-defined]
        return ticket, self.ttl

    async def redeem(self, redis: object, ticket: str) -> str | None:
        """The value a ticket was issued with, taking it (it works once), or None for a ticket unknown, used, expired
        or not of this kind."""
        if not self.looks_like(ticket):
            return None
        held = await redis.getdel(self.key(ticket))  # type: ignore[attr-defined]
        return None if held is None else str(held)
