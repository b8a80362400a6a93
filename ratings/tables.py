"""The ratings' tables, on the archive's database (archive.database.metadata): one rating per (title, key) and one
row per rated seat of every rated match (its primary key makes a match's update happen once)."""

from __future__ import annotations

from sqlalchemy import Column, Double, Index, Integer, String, Table

from firebreak.archive.database import metadata

KEY = 80  # a player id or bot:<level>

ratings = Table(
    "ratings", metadata,
    Column("title", String(64), primary_key=True),
    Column("key", String(KEY), primary_key=True),  # a player's id, or bot:<level> for a bot level
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("games", Integer, nullable=False),  # rated matches played
    Column("updated", Double, nullable=False),  # epoch seconds of the last change
    Index("ratings_board", "title", "mu", "key"),  # the leaderboard's order (read backwards: highest first)
)

rating_changes = Table(
    "rating_changes", metadata,
    Column("match_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("title", String(64), nullable=False),
    Column("key", String(KEY), nullable=False),
    Column("place", Integer, nullable=False),  # 1 = first; equal places are ties
    Column("mu_before", Double, nullable=False),
    Column("sigma_before", Double, nullable=False),
    Column("mu_after", Double, nullable=False),
    Column("sigma_after", Double, nullable=False),
    Column("games_after", Integer, nullable=False),  # the key's rated matches once this one counted
    Column("at", Double, nullable=False),
    Index("rating_changes_key", "key", "match_id"),
)
