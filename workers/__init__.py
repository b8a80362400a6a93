"""RQ workers: they run bot seats and 2-player non-player turns through the same pipeline as the API."""
