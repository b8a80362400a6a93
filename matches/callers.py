"""Who is calling, as the live-match layer sees it: a seat's (or a match's host) token, or a player's id.

The API resolves a request's credential once into a Caller; every place that finds the caller's seat asks
`Loaded.seat_of(caller)`, the one place that does it. A player's credential acts for every seat bound to that
player (from any device); a seat token for its own seat only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Caller:
    """A request's caller: a seat or host token (today's credentials), or the id of an authenticated player;
    neither for a spectator. `program` says a player acts through a credential made for a program (a bot)."""

    token: str | None = None
    player: str | None = None
    program: bool = False


NOBODY = Caller()
