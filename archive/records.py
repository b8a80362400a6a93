"""Writing the archive: a finished match's record, inserted exactly once, by the workers' `archive` finisher.

The finisher runs in the `finished` job (workers/finishing.py) on the match as Redis stores it, before its keys
expire (FIREBREAK_FINISHED_TTL). Its match row and index rows go in one transaction, and the insert does nothing
when the match id is there already (ON CONFLICT DO NOTHING): a job killed mid-archive leaves nothing (the
transaction rolls back) and its re-run inserts the record; two jobs at once leave one record.

Every over match is archived, CANCELLED ones too: the players' history pages list them today (my matches, OVER),
and keep listing them once Redis lets them go; a cancelled match has no log and no result but the end reason.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy import Connection, Insert, insert, select
from sqlalchemy.dialects import postgresql, sqlite

from firebreak.archive.database import Database
from firebreak.archive.tables import archived_matches, archived_players
from firebreak.matches import packing
from firebreak.matches.lifecycle import MatchStatus, SeatKind
from firebreak.matches.mine import players
from firebreak.matches.reading import FinalResult, Reading
from firebreak.matches.store import Loaded, MatchStore

log = logging.getLogger("firebreak.archive")


class NotArchivable(RuntimeError):
    """The match is not over, or its log could not be read whole (the job fails and is retried)."""


def public_seats(loaded: Loaded) -> list[dict[str, Any]]:
    """Who sat where, public facts only (never a token hash): a player's id, a bot's level, an anonymous seat (a
    person who joined without a player credential), or a deleted player's seat (no id: players/deletion.py);
    control says why the service played a person's seat."""
    out: list[dict[str, Any]] = []
    for seat in range(loaded.seat_count):
        record = loaded.seats.get(seat)
        if record is None:
            out.append({"seat": seat, "kind": "open"})
            continue
        kind = ("bot" if record.kind is SeatKind.BOT else "deleted" if record.deleted
                else "anonymous" if record.player is None else "player")
        out.append({"seat": seat, "kind": kind, "name": record.name, "player": record.player,
                    "level": record.level, "program": record.program,
                    "control": None if record.control is None else record.control.value})
    return out


def result_json(result: FinalResult | None) -> dict[str, Any] | None:
    """How the match came out, as plain data (None: no result)."""
    if result is None:
        return None
    return {"endReason": result.end_reason.value, "reason": result.reason, "winners": list(result.winners),
            "resigned": list(result.resigned),
            "scores": [{"seat": s.seat, "total": s.total, "parts": dict(s.parts)} for s in result.scores]}


def match_row(loaded: Loaded, log_entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The archive row of an over match and its whole log."""
    meta = loaded.meta
    result = Reading.of(loaded, None).result()
    reason = loaded.end_reason
    assert reason is not None
    stored = {"meta": meta, "seats": {str(seat): record.to_json() for seat, record in loaded.seats.items()},
              "v": loaded.version, "data": loaded.data}
    return {"match_id": loaded.id, "title": meta["title"], "seat_count": loaded.seat_count,
            "options": loaded.meta_options(), "seed": str(int(meta["seed"])), "seats": public_seats(loaded),
            "private": not loaded.listed, "created_at": float(meta["created"]),
            "started_at": float(meta["started"]) if "started" in meta else None, "ended_at": last_activity(loaded),
            "end_reason": reason.value, "final_version": loaded.version,
            "winners": None if result is None else list(result.winners), "result": result_json(result),
            "log": log_entries, "stored": packing.pack(stored), "archived_at": time.time()}


def last_activity(loaded: Loaded) -> float:
    """When the match last changed: the time the players' index orders it by (matches.mine.row_of's)."""
    return float(loaded.meta.get("at", loaded.meta.get("created", 0.0)))


def _insert_once(conn: Connection, table: Any, rows: list[dict[str, Any]], keys: list[str]) -> int:
    """Insert rows, skipping those whose primary key is there already; return how many went in."""
    if not rows:
        return 0
    statement: Insert
    name = conn.dialect.name
    if name == "postgresql":
        statement = postgresql.insert(table).on_conflict_do_nothing(index_elements=keys)
    elif name == "sqlite":
        statement = sqlite.insert(table).on_conflict_do_nothing(index_elements=keys)
    else:  # another backend: look first (the write transaction serialises writers on SQLite; others: key clash)
        present = {tuple(r) for r in conn.execute(select(*(table.c[k] for k in keys)))}
        rows = [row for row in rows if tuple(row[k] for k in keys) not in present]
        statement = insert(table)
        if not rows:
            return 0
    inserted = 0
    for row in rows:  # one at a time: RETURNING says whether each went in (an executemany's rowcount may not)
        inserted += len(conn.execute(statement.returning(table.c[keys[0]]), row).all())
    return inserted


def store_record(db: Database, row: dict[str, Any], seats: dict[str, int]) -> bool:
    """Insert a match's row and its players' index rows in one transaction unless the match is archived already;
    return whether this call archived it."""
    with db.write() as conn:
        if not _insert_once(conn, archived_matches, [row], ["match_id"]):
            return False
        _insert_once(conn, archived_players, [
            {"player_id": player, "match_id": row["match_id"], "seat": seat, "ended_at": row["ended_at"]}
            for player, seat in sorted(seats.items())], ["player_id", "match_id"])
    return True


def is_archived(db: Database, match_id: str) -> bool:
    """Whether the match has its archive record."""
    with db.read() as conn:
        found = conn.execute(select(archived_matches.c.match_id).where(archived_matches.c.match_id == match_id))
        return found.first() is not None


async def archive_match(db: Database, store: MatchStore, loaded: Loaded) -> bool:
    """The `archive` finisher: keep an over match (its record and its players' index rows) in the archive, once;
    return whether this call archived it (False: it was already). Raise NotArchivable for a match not over or
    whose log cannot be read whole (the finished job then fails, and its entry is handed out again)."""
    if loaded.status is not MatchStatus.OVER:
        raise NotArchivable(f"match {loaded.id} is not over")
    found = await store.history(loaded.id)
    entries = [] if found is None else found[2]
    if len(entries) != loaded.version:
        if await db.run(is_archived, db, loaded.id):  # archived before its log went astray: nothing more to do
            return False
        raise NotArchivable(f"match {loaded.id}: its log holds {len(entries)} steps, its version is {loaded.version}")
    # one trip to the database: the record goes in unless it is there already (store_record inserts once)
    done = await db.run(store_record, db, match_row(loaded, entries), players(loaded))
    if done:
        log.info("match %s archived (%s, %d steps)", loaded.id, loaded.end_reason, loaded.version)
    return done
