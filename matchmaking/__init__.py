"""Seeks: players queue for a game, and the workers seat compatible seekers at one table."""
