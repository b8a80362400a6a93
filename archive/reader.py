"""Reading the archive: the finished matches Redis has let go, for the API's reads (matches.store.Attic).

The API sets an ArchiveReader as its store's attic: a match read (match(id), GET /v1/matches/{id}), its replay
(events), its export and the players' history pages (my matches) then find a finished match here once its Redis
keys have expired, as they found it in Redis before. Every call runs its blocking database work in a thread.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, or_, select

from firebreak.archive.database import Database
from firebreak.archive.tables import archived_matches, archived_players
from firebreak.matches import packing
from firebreak.matches.lifecycle import SeatRecord
from firebreak.matches.store import History, Loaded


class ArchiveReader:
    """The archive as the store's attic (matches.store.Attic)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def load(self, match_id: str) -> Loaded | None:
        """The archived match as Redis stored it when it ended (None: not archived)."""
        stored = await self.db.run(self._column, match_id, archived_matches.c.stored)
        if stored is None:
            return None
        record = packing.unpack(stored)
        return Loaded(id=match_id, meta=record["meta"], version=int(record["v"]), stored=record["data"],
                      seats={int(seat): SeatRecord.from_json(value) for seat, value in record["seats"].items()})

    async def history(self, match_id: str) -> History | None:
        """The archived match's meta, final version and whole log (None: not archived)."""
        found = await self.db.run(self._history, match_id)
        if found is None:
            return None
        stored, entries = found
        record = packing.unpack(stored)
        return record["meta"], int(record["v"]), list(entries)

    async def rows(self, player: str, before: tuple[float, str] | None, since: float,
                   want: int) -> list[tuple[str, float]]:
        """The player's archived matches as (match id, last activity), newest first (equal times: larger id first),
        last activity at most `since` and after `before`, at most `want` (the order and cursor rules of the
        players' index: matches/mypage.py)."""
        return await self.db.run(self._rows, player, before, since, want)

    def _column(self, match_id: str, column: Any) -> Any:
        with self.db.read() as conn:
            return conn.execute(select(column).where(archived_matches.c.match_id == match_id)).scalar()

    def _history(self, match_id: str) -> tuple[str, list[dict[str, Any]]] | None:
        with self.db.read() as conn:
            row = conn.execute(select(archived_matches.c.stored, archived_matches.c.log)
                               .where(archived_matches.c.match_id == match_id)).first()
        return None if row is None else (row[0], row[1])

    def _rows(self, player: str, before: tuple[float, str] | None, since: float,
              want: int) -> list[tuple[str, float]]:
        table = archived_players
        query = select(table.c.match_id, table.c.ended_at).where(table.c.player_id == player,
                                                                 table.c.ended_at <= since)
        if before is not None:
            at, last = before
            query = query.where(or_(table.c.ended_at < at, and_(table.c.ended_at == at, table.c.match_id < last)))
        query = query.order_by(table.c.ended_at.desc(), table.c.match_id.desc()).limit(max(0, want))
        with self.db.read() as conn:
            return [(str(match_id), float(at)) for match_id, at in conn.execute(query)]
