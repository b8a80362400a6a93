"""The moderation's REST answer bodies as pydantic models (see responses.py): GraphQL's ReportFiled, Report,
ReportPage, ReportResolved, PlayerMuted, PlayerBanned, PenaltyLifted and ModerationLog."""

from __future__ import annotations

from typing import Annotated, Any

from firebreak.api.rest.responses import Answer, d, enum_of


class ReportFiled(Answer):
    """The report is kept for the operator (the reported player is told nothing)."""

    id: Annotated[str, d("The report's id.")]
    at: Annotated[float, d("When it was filed (epoch seconds).")]


class Report(Answer):
    """A report as the operator reads it."""

    id: str
    at: float
    reporter: Annotated[str | None, d("Who filed it (null: an account deleted since).")]
    player: Annotated[str | None, d("The player reported (a message's sender).")]
    matchId: str | None
    channel: Annotated[str | None, enum_of(["SEATS", "SPECTATORS", None], "A reported message's channel.")]
    seq: int | None
    message: Annotated[str | None, d("A reported message's text when it was reported.")]
    reason: Annotated[str, enum_of(["SPAM", "ABUSE", "CHEATING", "NAME", "OTHER"], "Why.")]
    note: str
    status: Annotated[str, enum_of(["OPEN", "RESOLVED"], "Where it is.")]
    resolution: str | None
    resolvedAt: float | None


class ReportPage(Answer):
    """A page of reports, oldest first."""

    items: list[Report]
    endCursor: Annotated[str | None, d("after for the next page (null: an empty page).")]
    hasNextPage: bool


class ReportResolved(Answer):
    """The report as resolved."""

    report: Report


class PlayerMuted(Answer):
    """The player may not chat until `until`."""

    playerId: str
    until: float


class PlayerBanned(Answer):
    """The player is banned."""

    playerId: str
    until: Annotated[float | None, d("When the ban ends (null: for good).")]


class PenaltyLifted(Answer):
    """A mute or ban lifted."""

    playerId: str
    had: Annotated[bool, d("Whether the player had one.")]


class ModerationLogEntry(Answer):
    """One admin action."""

    id: int
    at: float
    action: Annotated[str, enum_of(["resolveReport", "mutePlayer", "unmutePlayer", "banPlayer", "unbanPlayer"],
                                   "What was done.")]
    player: str | None
    reportId: str | None
    detail: Annotated[dict[str, Any], d("The action's details (until, note, resolution...).")]


class ModerationLog(Answer):
    """The newest admin actions first."""

    items: list[ModerationLogEntry]
    nextBefore: Annotated[int | None, d("before for the next (older) page (null: no more).")]
