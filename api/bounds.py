"""The bounds both surfaces put on what a caller asks for (page sizes, the idempotency key's length)."""

from __future__ import annotations

MAX_PAGE = 100  # matches of a lobby page
MAX_EVENTS_PAGE = 500  # steps of an events page
MAX_IDEMPOTENCY_KEY = 128  # characters of an idempotency key
