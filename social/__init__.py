"""Players who know each other: search by handle, public profiles, friends with presence, and blocks."""
