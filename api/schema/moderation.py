"""GraphQL: moderation (api/moderation.py holds the rules): a player's report; the operator's reports, mutes, bans
and audit log behind the admin token."""

from __future__ import annotations

import math
from enum import Enum
from typing import Annotated, cast

import strawberry

from firebreak.api import moderation
from firebreak.api.admin import is_admin
from firebreak.api.context import Info
from firebreak.api.schema.chat import ChatChannel
from firebreak.api.schema.problems import (
    AdminUnauthorized,
    InvalidInput,
    PlayerNotFound,
    ReportNotFound,
    Unauthenticated,
    player_problem,
    problem_type,
)
from firebreak.api.schema.types import JSON
from firebreak.matches.refusals import Refusal
from firebreak.moderation import audit, reports
from firebreak.players.errors import PlayerError


@strawberry.enum
class ReportReason(Enum):
    """Why a player is reported."""

    SPAM = strawberry.enum_value(reports.Reason.SPAM.value, description="Spam.")
    ABUSE = strawberry.enum_value(reports.Reason.ABUSE.value, description="Insults, harassment, hate.")
    CHEATING = strawberry.enum_value(reports.Reason.CHEATING.value,
                                     description="A program playing as a person, collusion.")
    NAME = strawberry.enum_value(reports.Reason.NAME.value, description="An offensive handle or display name.")
    OTHER = strawberry.enum_value(reports.Reason.OTHER.value, description="Anything else (say what in the note).")


@strawberry.enum
class ReportStatus(Enum):
    """Where a report is."""

    OPEN = strawberry.enum_value(reports.Status.OPEN.value, description="Not resolved yet.")
    RESOLVED = strawberry.enum_value(reports.Status.RESOLVED.value, description="Resolved by the operator.")


@strawberry.type
class ReportFiled:
    """The report is kept for the operator (the reported player is told nothing)."""

    id: strawberry.ID = strawberry.field(description="The report's id.")
    at: float = strawberry.field(description="When it was filed (epoch seconds).")


@strawberry.type
class Report:
    """A report as the operator reads it."""

    id: strawberry.ID = strawberry.field(description="The report's id.")
    at: float = strawberry.field(description="When it was filed (epoch seconds).")
    reporter: strawberry.ID | None = strawberry.field(description="Who filed it (null: an account deleted since).")
    player: strawberry.ID | None = strawberry.field(description="The player reported (a message's sender).")
    match_id: strawberry.ID | None = strawberry.field(description="A reported message's match.")
    channel: ChatChannel | None = strawberry.field(description="A reported message's channel.")
    seq: int | None = strawberry.field(description="A reported message's seq.")
    message: str | None = strawberry.field(description="A reported message's text when it was reported.")
    reason: ReportReason = strawberry.field(description="Why it was filed.")
    note: str = strawberry.field(description="The reporter's note (may be empty).")
    status: ReportStatus = strawberry.field(description="Where it is.")
    resolution: str | None = strawberry.field(description="What the operator did (null: open).")
    resolved_at: float | None = strawberry.field(description="When it was resolved (null: open).")

    @classmethod
    def of(cls, r: reports.Report) -> Report:
        """The GraphQL form of a kept report."""
        return cls(id=strawberry.ID(r.id), at=r.at, reporter=_id(r.reporter), player=_id(r.player),
                   match_id=_id(r.match_id), channel=None if r.channel is None else ChatChannel[r.channel.upper()],
                   seq=r.seq, message=r.message, reason=ReportReason[r.reason.name], note=r.note,
                   status=ReportStatus[r.status.name], resolution=r.resolution, resolved_at=r.resolved_at)


def _id(value: str | None) -> strawberry.ID | None:
    return None if value is None else strawberry.ID(value)


@strawberry.type
class ReportPage:
    """A page of reports, oldest first."""

    reports: list[Report] = strawberry.field(description="The reports of this page.")
    end_cursor: str | None = strawberry.field(description="after for the next page (null: an empty page).")
    has_next_page: bool = strawberry.field(description="Whether another page follows.")


@strawberry.type
class ModerationLogEntry:
    """One admin action."""

    id: int = strawberry.field(description="Its number (increasing): pass the last one as moderationLog's before.")
    at: float = strawberry.field(description="When it was done (epoch seconds).")
    action: str = strawberry.field(description="resolveReport, mutePlayer, unmutePlayer, banPlayer or unbanPlayer.")
    player: strawberry.ID | None = strawberry.field(description="The player it concerned (null: none, or an account "
                                                                "deleted since).")
    report_id: strawberry.ID | None = strawberry.field(description="The report it resolved (null: none).")
    detail: JSON = strawberry.field(description="The action's details (until, note, resolution...).")

    @classmethod
    def of(cls, e: audit.Entry) -> ModerationLogEntry:
        """The GraphQL form of an audit entry."""
        return cls(id=e.id, at=e.at, action=e.action.value, player=_id(e.player), report_id=_id(e.report_id),
                   detail=e.detail)


