"""REST moderation (GraphQL's report, and behind the admin token reports, resolveReport, mutePlayer, unmutePlayer,
banPlayer, unbanPlayer, moderationLog; api/moderation.py holds the rules)."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from firebreak.api import moderation
from firebreak.api.admin import is_admin
from firebreak.api.rest import callers
from firebreak.api.rest import requests as R
from firebreak.api.rest.problems import problem
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.api.services import Services
from firebreak.matches.refusals import Refusal
from firebreak.moderation import audit, reports


async def _admin(call: Call) -> None:
    if not await is_admin(call.context):
        raise problem(Refusal.ADMIN_UNAUTHORIZED, "this needs the operator's admin token as the bearer credential")


def report_json(r: reports.Report) -> dict[str, Any]:
    """A report as the operator reads it."""
    return {"id": r.id, "at": r.at, "reporter": r.reporter, "player": r.player, "matchId": r.match_id,
            "channel": None if r.channel is None else r.channel.upper(), "seq": r.seq, "message": r.message,
            "reason": r.reason.name, "note": r.note, "status": r.status.name, "resolution": r.resolution,
            "resolvedAt": r.resolved_at}


async def file_report(call: Call) -> Reply:
    """A player's report; 201."""
    principal = await callers.principal(call)
    body = call.form(R.FileReport)
    try:
        kept = await moderation.report(call.services, principal, await call.context.caller(),
                                       reports.Reason[body.reason].value, body.note, body.playerId, body.matchId,
                                       None if body.channel is None else body.channel.lower(), body.seq)
    except moderation.ModerationError as exc:
        raise problem(exc.code, exc.message) from None
    return Reply({"id": kept.id, "at": kept.at}, 201)


async def list_reports(call: Call) -> Reply:
    """Reports, oldest first (admin token)."""
    await _admin(call)
    status = call.params["status"]
    db = await call.services.database()
    try:
        found, more = await db.run(reports.listing, db, None if status is None else reports.Status[status],
                                   call.params["first"], call.params["after"])
    except reports.BadCursor as exc:
        raise problem(Refusal.BAD_CURSOR, str(exc)) from None
    return Reply({"items": [report_json(r) for r in found],
                  "endCursor": reports.cursor_of(found[-1]) if found else None, "hasNextPage": more})


async def resolve_report(call: Call) -> Reply:
    """Resolve a report (admin token)."""
    await _admin(call)
    body = call.form(R.ResolveReport)
    try:
        done = await moderation.resolve(call.services, call.params["reportId"], body.resolution)
    except moderation.ModerationError as exc:
        raise problem(exc.code, exc.message) from None
    return Reply({"report": report_json(done)})


async def mute(call: Call) -> Reply:
    """Mute a player (admin token)."""
    await _admin(call)
    body = call.form(R.Penalty)
    try:
        until = await moderation.mute(call.services, call.params["playerId"], body.seconds or 0.0, body.note)
    except moderation.ModerationError as exc:
        raise problem(exc.code, exc.message) from None
    return Reply({"playerId": call.params["playerId"], "until": until})


async def _lift(call: Call, lift: Callable[[Services, str], Awaitable[bool]]) -> Reply:
    """Lift a player's mute or ban (admin token)."""
    await _admin(call)
    try:
        had = await lift(call.services, call.params["playerId"])
    except moderation.ModerationError as exc:
        raise problem(exc.code, exc.message) from None
    return Reply({"playerId": call.params["playerId"], "had": had})


async def unmute(call: Call) -> Reply:
    """Lift a player's mute (admin token)."""
    return await _lift(call, moderation.unmute)


async def ban(call: Call) -> Reply:
    """Ban a player (admin token)."""
    await _admin(call)
    body = call.form(R.Penalty)
    try:
        until = await moderation.ban(call.services, call.params["playerId"], body.seconds, body.note)
    except moderation.ModerationError as exc:
        raise problem(exc.code, exc.message) from None
    return Reply({"playerId": call.params["playerId"], "until": None if math.isinf(until) else until})


async def unban(call: Call) -> Reply:
    """Lift a player's ban (admin token)."""
    return await _lift(call, moderation.unban)


async def moderation_log(call: Call) -> Reply:
    """The audit log, newest first (admin token)."""
    await _admin(call)
    db = await call.services.database()
    first = call.params["first"]
    entries = await db.run(audit.listing, db, first, call.params["before"])
    full = len(entries) >= max(1, min(first, audit.PAGE))
    return Reply({"items": [{"id": e.id, "at": e.at, "action": e.action.value, "player": e.player,
                             "reportId": e.report_id, "detail": e.detail} for e in entries],
                  "nextBefore": entries[-1].id if full else None})


