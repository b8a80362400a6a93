"""Taking a deleted player out of the archive (players/deletion.py; the workers' deletion job calls it).

Each archived match the player sat in keeps its row, for the other players' histories, exports and replays: the
player's seat becomes a deleted player's in both places the row names it, the public `seats` column (kind
"deleted", the name the deletion gives, no player id) and the packed `stored` record (SeatRecord.erased), and the
player's (player, match) index rows go. One transaction per call: a worker killed inside it leaves nothing of it,
and a re-run finds nothing left to do (an erased seat names no player).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, update

from firebreak.archive.database import Database
from firebreak.archive.tables import archived_matches, archived_players
from firebreak.matches import packing
from firebreak.matches.lifecycle import SeatRecord


def erased_seats(seats: list[dict[str, Any]], player: str, name: str) -> list[dict[str, Any]]:
    """The public seats column with the player's seat shown as a deleted player's."""
    return [{"seat": seat["seat"], "kind": "deleted", "name": name, "player": None, "level": seat.get("level"),
             "program": False, "control": seat.get("control")} if seat.get("player") == player else seat
            for seat in seats]


def erased_stored(stored: str, player: str, name: str) -> str:
    """The packed stored record with the player's seat record erased."""
    record = packing.unpack(stored)
    record["seats"] = {seat: SeatRecord.from_json(data).erased(name).to_json() if data.get("player") == player
                       else data for seat, data in record["seats"].items()}
    if record["meta"].get("hostPlayer") == player:
        del record["meta"]["hostPlayer"]
    return packing.pack(record)


def erase_player(db: Database, player: str, name: str) -> int:
    """Erase the player from every archived match it sat in, and drop its index rows; return how many matches."""
    with db.write() as conn:
        match_ids = list(conn.execute(select(archived_players.c.match_id)
                                      .where(archived_players.c.player_id == player)).scalars())
        for match_id in match_ids:
            row = conn.execute(select(archived_matches.c.seats, archived_matches.c.stored)
                               .where(archived_matches.c.match_id == match_id)).one_or_none()
            if row is None:
                continue
            conn.execute(update(archived_matches).where(archived_matches.c.match_id == match_id)
                         .values(seats=erased_seats(row.seats, player, name),
                                 stored=erased_stored(row.stored, player, name)))
        conn.execute(delete(archived_players).where(archived_players.c.player_id == player))
    return len(match_ids)


def unarchived(db: Database, match_ids: list[str]) -> list[str]:
    """Those of the matches with no archive record yet."""
    if not match_ids:
        return []
    with db.read() as conn:
        have = set(conn.execute(select(archived_matches.c.match_id)
                                .where(archived_matches.c.match_id.in_(match_ids))).scalars())
    return [match_id for match_id in match_ids if match_id not in have]
