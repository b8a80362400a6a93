"""A match's history: its log of steps, kept compact, and the events of any step recomputed from the seed and log.

The log (keys.log) is a list whose items are either one step's entry (plain JSON, the newest steps) or a packed
chunk of CHUNK entries in order (packing.pack): every CHUNK steps the committer folds the oldest plain entries
into a chunk, so a long match's log takes a few compressed values. Entries are {"seat", "action"} (with "bot" and
"takeover" for the service's moves), {"system": true} for a non-player step, or {"service": ..., "events": [...]}
for a step that changes no game state (the service ended the match; a seat resigned or was reclaimed, with
"seat"); "pre" holds events the service stored before the engine's (a clock run
out, a seat returned).

The events stream keeps only the newest steps (EVENTS_KEPT): a reader further behind gets its steps from a
replay of the seed and log, which gives exactly the events that were stored (the engine is deterministic), in
time linear in the match's length.
"""

from __future__ import annotations

from typing import Any

from firebreak.domain import titles
from firebreak.domain.contract import Event, Match
from firebreak.matches import packing

CHUNK = 64          # log entries per packed chunk
EVENTS_KEPT = 16    # steps the events stream keeps (resuming from further back replays the log)

Rows = list[tuple[int, list[Any]]]


def entries(items: list[str]) -> list[dict[str, Any]]:
    """The log's entries in order, from its stored items (packed chunks and plain entries)."""
    out: list[dict[str, Any]] = []
    for item in items:
        if packing.is_packed(item):
            out.extend(packing.unpack(item))
        else:
            out.append(packing.loads(item))
    return out


def foldable(items: list[str]) -> tuple[int, list[str], int]:
    """How to compact a stored log: (chunks before the plain entries, the new packed chunks, entries folded)."""
    chunks = sum(1 for item in items if packing.is_packed(item))
    plain = [packing.loads(item) for item in items[chunks:]]
    whole = len(plain) - len(plain) % CHUNK
    packed = [packing.pack(plain[i:i + CHUNK]) for i in range(0, whole, CHUNK)]
    return chunks, packed, whole


def step_events(match: Match, entry: dict[str, Any]) -> list[Event]:
    """Apply one logged step to the match again; return the events that step stored."""
    if "service" in entry:  # the service's own step (a resignation, a reclaimed seat, abandonment): counted only
        match.version += 1
        return list(entry.get("events", []))
    pre: list[Event] = list(entry.get("pre", []))
    if entry.get("system"):
        return [*pre, *match.run_system_step()]
    return [*pre, *match.apply(entry["seat"], entry["action"])]


def replay(meta: dict[str, str], log: list[dict[str, Any]], after: int, count: int) -> Rows:
    """The stored events of the steps after version `after` (at most count steps), from the seed and log."""
    title = titles.get(meta["title"])
    match = title.new_match(seats=int(meta["seats"]), seed=int(meta["seed"]),
                            options=packing.loads(meta.get("options", "{}")))
    rows: Rows = []
    for version, entry in enumerate(log, start=1):
        events = step_events(match, entry)
        if version > after:
            rows.append((version, events))
            if len(rows) >= count:
                break
    return rows
