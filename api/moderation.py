"""Moderation, for both API surfaces (api/schema/moderation.py, api/rest/moderation.py): a player's report (of a
player, or of a chat message it may read), and the operator's actions behind the admin token (resolve a report,
mute or ban a player, lift either), each written to the audit log."""

from __future__ import annotations

import functools
import time
import unicodedata

import anyio

from firebreak.api import chat, revocations
from firebreak.api.ratelimit import rate_limited
from firebreak.api.services import Services
from firebreak.chat.store import Channel
from firebreak.chat.text import BIDI_CONTROLS
from firebreak.matches import keys
from firebreak.matches.callers import Caller
from firebreak.matches.ratelimit import Charge, Rate
from firebreak.matches.reconciler import APPLY_BAN_JOB
from firebreak.matches.refusals import Refusal
from firebreak.matches.store import hash_token
from firebreak.moderation import audit, bans, mutes, reports
from firebreak.players import keys as player_keys
from firebreak.players.directory import ID
from firebreak.players.records import Principal

REPORT_RATE = Rate(20 / 3600, 10)  # reports a player files: 10 at once, then 20 an hour
MUTE_MAX = mutes.MAX_SECONDS


class ModerationError(Exception):
    """A moderation request refused: a registered code and a message for people."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean_note(note: str | None) -> str:
    """A report's or an action's note: at most reports.NOTE_MAX characters after NFC, no control character but a
    line break, no bidirectional control (BAD_REPORT)."""
    text = unicodedata.normalize("NFC", (note or "")[:4 * reports.NOTE_MAX]).strip()
    if len(text) > reports.NOTE_MAX:
        raise ModerationError(Refusal.BAD_REPORT, f"a note holds at most {reports.NOTE_MAX} characters")
    if any(c in BIDI_CONTROLS or (c != "\n" and unicodedata.category(c) == "Cc") for c in text):
        raise ModerationError(Refusal.BAD_REPORT, "a note may hold no control or bidirectional character")
    return text


async def report(services: Services, principal: Principal, caller: Caller, reason: str, note: str | None,
                 player: str | None, match_id: str | None, channel: str | None, seq: int | None) -> reports.Report:
    """File a report of a player, or of a chat message the reporter may read (its sender is the player reported,
    its text kept as it is now); raise ModerationError, or RATE_LIMITED's error past REPORT_RATE."""
    try:
        why = reports.Reason(reason)
    except ValueError:
        raise ModerationError(Refusal.BAD_REPORT,
                              f"reason is one of {', '.join(r.value for r in reports.Reason)}") from None
    text = clean_note(note)
    message = None
    if match_id is not None or channel is not None or seq is not None:
        if match_id is None or channel is None or seq is None:
            raise ModerationError(Refusal.BAD_REPORT, "a message is named by matchId, channel and seq together")
        try:
            loaded = await chat.load(services, match_id)
            chosen = Channel(channel)
            chat.may_read(loaded, caller, chosen)
        except (chat.ChatError, ValueError):
            raise ModerationError(Refusal.BAD_REPORT, "no such message that you may read") from None
        found = await services.chat.many(match_id, chosen, [seq])
        if not found or found[0].removed:
            raise ModerationError(Refusal.BAD_REPORT, "no such message that you may read")
        message = found[0]
        if player is not None and player != message.player:
            raise ModerationError(Refusal.BAD_REPORT, "the player named did not send that message")
        player = message.player
    elif player is None:
        raise ModerationError(Refusal.BAD_REPORT, "a report names a player or a message")
    elif not ID.match(player) or await services.players.directory.get(player) is None:
        raise ModerationError(Refusal.PLAYER_NOT_FOUND, "no such player")
    if player == principal.player.id:
        raise ModerationError(Refusal.BAD_REPORT, "a player cannot report themselves")
    verdict = await services.limits.limiter.take([Charge(keys.rate_bucket(
        "reports", f"player:{hash_token(principal.player.id)}"), REPORT_RATE)])
    if not verdict.allowed:
        raise rate_limited(verdict.retry_after)
    db = await services.database()
    return await db.run(functools.partial(
        reports.file, db, principal.player.id, player, why, text, match_id, channel, seq,
        None if message is None else message.text))


async def resolve(services: Services, report_id: str, resolution: str | None) -> reports.Report:
    """Resolve a report (REPORT_NOT_FOUND)."""
    db = await services.database()
    done = await db.run(reports.resolve, db, report_id[:64], clean_note(resolution))
    if done is None:
        raise ModerationError(Refusal.REPORT_NOT_FOUND, f"no report {report_id[:64]!r}")
    return done


async def _known(services: Services, player: str) -> None:
    """Raise PLAYER_NOT_FOUND unless the player exists, banned or not (EXISTS: reading the player would give one
    without a handle a handle)."""
    if not ID.match(player) or not await services.store.redis.exists(player_keys.player(player)):
        raise ModerationError(Refusal.PLAYER_NOT_FOUND, "no such player")


async def mute(services: Services, player: str, seconds: float, note: str | None) -> float:
    """Mute a player for `seconds` (1 to MUTE_MAX); until when."""
    if not 1 <= seconds <= MUTE_MAX:
        raise ModerationError(Refusal.BAD_REPORT, f"a mute lasts 1 to {MUTE_MAX} seconds")
    text = clean_note(note)
    await _known(services, player)
    until = await mutes.mute(services.store.redis, player, seconds)
    db = await services.database()
    await db.run(functools.partial(audit.record, db, audit.Action.MUTE, player, None, until=until, note=text))
    return until


async def unmute(services: Services, player: str) -> bool:
    """Lift a player's mute; whether it had one."""
    await _known(services, player)
    had = await mutes.unmute(services.store.redis, player)
    db = await services.database()
    await db.run(functools.partial(audit.record, db, audit.Action.UNMUTE, player, None, had=had))
    return had


async def ban(services: Services, player: str, seconds: float | None, note: str | None) -> float:
    """Ban a player for `seconds` (None: for good): every credential of it stops at once, its open streams end
    within moments, and a worker resigns its live seats; until when (inf: for good)."""
    if seconds is not None and not 1 <= seconds <= MUTE_MAX:
        raise ModerationError(Refusal.BAD_REPORT, f"a ban lasts 1 to {MUTE_MAX} seconds, or for good (null)")
    text = clean_note(note)
    if not ID.match(player):
        raise ModerationError(Refusal.PLAYER_NOT_FOUND, "no such player")
    until = await bans.Bans(services.store.redis, services.store.queue).ban(player, seconds)
    if until is None:
        raise ModerationError(Refusal.PLAYER_NOT_FOUND, "no such player")
    await revocations.publish(services.redises.queue, player)
    await anyio.to_thread.run_sync(functools.partial(
        services.scheduler.queue.enqueue, APPLY_BAN_JOB, player, job_id=f"ban-{time.time_ns()}", result_ttl=600,
        failure_ttl=7 * 24 * 3600, job_timeout=600))
    db = await services.database()
    await db.run(functools.partial(audit.record, db, audit.Action.BAN, player, None,
                                   until=None if seconds is None else until, note=text))
    return until


async def unban(services: Services, player: str) -> bool:
    """Lift a player's ban (it may sign in again); whether it had one."""
    await _known(services, player)
    had = await bans.Bans(services.store.redis, services.store.queue).unban(player)
    db = await services.database()
    await db.run(functools.partial(audit.record, db, audit.Action.UNBAN, player, None, had=had))
    return had
