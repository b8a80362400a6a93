"""A finished match's chat in the archive's database: written once per message (a re-run inserts nothing new),
read by channel and cursor once Redis has let the match go, and erased for a deleted account."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select, update
from sqlalchemy.dialects import postgresql, sqlite

from firebreak.archive.database import Database
from firebreak.chat.store import PAGE, Channel, Message
from firebreak.chat.tables import archived_chat


def _row(match_id: str, m: Message) -> dict[str, Any]:
    return {"match_id": match_id, "channel": m.channel.value, "seq": m.seq, "at": m.at, "player_id": m.player,
            "seat": m.seat, "name": m.name, "text": m.text, "preset": m.preset, "removed": m.removed}


def keep(db: Database, match_id: str, messages: list[Message]) -> int:
    """Insert the messages not archived yet (by match, channel and seq); return how many went in."""
    if not messages:
        return 0
    with db.write() as conn:
        return _insert(conn, [_row(match_id, m) for m in messages])


def _insert(conn: Connection, rows: list[dict[str, Any]]) -> int:
    name = conn.dialect.name
    keys = ["match_id", "channel", "seq"]
    if name in ("postgresql", "sqlite"):
        dialect = postgresql if name == "postgresql" else sqlite
        statement = dialect.insert(archived_chat).on_conflict_do_nothing(index_elements=keys)
        return sum(len(conn.execute(statement.returning(archived_chat.c.seq), row).all()) for row in rows)
    inserted = 0
    for row in rows:  # another backend: look first (the write transaction serialises writers)
        found = conn.execute(select(archived_chat.c.seq).where(*(archived_chat.c[k] == row[k] for k in keys)))
        if found.first() is None:
            conn.execute(archived_chat.insert(), row)
            inserted += 1
    return inserted


def page(db: Database, match_id: str, channel: Channel, after: int, limit: int = PAGE) -> list[Message]:
    """A channel's archived messages after seq `after`, oldest first."""
    with db.read() as conn:
        rows = conn.execute(select(archived_chat).where(archived_chat.c.match_id == match_id,
                                                        archived_chat.c.channel == channel.value,
                                                        archived_chat.c.seq > after)
                            .order_by(archived_chat.c.seq).limit(max(1, min(limit, PAGE)))).mappings().all()
    return [Message(r["seq"], Channel(r["channel"]), r["at"], r["player_id"], r["seat"], r["name"], r["text"],
                    r["preset"], r["removed"]) for r in rows]


def erase_player(db: Database, player: str, name: str) -> int:
    """Make the player's archived messages "removed" under `name` (its account was deleted); return how many."""
    with db.write() as conn:
        done = conn.execute(update(archived_chat).where(archived_chat.c.player_id == player)
                            .values(player_id=None, name=name, text="", preset=None, removed=True))
        return int(done.rowcount)
