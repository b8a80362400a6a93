"""Events and who may see them: an event with an "audience" list is private to those seats."""

from __future__ import annotations

from firebreak.domain.contract import Event


def visible_to(events: list[Event], viewer: int | None) -> list[Event]:
    """Return the events a seat (None: a spectator) may see, in order."""
    return [e for e in events if "audience" not in e or (viewer is not None and viewer in e["audience"])]
