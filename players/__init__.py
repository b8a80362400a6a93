"""Players: who is playing (guests, the operator's accounts, bots), their sessions and their access tokens."""
