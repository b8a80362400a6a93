"""Ratings per player and title (OpenSkill, Plackett-Luce), updated once per finished rated match, and the
leaderboards they make (README: How ratings work)."""

from firebreak.ratings import (
    tables as tables,  # the tables join archive.database.metadata before any Database creates them
)
