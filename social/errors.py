"""The social room's refusal: one exception carrying a registered code (matches/refusals.py)."""

from __future__ import annotations

from firebreak.matches.refusals import Refusal


class SocialError(Exception):
    """Raised when a search, friendship or block operation cannot be done; `code` says which way, `message` says it
    to a person (never whether the other player blocked the caller: that refusal is NOT_ACCEPTED, given for every
    reason the other side cannot take it)."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def not_accepted(what: str) -> SocialError:
    """The generic refusal of an act that needs the other player's consent (a friend request, an invitation, a
    rematch offer): the same whichever reason stops it (their lists are full, or they block the caller)."""
    return SocialError(Refusal.NOT_ACCEPTED, f"this player does not take {what} from you now")
