"""Ratings per player and title (OpenSkill, Plackett-Luce), updated once per finished rated match, and the
leaderboards they make."""
