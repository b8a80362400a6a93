"""The chat's part of finishing a match (workers/finishing.py runs it after the archive's): the match's chat goes
into the archive's database (once: a re-run inserts nothing new), and its Redis keys take the finished match's time
to live (FIREBREAK_FINISHED_TTL), as the match's own keys do."""

from __future__ import annotations

from firebreak.archive.database import Database
from firebreak.chat import archive
from firebreak.chat.store import ChatStore
from firebreak.matches.store import Loaded, MatchStore


async def archive_chat(db: Database, store: MatchStore, loaded: Loaded) -> int:
    """The finisher: keep the finished match's chat in the archive; return how many messages went in."""
    chat = ChatStore(store.redis)
    messages = await chat.everything(loaded.id)
    if not messages:
        return 0
    kept = await db.run(archive.keep, db, loaded.id, messages)
    await chat.expire_like(loaded.id, store.settings.finished_ttl)
    return kept
