"""The rest of an account's deletion, done by the workers (players/deletion.py did the first stage at once).

A job takes one player whose deletion was asked (the API queues it at once; the reconciler hands on every outbox
entry of keys.DELETIONS_PENDING older than stall_seconds) and does, in order, each part idempotent:
1. seal the account again and free its lookups (in case the request's process died before doing it);
2. every match of the player's index: a standing rematch offer is declined, then the player's seat is left
   (waiting), resigned (active) or erased (over): matches/erasure.py; its chat messages, there and where it
   watched, become "message removed" (chat/store.py, and the archived ones: chat/archive.py);
3. its friends, friend requests and blocks both ways (social/forget.py) and its entry in the handles' search index;
   the invitations it received are dropped, and the events naming it in the invited players' and co-players'
   feeds; its seeks cancelled and their records deleted;
4. its push registrations and preferences, its events, its my-matches index;
5. its ratings and rating changes (ratings/ledger.py:forget), its seats in the archive (archive/erasure.py), and
   its name in reports and the moderation's audit log (moderation/reports.py);
6. the players layer's last part (the invitations index, the mark trimmed), then the outbox entry is dropped.
The job waits (answers "waiting", the entry stays for the reconciler) while a seek of the player is being formed
into a table, or while an over match of the player's has no archive record yet (its archiving may have read the
match before the erasure): a later run erases what those make. After GIVE_UP_STALLS stall periods it stops waiting
for archives (a match whose archiving keeps failing does not hold the deletion forever; the erased Redis copy is
what a later archiving writes).
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from firebreak.archive import erasure as archive_erasure
from firebreak.chat import archive as chat_archive
from firebreak.chat import keys as chat_keys
from firebreak.chat.store import ChatStore
from firebreak.matches import keys
from firebreak.matches.callers import Caller
from firebreak.matches.erasure import Erasure
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.lobby import Lobby, LobbyError
from firebreak.matches.mine import Index
from firebreak.matches.rematch_offers import Offers
from firebreak.matches.seatlife import SeatLife
from firebreak.matchmaking.seeks import SeekError, Seeks, SeekStatus
from firebreak.moderation import keys as moderation_keys
from firebreak.moderation import reports as moderation_reports
from firebreak.players import handle_index
from firebreak.players import keys as player_keys
from firebreak.players.deletion import DELETED_NAME, Deletions
from firebreak.players.directory import Directory
from firebreak.push import subscriptions as push_subscriptions
from firebreak.ratings import ledger
from firebreak.social.forget import forget_player as forget_social

log = logging.getLogger("firebreak.deletion")

GIVE_UP_STALLS = 10  # stall periods after the request past which the job no longer waits for archive records


async def delete_account(rt: Any, player: str) -> str:
    """Do the rest of a player's deletion; return "deleted", "waiting" (to be run again) or "unknown" (no such
    player and no deletion mark: the entry is dropped)."""
    store, settings = rt.pipeline.store, rt.settings
    deletions = Deletions(store.redis, store.queue, Directory(store.redis), 0.0)
    mark = await deletions.seal(player)
    if mark is None:
        await store.queue.zrem(keys.DELETIONS_PENDING, player)
        return "unknown"
    await deletions.free_lookups(player, mark)
    await forget_social(store.redis, player)  # friends, requests, blocks both ways, presence
    await handle_index.drop(store.redis, player, mark.handle)  # the search entry (the hash named it: gone)

    lobby = Lobby(store, rt.pipeline.scheduler)
    offers, erasure = Offers(lobby), Erasure(store, SeatLife(store, rt.pipeline.scheduler), DELETED_NAME)
    match_ids = sorted(await store.redis.hkeys(keys.mine(player)))
    for match_id in match_ids:
        # a standing rematch offer ends for everyone (before the seat forgets whose it was); LobbyError: none
        # stands, the match is not over, or it is gone
        with contextlib.suppress(LobbyError):
            await offers.decline(match_id, Caller(player=player))
        await erasure.erase(match_id, player)

    chat = ChatStore(store.redis)  # its messages, where it sat and where it watched, become "message removed"
    for match_id in sorted({*match_ids, *await chat.chatted(player)}):
        await chat.erase(match_id, player, DELETED_NAME)
    for match_id in await store.redis.zrange(player_keys.invitations(player), 0, -1):
        await store.redis.hdel(keys.invited(match_id), player)
    await erasure.scrub_feeds(player)

    await push_subscriptions.delete_all_for_player(store.redis, player)
    waiting = not await _cancel_seeks(Seeks(store.queue, settings.queue), player)
    over = [m for m in match_ids if (loaded := await store.load(m)) is not None and loaded.status is MatchStatus.OVER]
    await rt.db.run(ledger_forget, rt.db, player)
    await rt.db.run(archive_erasure.erase_player, rt.db, player, DELETED_NAME)
    await rt.db.run(chat_archive.erase_player, rt.db, player, DELETED_NAME)
    await rt.db.run(moderation_reports.erase_player, rt.db, player)
    unarchived = await rt.db.run(archive_erasure.unarchived, rt.db, over)
    if unarchived and time.time() - mark.at < GIVE_UP_STALLS * settings.stall_seconds:
        waiting = True
    if waiting:
        log.info("deletion of a player waits (%d matches not archived yet, or a seek being matched)", len(unarchived))
        return "waiting"

    await store.redis.delete(keys.feed(player), keys.feed_seen(player), keys.feed_forwarded(player),
                             chat_keys.chatted(player), moderation_keys.muted(player), *Index.keys(player))
    await push_subscriptions.delete_all_for_player(store.redis, player)  # again: a push sent meanwhile moved its cursor
    await deletions.finish(player)
    await store.queue.zrem(keys.DELETIONS_PENDING, player)
    log.info("an account's deletion is done (%d matches)", len(match_ids))
    return "deleted"


def ledger_forget(db: Any, player: str) -> int:
    """Take the player off every leaderboard, in one transaction."""
    with db.write() as conn:
        return ledger.forget(conn, player)


async def _cancel_seeks(seeks: Seeks, player: str) -> bool:
    """Cancel the player's waiting seeks and delete its seeks' records; False while one is being formed into a
    table (its match is erased by a later run)."""
    settled = True
    for seek in await seeks.of_player(player):
        if seek.status is SeekStatus.WAITING:
            try:
                await seeks.cancel(seek.id, player)
            except SeekError as exc:
                settled = settled and exc.status is not SeekStatus.MATCHING
        elif seek.status is SeekStatus.MATCHING:
            settled = False
    if settled:
        for seek in await seeks.of_player(player):
            await seeks.queue.delete(keys.seek(seek.id))
        await seeks.queue.delete(keys.player_seeks(player))
    return settled
