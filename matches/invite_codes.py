"""Invite codes of private matches: a code is shown once to the creator, and stored only as its SHA-256, which leads
to the match (keys.invite_code) for as long as a waiting match lives."""

from __future__ import annotations

import secrets
from typing import Any

from firebreak.matches import keys
from firebreak.matches.store import hash_token

CODE_BYTES = 12  # 16 URL-safe characters: unguessable, short enough to share in a message
MAX_CODE = 64  # a longer code is refused unread


def new_code() -> str:
    """A fresh invite code."""
    return secrets.token_urlsafe(CODE_BYTES)


async def remember(redis: Any, code: str, match_id: str, ttl: int) -> None:
    """Make the code lead to the match for ttl seconds (the waiting match's time to live)."""
    await redis.set(keys.invite_code(hash_token(code)), match_id, ex=ttl)


async def match_of(redis: Any, code: str) -> str | None:
    """The id of the match a code leads to, or None for a wrong (or expired) code."""
    if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE:
        return None
    found: str | None = await redis.get(keys.invite_code(hash_token(code)))
    return found
