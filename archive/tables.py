"""The archive's tables: one row per finished match, and the (player, match) index the history pages read.

A match row holds what was public about it (title, options, seed, seats, times, end reason, result) in plain
columns, the whole action log as Redis stored it (matches/history.py: enough to replay every step), and `stored`:
the match's meta, seat records and final engine state packed as Redis held them, so that the reads that served it
from Redis serve it the same from here (seat token hashes included: a seat's token still reads its own view). The
export (archive/export.py) takes only public facts, never `stored`.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, String, Table, Text

from firebreak.archive.database import metadata

MATCH_ID = 64  # the longest match id (matches.store.valid_id)
PLAYER_ID = 64

archived_matches = Table(
    "archived_matches", metadata,
    Column("match_id", String(MATCH_ID), primary_key=True),
    Column("title", String(64), nullable=False),
    Column("seat_count", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", Text, nullable=False),  # an integer of any size, as text
    Column("seats", JSON, nullable=False),  # [{seat, kind (player | bot | anonymous), name, player, level, ...}]
    Column("private", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float, nullable=True),  # null: never started (cancelled), or started before it was kept
    Column("ended_at", Float, nullable=False),  # also the last activity the history pages order by
    Column("end_reason", String(16), nullable=False),  # matches.lifecycle.EndReason
    Column("final_version", Integer, nullable=False),
    Column("winners", JSON, nullable=True),  # the winning seats ([] abandoned or cancelled)
    Column("result", JSON, nullable=True),  # {endReason, reason, winners, resigned, scores: [{seat, total, parts}]}
    Column("log", JSON, nullable=False),  # every step's entry in order, as matches/history.py stores it
    Column("stored", Text, nullable=False),  # packed {meta, seats, v, data}: never exported
    Column("archived_at", Float, nullable=False),
)

archived_players = Table(
    "archived_match_players", metadata,
    Column("player_id", String(PLAYER_ID), primary_key=True),
    Column("match_id", String(MATCH_ID), ForeignKey("archived_matches.match_id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("ended_at", Float, nullable=False),
    Index("archived_match_players_page", "player_id", "ended_at", "match_id"),
)