PLAYER_ID = Param("playerId", "path", str, "The player's id.", required=True)
REPORT_ID = Param("reportId", "path", str, "The report's id.", required=True)
STATUS = Param("status", "query", Literal["OPEN", "RESOLVED"] | None, "OPEN or RESOLVED (left out: both).")
FIRST = Param("first", "query", int, "How many (clamped to 1-100).", default=50)
AFTER = Param("after", "query", str, "The endCursor of the previous page.")
BEFORE = Param("before", "query", int, "The nextBefore of the previous page.")
ADMIN_CODES = (Refusal.ADMIN_UNAUTHORIZED,)
PENALTY_CODES = (*ADMIN_CODES, Refusal.PLAYER_NOT_FOUND, Refusal.BAD_REPORT)
OPERATIONS = [
    Operation("POST", "/v1/reports", "report", "moderation", "Report a player or a chat message",
              "Report a player (playerId), or a chat message you may read (matchId, channel and seq: its sender is "
              "reported, its text kept as it is now), with a reason (SPAM, ABUSE, CHEATING, NAME, OTHER) and a note "
              "of at most 1000 characters. The reported player is told nothing. 10 reports at once, then 20 an "
              "hour (429 RATE_LIMITED).", file_report, success=201, response="ReportFiled", body=R.FileReport,
              example={"playerId": "0123456789abcdef", "reason": "ABUSE", "note": "insults in chat"},
              auth=Auth.PLAYER, write=True, codes=(Refusal.BAD_REPORT, Refusal.PLAYER_NOT_FOUND)),
    Operation("GET", "/v1/admin/reports", "listReports", "moderation", "List reports (admin)",
              "The players' reports, oldest first, of a status (left out: both) (the admin token).", list_reports,
              response="ReportPage", params=(STATUS, FIRST, AFTER), auth=Auth.ADMIN,
              codes=(*ADMIN_CODES, Refusal.BAD_CURSOR)),
    Operation("POST", "/v1/admin/reports/{reportId}/resolve", "resolveReport", "moderation",
              "Resolve a report (admin)", "Resolve a report with what was done (the admin token); the audit log "
              "records it; a resolved one is answered as it is.", resolve_report, response="ReportResolved",
              body=R.ResolveReport, example={"resolution": "muted for a day"}, params=(REPORT_ID,), auth=Auth.ADMIN,
              write=True, codes=(*ADMIN_CODES, Refusal.REPORT_NOT_FOUND, Refusal.BAD_REPORT)),
    Operation("PUT", "/v1/admin/players/{playerId}/mute", "mutePlayer", "moderation", "Mute a player (admin)",
              "No chat for `seconds` (1 to 10 years): MUTED (the admin token); the audit log records it.", mute,
              response="PlayerMuted", body=R.Penalty, example={"seconds": 86400, "note": "insults"},
              params=(PLAYER_ID,), auth=Auth.ADMIN, write=True, codes=PENALTY_CODES),
    Operation("DELETE", "/v1/admin/players/{playerId}/mute", "unmutePlayer", "moderation",
              "Lift a player's mute (admin)", "The player may chat again (the admin token).", unmute,
              response="PenaltyLifted", params=(PLAYER_ID,), auth=Auth.ADMIN, write=True,
              codes=(*ADMIN_CODES, Refusal.PLAYER_NOT_FOUND)),
    Operation("PUT", "/v1/admin/players/{playerId}/ban", "banPlayer", "moderation", "Ban a player (admin)",
              "No sign-in, no play for `seconds` (null or left out: for good) (the admin token): every credential "
              "of the player fails at once on every surface, its open streams end within moments, and a worker "
              "resigns its live seats, leaves its waiting ones and cancels its seeks; the audit log records it.",
              ban, response="PlayerBanned", body=R.Penalty, example={"note": "cheating"}, params=(PLAYER_ID,),
              auth=Auth.ADMIN, write=True, codes=PENALTY_CODES),
    Operation("DELETE", "/v1/admin/players/{playerId}/ban", "unbanPlayer", "moderation", "Lift a player's ban (admin)",
              "The player may sign in again; its old sessions stay ended (the admin token).", unban,
              response="PenaltyLifted", params=(PLAYER_ID,), auth=Auth.ADMIN, write=True,
              codes=(*ADMIN_CODES, Refusal.PLAYER_NOT_FOUND)),
    Operation("GET", "/v1/admin/moderation-log", "moderationLog", "moderation", "The moderation's audit log (admin)",
              "Every admin action of the moderation, newest first (the admin token).", moderation_log,
              response="ModerationLog", params=(FIRST, BEFORE), auth=Auth.ADMIN, codes=ADMIN_CODES),
]
