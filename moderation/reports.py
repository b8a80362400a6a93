"""Reports: a player reports another player, or a chat message (its text kept as it was when reported), with a
reason from a fixed list and an optional note; the operator lists them and resolves them (the audit log records
it). Kept in the archive's database: a report the API acknowledged survives any process."""

from __future__ import annotations

import base64
import binascii
import secrets
import time
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import and_, insert, or_, select, update

from firebreak.archive.database import Database
from firebreak.moderation import audit
from firebreak.moderation.tables import audit as audit_table
from firebreak.moderation.tables import reports

NOTE_MAX = 1000
PAGE = 100


class Reason(StrEnum):
    """Why a player is reported."""

    SPAM = "spam"
    ABUSE = "abuse"          # insults, harassment, hate
    CHEATING = "cheating"    # a bot played as a person, collusion
    NAME = "name"            # an offensive handle or display name
    OTHER = "other"


class Status(StrEnum):
    """Where a report is."""

    OPEN = "open"
    RESOLVED = "resolved"


class BadCursor(ValueError):
    """Raised for an `after` that is not a cursor of the reports."""


@dataclass(frozen=True)
class Report:
    """A report as kept."""

    id: str
    at: float
    reporter: str | None
    player: str | None
    match_id: str | None
    channel: str | None
    seq: int | None
    message: str | None
    reason: Reason
    note: str
    status: Status
    resolution: str | None
    resolved_at: float | None


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _number(value: object) -> float | None:
    return None if value is None else float(str(value))


def _report(r: dict[str, object]) -> Report:
    """A report from its row (a mapping of the reports table's columns)."""
    seq = _number(r["seq"])
    return Report(str(r["id"]), float(str(r["at"])), _text(r["reporter"]), _text(r["player"]), _text(r["match_id"]),
                  _text(r["channel"]), None if seq is None else int(seq), _text(r["message"]),
                  Reason(str(r["reason"])), str(r["note"]), Status(str(r["status"])), _text(r["resolution"]),
                  _number(r["resolved_at"]))


def file(db: Database, reporter: str, player: str | None, reason: Reason, note: str, match_id: str | None = None,
         channel: str | None = None, seq: int | None = None, message: str | None = None) -> Report:
    """Keep a new open report; return it."""
    row = {"id": secrets.token_hex(8), "at": time.time(), "reporter": reporter, "player": player,
           "match_id": match_id, "channel": channel, "seq": seq, "message": message, "reason": reason.value,
           "note": note, "status": Status.OPEN.value, "resolution": None, "resolved_at": None}
    with db.write() as conn:
        conn.execute(insert(reports).values(**row))
    return _report(row)


def cursor_of(report: Report) -> str:
    """The cursor after a report (its time and id)."""
    return base64.urlsafe_b64encode(f"{report.at!r} {report.id}".encode()).decode().rstrip("=")


def _parse(cursor: str) -> tuple[float, str]:
    try:
        at, _, report_id = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().partition(" ")
        return float(at), report_id
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise BadCursor("after is not a cursor of the reports") from None


def listing(db: Database, status: Status | None, first: int, after: str | None) -> tuple[list[Report], bool]:
    """Reports (of a status, or all), oldest first, after a cursor; and whether more follow."""
    limit = max(1, min(first, PAGE))
    query = select(reports).order_by(reports.c.at, reports.c.id).limit(limit + 1)
    if status is not None:
        query = query.where(reports.c.status == status.value)
    if after is not None:
        at, report_id = _parse(after)
        query = query.where(or_(reports.c.at > at, and_(reports.c.at == at, reports.c.id > report_id)))
    with db.read() as conn:
        rows = [_report(dict(r)) for r in conn.execute(query).mappings()]
    return rows[:limit], len(rows) > limit


def resolve(db: Database, report_id: str, resolution: str) -> Report | None:
    """Resolve an open report (a resolved one is answered as it is); None for an unknown id. The audit log records
    it in the same transaction."""
    with db.write() as conn:
        row = conn.execute(select(reports).where(reports.c.id == report_id)).mappings().first()
        if row is None:
            return None
        if row["status"] == Status.RESOLVED.value:
            return _report(dict(row))
        now = time.time()
        conn.execute(update(reports).where(reports.c.id == report_id)
                     .values(status=Status.RESOLVED.value, resolution=resolution, resolved_at=now))
        audit.write(conn, audit.Action.RESOLVE, row["player"], report_id, resolution=resolution)
        return _report({**dict(row), "status": Status.RESOLVED.value, "resolution": resolution, "resolved_at": now})


def erase_player(db: Database, player: str) -> int:
    """Take a deleted account out of the reports and the audit log: as reporter, as reported player (and the text
    of its reported messages); return how many rows changed."""
    with db.write() as conn:
        changed = conn.execute(update(reports).where(reports.c.reporter == player).values(reporter=None)).rowcount
        changed += conn.execute(update(reports).where(reports.c.player == player)
                                .values(player=None, message=None)).rowcount
        changed += conn.execute(update(audit_table).where(audit_table.c.player == player)
                                .values(player=None)).rowcount
        return int(changed)
