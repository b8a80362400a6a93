"""The rest of a ban, done by the workers (moderation/bans.py laid it and stopped every credential at once): each
live seat of the player resigns (ruling P18 ranks the others, or the match ends), each waiting seat is left, each
waiting seek is cancelled; then the ban's outbox entry is dropped. Idempotent: a seat resigned or left already is
passed by, so a re-run after a kill -9 changes nothing more. A ban lifted meanwhile stops here."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from firebreak.matches import keys
from firebreak.matches.lifecycle import MatchStatus, SeatControl
from firebreak.matches.seatlife import SeatError, SeatLife
from firebreak.matchmaking.seeks import SeekError, Seeks, SeekStatus
from firebreak.moderation import keys as moderation_keys
from firebreak.players import keys as player_keys
from firebreak.players.records import Player

log = logging.getLogger("firebreak.moderation")


async def apply_ban(rt: Any, player: str) -> str:
    """Resign, leave and cancel what a banned player holds; return "applied" or "lifted" (no ban now)."""
    store = rt.pipeline.store
    fields = await store.redis.hgetall(player_keys.player(player))
    if not fields or not Player.from_fields(player, fields).banned():
        await store.queue.zrem(moderation_keys.BANS_PENDING, player)
        return "lifted"
    life = SeatLife(store, rt.pipeline.scheduler)
    for match_id in sorted(await store.redis.hkeys(keys.mine(player))):
        loaded = await store.load(match_id)
        if loaded is None:
            continue
        seat = next((s for s, r in loaded.seats.items() if r.player == player), None)
        if seat is None:
            continue
        with contextlib.suppress(SeatError):  # it ended, started or was resigned meanwhile
            if loaded.status is MatchStatus.ACTIVE and loaded.seats[seat].control is not SeatControl.RESIGNED:
                await life.resign(match_id, seat)
            elif loaded.status is MatchStatus.WAITING:
                await life.leave(match_id, seat)
    seeks = Seeks(store.queue, rt.settings.queue)
    for seek in await seeks.of_player(player):
        if seek.status is SeekStatus.WAITING:
            with contextlib.suppress(SeekError):
                await seeks.cancel(seek.id, player)
    await store.queue.zrem(moderation_keys.BANS_PENDING, player)
    log.info("a ban's seats and seeks are done")
    return "applied"
