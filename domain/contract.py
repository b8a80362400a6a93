"""The game-agnostic contract every title implements; the API and workers only speak this."""

from __future__ import annotations

from typing import Any, Protocol

JSON = Any
Action = dict[str, Any]
Event = dict[str, Any]


class Match(Protocol):
    """A live match of some title: whose decision is pending, legal actions, apply, views, result."""

    title_id: str
    seats: int
    version: int

    def to_act(self) -> list[int]:
        """Return the seats owing a decision now ([] when the match is over)."""
        ...

    def legal_actions(self, seat: int) -> list[Action]:
        """Return the JSON-able actions the seat may take now ([] for a seat not to act)."""
        ...

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply an action and return its events; raise a RulesError and change nothing if illegal."""
        ...

    def system_due(self) -> bool:
        """Return True when the next step is the service's (e.g. a non-player turn), not a seat's."""
        ...

    def run_system_step(self) -> list[Event]:
        """Perform the next automated step and return its events."""
        ...

    def view(self, seat: int | None) -> dict[str, JSON]:
        """Return what the seat (None: a spectator) may see."""
        ...

    def is_over(self) -> bool:
        """Return True once the match has ended."""
        ...

    def result(self) -> dict[str, JSON] | None:
        """Return the scores and winners once over, else None."""
        ...

    def to_dict(self) -> dict[str, JSON]:
        """Return the whole state as JSON-able data (secret parts included: never send it to a client)."""
        ...

    def clone(self) -> Match:
        """Return an independent copy."""
        ...


class Title(Protocol):
    """A playable game: metadata, options, and the factory for matches."""

    id: str
    name: str
    min_seats: int
    max_seats: int

    def options(self) -> dict[str, JSON]:
        """Return the options this title accepts, with their defaults and descriptions."""
        ...

    def new_match(self, seats: int, seed: int, options: dict[str, JSON] | None = None) -> Match:
        """Set up a new match from a seed; raise BadOptions for a seat count or option it does not support."""
        ...

    def board(self) -> dict[str, JSON] | None:
        """Return the map data a client draws (None for a title without a board)."""
        ...

    def match_from_dict(self, data: dict[str, JSON]) -> Match:
        """Rebuild a match from to_dict() output."""
        ...