@strawberry.type
class ModerationLog:
    """The newest admin actions first."""

    entries: list[ModerationLogEntry] = strawberry.field(description="The newest entries first.")
    next_before: int | None = strawberry.field(description="before for the next (older) page (null: no more).")


@strawberry.type
class ReportResolved:
    """The report as resolved."""

    report: Report = strawberry.field(description="The report.")


@strawberry.type
class PlayerMuted:
    """The player may not chat until `until`."""

    player_id: strawberry.ID = strawberry.field(description="The player muted.")
    until: float = strawberry.field(description="When the mute ends (epoch seconds).")


@strawberry.type
class PlayerBanned:
    """The player is banned: no sign-in, no credential works, its live seats resign."""

    player_id: strawberry.ID = strawberry.field(description="The player banned.")
    until: float | None = strawberry.field(description="When the ban ends (null: for good).")


@strawberry.type
class PenaltyLifted:
    """A mute or ban lifted."""

    player_id: strawberry.ID = strawberry.field(description="The player.")
    had: bool = strawberry.field(description="Whether the player had one.")


@strawberry.input
class ReportInput:
    """What is reported: a player, or a chat message (matchId, channel and seq together)."""

    reason: ReportReason = strawberry.field(description="Why.")
    player_id: strawberry.ID | None = strawberry.field(default=None, description="The player reported.")
    match_id: strawberry.ID | None = strawberry.field(default=None, description="A reported message's match.")
    channel: ChatChannel | None = strawberry.field(default=None, description="A reported message's channel.")
    seq: int | None = strawberry.field(default=None, description="A reported message's seq.")
    note: str | None = strawberry.field(default=None, description="At most 1000 characters.")


@strawberry.input
class ResolveReportInput:
    """A report and what was done."""

    id: strawberry.ID = strawberry.field(description="The report.")
    resolution: str | None = strawberry.field(default=None, description="What was done (at most 1000 characters).")


@strawberry.input
class PenaltyInput:
    """A player, how long (seconds; a ban's null: for good) and a note for the audit log."""

    player_id: strawberry.ID = strawberry.field(description="The player.")
    seconds: float | None = strawberry.field(default=None, description="How long (1 second to 10 years; a ban's "
                                                                       "null: for good).")
    note: str | None = strawberry.field(default=None, description="For the audit log (at most 1000 characters).")


@strawberry.input
class LiftInput:
    """A player."""

    player_id: strawberry.ID = strawberry.field(description="The player.")


ReportResult = Annotated[ReportFiled | InvalidInput | PlayerNotFound | Unauthenticated, strawberry.union(
    "ReportResult", description="The report kept, or why not.")]
ReportsResult = Annotated[ReportPage | AdminUnauthorized | InvalidInput, strawberry.union(
    "ReportsResult", description="A page of reports, or why not.")]
ModerationLogResult = Annotated[ModerationLog | AdminUnauthorized, strawberry.union(
    "ModerationLogResult", description="The audit log, or why not.")]
ResolveReportResult = Annotated[ReportResolved | AdminUnauthorized | ReportNotFound | InvalidInput, strawberry.union(
    "ResolveReportResult", description="The report resolved, or why not.")]
MutePlayerResult = Annotated[PlayerMuted | AdminUnauthorized | PlayerNotFound | InvalidInput, strawberry.union(
    "MutePlayerResult", description="The mute, or why not.")]
BanPlayerResult = Annotated[PlayerBanned | AdminUnauthorized | PlayerNotFound | InvalidInput, strawberry.union(
    "BanPlayerResult", description="The ban, or why not.")]
LiftResult = Annotated[PenaltyLifted | AdminUnauthorized | PlayerNotFound, strawberry.union(
    "LiftResult", description="The mute or ban lifted, or why not.")]


def _refused() -> AdminUnauthorized:
    return AdminUnauthorized(code=Refusal.ADMIN_UNAUTHORIZED,
                             message="this needs the operator's admin token as the bearer credential")


def _problem(exc: moderation.ModerationError) -> InvalidInput | PlayerNotFound | ReportNotFound:
    return cast(InvalidInput | PlayerNotFound | ReportNotFound, problem_type(exc.code)(code=exc.code,
                                                                                      message=exc.message))


