"""The moderation's tables, on the archive's database (archive.database.metadata): the reports players file, and
the audit log of every admin action (both outlive any process: a report acknowledged is kept)."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Float, Index, Integer, String, Table, Text

from firebreak.archive.database import metadata
from firebreak.archive.tables import MATCH_ID, PLAYER_ID

reports = Table(
    "moderation_reports", metadata,
    Column("id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Column("reporter", String(PLAYER_ID), nullable=True),  # None once the reporter's account is deleted
    Column("player", String(PLAYER_ID), nullable=True),    # the player reported (a message's sender)
    Column("match_id", String(MATCH_ID), nullable=True),    # a reported message's match and place
    Column("channel", String(16), nullable=True),
    Column("seq", Integer, nullable=True),
    Column("message", Text, nullable=True),  # the reported message's text when it was reported
    Column("reason", String(16), nullable=False),  # moderation.reports.Reason
    Column("note", Text, nullable=False),
    Column("status", String(16), nullable=False),  # open | resolved
    Column("resolution", Text, nullable=True),
    Column("resolved_at", Float, nullable=True),
    Index("moderation_reports_by_status", "status", "at", "id"),
)

audit = Table(
    "moderation_audit", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("action", String(32), nullable=False),  # moderation.audit.Action
    Column("player", String(PLAYER_ID), nullable=True),
    Column("report_id", String(32), nullable=True),
    Column("detail", JSON, nullable=False),
)
