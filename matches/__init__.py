"""Live matches: Redis persistence and the apply pipeline that both the API and the workers run."""
