"""The archive's table of chat messages (on the archive's database: archive.database.metadata), one row per message
of a finished match, kept after Redis lets the match go."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Integer, String, Table, Text

from firebreak.archive.database import metadata
from firebreak.archive.tables import MATCH_ID, PLAYER_ID

archived_chat = Table(
    "archived_chat", metadata,
    Column("match_id", String(MATCH_ID), primary_key=True),
    Column("channel", String(16), primary_key=True),  # chat.store.Channel
    Column("seq", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("player_id", String(PLAYER_ID), nullable=True),  # None: a seat token's person, or removed
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("preset", String(32), nullable=True),
    Column("removed", Boolean, nullable=False),
)
