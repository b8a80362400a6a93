"""The match as it stands after a step, read once per step by one API process however many subscribers ask.

A subscription that selects MatchEvent.match needs the state after the step it delivers; every subscriber of the
match wants the same read at the same moment, so the first asks Redis and the others await its answer. Views
are then computed once per (step, seat) through the shared per-seat cache the Match type memoizes into.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from matches.store import Loaded, MatchStore

KEPT = 256  # recent steps remembered (a few per live match with subscribers)


class Snapshots:
    """An LRU of (match id, version) -> the stored match at that version (None once it has moved on)."""

    def __init__(self, store: MatchStore, kept: int = KEPT) -> None:
        self.store = store
        self.kept = kept
        self._reads: OrderedDict[tuple[str, int], asyncio.Future[Loaded | None]] = OrderedDict()
        self._memos: dict[tuple[str, int], dict[int | None, dict[str, Any]]] = {}

    async def at(self, match_id: str, version: int) -> Loaded | None:
        """The match at this version, or None when it is unknown or has already moved past it."""
        key = (match_id, version)
        pending = self._reads.get(key)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._reads[key] = pending
            self._trim()
            try:
                loaded = await self.store.load(match_id)
            except BaseException as exc:
                self._reads.pop(key, None)
                pending.set_exception(exc)
                pending.exception()  # retrieved: the waiters re-raise it
                raise
            pending.set_result(loaded if loaded is not None and loaded.version == version else None)
        else:
            self._reads.move_to_end(key)
        return await asyncio.shield(pending)

    def seat_cache(self, match_id: str, version: int, seat: int | None) -> dict[str, Any]:
        """The memo shared by every subscriber who sees this step from this seat (view, legal actions...)."""
        return self._memos.setdefault((match_id, version), {}).setdefault(seat, {})

    def _trim(self) -> None:
        while len(self._reads) > self.kept:
            key, _ = self._reads.popitem(last=False)
            self._memos.pop(key, None)
