"""The audit log: every admin action of the moderation (a report resolved, a mute, a ban, either lifted), written in
the same transaction as the action's own write where it has one, read newest first by the admin API."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import Connection, insert, select

from firebreak.archive.database import Database
from firebreak.moderation.tables import audit

PAGE = 100


class Action(StrEnum):
    """What an admin did."""

    RESOLVE = "resolveReport"
    MUTE = "mutePlayer"
    UNMUTE = "unmutePlayer"
    BAN = "banPlayer"
    UNBAN = "unbanPlayer"


@dataclass(frozen=True)
class Entry:
    """One admin action: its number, when, what, to which player or report, and its details."""

    id: int
    at: float
    action: Action
    player: str | None
    report_id: str | None
    detail: dict[str, Any]


def write(conn: Connection, action: Action, player: str | None = None, report_id: str | None = None,
          **detail: Any) -> None:
    """Record an admin action within the caller's transaction."""
    conn.execute(insert(audit).values(at=time.time(), action=action.value, player=player, report_id=report_id,
                                      detail=detail))


def record(db: Database, action: Action, player: str | None = None, report_id: str | None = None,
           **detail: Any) -> None:
    """Record an admin action in a transaction of its own (an action whose write is in Redis: a mute, a ban)."""
    with db.write() as conn:
        write(conn, action, player, report_id, **detail)


def listing(db: Database, first: int, before: int | None) -> list[Entry]:
    """The newest entries (before the entry id `before`, for the next page)."""
    query = select(audit).order_by(audit.c.id.desc()).limit(max(1, min(first, PAGE)))
    if before is not None:
        query = query.where(audit.c.id < before)
    with db.read() as conn:
        rows = conn.execute(query).mappings().all()
    return [Entry(r["id"], r["at"], Action(r["action"]), r["player"], r["report_id"], dict(r["detail"] or {}))
            for r in rows]
