"""Typed errors raised by the domain layer."""

from __future__ import annotations


class DomainError(Exception):
    """Raised when the domain layer refuses something; base of every domain error."""

    code = "DOMAIN_ERROR"


class DataError(DomainError):
    """Raised when a data file (board, components) is malformed; the message names the bad entry."""

    code = "BAD_DATA"


class RulesError(DomainError):
    """Raised when an action or request breaks the rules; the match is left unchanged."""

    code = "RULES_ERROR"


class MalformedAction(RulesError):
    """Raised when an action is not a JSON object with a known "type"."""

    code = "MALFORMED_ACTION"


class IllegalAction(RulesError):
    """Raised when an action is well formed but not among the seat's legal actions."""

    code = "ILLEGAL_ACTION"


class UnknownActionId(RulesError):
    """Raised when an action id is not an index into the title's action space."""

    code = "UNKNOWN_ACTION_ID"


class NotYourTurn(RulesError):
    """Raised when a seat acts while it owes no decision."""

    code = "NOT_YOUR_TURN"


class GameOver(RulesError):
    """Raised when anything is submitted to a match that has ended."""

    code = "GAME_OVER"


class UnknownSeat(RulesError):
    """Raised when a seat number is outside the match's seats."""

    code = "UNKNOWN_SEAT"


class NoSystemStep(RulesError):
    """Raised when an automated step is asked for while a seat owes the decision (or the match is over)."""

    code = "NO_SYSTEM_STEP"


class BadOptions(DomainError):
    """Raised when a new match is asked for with unknown options or a seat count the title does not support."""

    code = "BAD_OPTIONS"


class UnknownTitle(DomainError):
    """Raised when a title id is not in the registry."""

    code = "UNKNOWN_TITLE"


def check_seat(seat: object, seats: int) -> int:
    """Return the seat; raise UnknownSeat unless it is a seat number (0-based) of a match with this many seats."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise UnknownSeat(f"seat {seat!r} is not a seat of this {seats}-seat match")
    return seat