@strawberry.type
class ModerationQuery:
    """The operator's reads (admin token)."""

    @strawberry.field
    async def reports(
        self, info: Info,
        status: Annotated[ReportStatus | None, strawberry.argument(description="Only these (null: all).")] = None,
        first: Annotated[int, strawberry.argument(description="At most this many (1 to 100).")] = 50,
        after: Annotated[str | None, strawberry.argument(description="A page's endCursor.")] = None,
    ) -> ReportsResult:
        """Reports, oldest first, of a status (null: all) (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        db = await info.context.services.database()
        try:
            found, more = await db.run(reports.listing, db, None if status is None else reports.Status[status.name],
                                       first, after)
        except reports.BadCursor as exc:
            return InvalidInput(code=Refusal.BAD_CURSOR, message=str(exc))
        return ReportPage(reports=[Report.of(r) for r in found],
                          end_cursor=reports.cursor_of(found[-1]) if found else None, has_next_page=more)

    @strawberry.field
    async def moderation_log(
        self, info: Info, first: Annotated[int, strawberry.argument(description="At most this many (1 to 100).")] = 50,
        before: Annotated[int | None, strawberry.argument(description="A page's nextBefore.")] = None,
    ) -> ModerationLogResult:
        """Every admin action of the moderation, newest first (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        db = await info.context.services.database()
        entries = await db.run(audit.listing, db, first, before)
        return ModerationLog(entries=[ModerationLogEntry.of(e) for e in entries],
                             next_before=entries[-1].id if len(entries) >= max(1, min(first, audit.PAGE)) else None)


@strawberry.type
class ModerationMutation:
    """A player's report, and the operator's actions (admin token)."""

    @strawberry.mutation
    async def report(self, info: Info, input: Annotated[ReportInput, strawberry.argument(
            description="What is reported, and why.")]) -> ReportResult:
        """Report a player, or a chat message you may read (its text is kept as it is now), with a reason and a
        note. The reported player is told nothing. A player files 10 reports at once, then 20 an hour
        (RATE_LIMITED past that)."""
        principal = await info.context.player_or_refusal()
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated, player_problem(principal))
        try:
            kept = await moderation.report(
                info.context.services, principal, await info.context.caller(),
                reports.Reason[input.reason.name].value, input.note,
                None if input.player_id is None else str(input.player_id),
                None if input.match_id is None else str(input.match_id),
                None if input.channel is None else input.channel.name.lower(), input.seq)
        except moderation.ModerationError as exc:
            return cast(InvalidInput | PlayerNotFound, _problem(exc))
        return ReportFiled(id=strawberry.ID(kept.id), at=kept.at)

    @strawberry.mutation
    async def resolve_report(self, info: Info, input: Annotated[ResolveReportInput, strawberry.argument(
            description="The report and what was done.")]) -> ResolveReportResult:
        """Resolve a report with what was done (admin token); the audit log records it."""
        if not await is_admin(info.context):
            return _refused()
        try:
            done = await moderation.resolve(info.context.services, str(input.id), input.resolution)
        except moderation.ModerationError as exc:
            return cast(ReportNotFound | InvalidInput, _problem(exc))
        return ReportResolved(report=Report.of(done))

    @strawberry.mutation
    async def mute_player(self, info: Info, input: Annotated[PenaltyInput, strawberry.argument(
            description="The player, how long and a note.")]) -> MutePlayerResult:
        """Mute a player for `seconds`: no chat (MUTED) until then (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        try:
            until = await moderation.mute(info.context.services, str(input.player_id), input.seconds or 0.0,
                                          input.note)
        except moderation.ModerationError as exc:
            return cast(PlayerNotFound | InvalidInput, _problem(exc))
        return PlayerMuted(player_id=input.player_id, until=until)

    @strawberry.mutation
    async def unmute_player(self, info: Info, input: Annotated[LiftInput, strawberry.argument(
            description="The player.")]) -> LiftResult:
        """Lift a player's mute (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        try:
            had = await moderation.unmute(info.context.services, str(input.player_id))
        except moderation.ModerationError as exc:
            return cast(PlayerNotFound, _problem(exc))
        return PenaltyLifted(player_id=input.player_id, had=had)

    @strawberry.mutation
    async def ban_player(self, info: Info, input: Annotated[PenaltyInput, strawberry.argument(
            description="The player, how long (null: for good) and a note.")]) -> BanPlayerResult:
        """Ban a player for `seconds` (null: for good) (admin token): every credential of it fails at once on every
        surface (sessions, personal access tokens, the operator's JWTs, sign-in), its open streams end within
        moments, and a worker resigns its live seats and cancels its seeks."""
        if not await is_admin(info.context):
            return _refused()
        try:
            until = await moderation.ban(info.context.services, str(input.player_id), input.seconds, input.note)
        except moderation.ModerationError as exc:
            return cast(PlayerNotFound | InvalidInput, _problem(exc))
        return PlayerBanned(player_id=input.player_id, until=None if math.isinf(until) else until)

    @strawberry.mutation
    async def unban_player(self, info: Info, input: Annotated[LiftInput, strawberry.argument(
            description="The player.")]) -> LiftResult:
        """Lift a player's ban: it may sign in again (its old sessions stay ended) (admin token)."""
        if not await is_admin(info.context):
            return _refused()
        try:
            had = await moderation.unban(info.context.services, str(input.player_id))
        except moderation.ModerationError as exc:
            return cast(PlayerNotFound, _problem(exc))
        return PenaltyLifted(player_id=input.player_id, had=had)
