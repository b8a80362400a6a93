"""What a finished match is owed, done once by the workers: its ratings, then its archive record.

The write that ends a match first writes its finished-match outbox entry (MatchStore.finishing); the reconcilers
hand the entries they claim to `finished_all` jobs (workers/jobs.py, up to FINISHED_PER_JOB matches a job), which
run every finisher below on each match as stored and then drop its entry. Each finisher is idempotent by match id
(a re-run after a worker died mid-way, or a second job for the same entry, changes nothing), so a kill -9 anywhere
loses nothing and applies nothing twice.

An entry whose match is not over yet (its ending write has not landed, or never will: a refused commit) is left
for a later claim, and dropped once it is older than GIVE_UP_STALLS stall periods.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from firebreak.archive.database import Database
from firebreak.archive.records import archive_match
from firebreak.chat.finisher import archive_chat
from firebreak.matches import connections, keys
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.mine import DONE
from firebreak.matches.store import Loaded, MatchStore
from firebreak.ratings.finisher import rate_finished

log = logging.getLogger("firebreak.finishing")

GIVE_UP_STALLS = 3  # an entry whose match has not ended this many stall periods after it was written is dropped

Finisher = Callable[[Database, MatchStore, Loaded], Awaitable[object]]

# In this order: the archive record holds the rating changes; the chat's rows join the archived match.
FINISHERS: tuple[Finisher, ...] = (rate_finished, archive_match, archive_chat)  # ratings/finisher.py,
# archive/records.py, chat/finisher.py



async def finish(store: MatchStore, db: Database, match_id: str, claimed: float,
                 finishers: tuple[Finisher, ...] | None = None) -> str:
    """Do what the finished match is owed, then drop its outbox entry (claimed until `claimed`); return what
    happened: "finished", "gone" (expired from Redis before it could be handled), "waiting" (not over yet)."""
    loaded = await store.load(match_id)
    if loaded is not None and loaded.status is not MatchStatus.OVER:
        written = claimed - store.settings.stall_seconds  # the claim moved the entry to now + stall
        if time.time() - written < GIVE_UP_STALLS * store.settings.stall_seconds:
            return "waiting"
        await _done(store, match_id, claimed)
        return "waiting"
    if loaded is None:
        log.warning("match %s ended but expired before the workers got to it", match_id)
    else:
        for finisher in FINISHERS if finishers is None else finishers:
            await finisher(db, store, loaded)
    await _done(store, match_id, claimed)
    return "gone" if loaded is None else "finished"


async def _done(store: MatchStore, match_id: str, claimed: float) -> None:
    outbox = keys.finished_pending(store.settings.queue)
    await connections.Script(store.queue, DONE)(keys=[outbox], args=[match_id, repr(claimed)])
