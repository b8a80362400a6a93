"""The Great Fire's own bots: greedy (with rating and plans) and the search (with rollout, lookahead, opening)."""
