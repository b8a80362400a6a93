"""The typed result of a stored match: the title's Result once played to its end, an empty one when abandoned."""

from __future__ import annotations

from domain.contract import Match, Result
from matches.store import Loaded

ABANDONED = Result(scores=(), winners=(), reason="abandoned: no person acted for too long, so the service ended it")


def final_result(loaded: Loaded, match: Match) -> Result | None:
    """The result of an over match (None while it is not over); an abandoned match has no scores or winners."""
    if loaded.status != "over":
        return None
    if loaded.end_reason == "abandoned":
        return ABANDONED
    return match.result()
