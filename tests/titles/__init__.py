"""Titles used only by the tests and benches (registered for a test session, never shipped)."""
