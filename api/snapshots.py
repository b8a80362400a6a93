"""The match as it stands after a step, read once per step by one API process however many subscribers ask.

A subscription that selects MatchEvent.match needs the state after the step it delivers; every subscriber of the
match wants the same read at the same moment, so the first asks Redis and the others await its answer. Views
are then computed once per (step, seat) through the shared per-seat memo of the read model (matches.reading).

MatchEvent.viewChanges sends a subscriber only what changed in its view: each subscription keeps a ViewTrail (the
view it last delivered, which is the shared cache's own object, so a subscriber costs a reference, not a view), and
the patch from one version's view to the next is computed once per (step, seat, base version) in the same cache.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from firebreak.api.view_diff import Op, diff
from firebreak.matches.store import Loaded, MatchStore

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


class ViewTrail:
    """One subscription's last delivered view (and that delivery's patch), the base of its next viewChanges."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        self.changes: list[Op] = []

    def advance(self, version: int, view: dict[str, Any], cache: dict[str, Any]) -> list[Op]:
        """The patch from the last delivered view to this version's view (the first time: one op replacing the
        whole document with it), computed once per base version in the step's per-seat cache; the view becomes
        the delivered one."""
        if version == self.version:  # the same step asked twice (an aliased field): the same answer
            return self.changes
        if self.version is None:  # (view and version are set together)
            changes: list[Op] = [{"op": "replace", "path": "", "value": view}]
        else:
            key = f"viewChanges@{self.version}"
            if key not in cache:
                cache[key] = diff(self.view, view)
            changes = cache[key]
        self.version, self.view, self.changes = version, view, changes
        return changes
