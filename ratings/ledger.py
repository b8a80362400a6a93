"""Applying a rated match to the ratings, exactly once: one transaction inserts the match's rating changes (primary
key match id + seat) and moves its players' ratings.

A re-run (a worker killed before the commit, or a second job for the same match) finds the match's changes there and
changes nothing; a worker killed inside the transaction leaves nothing of it. Concurrent matches of one player do not
lose an update: the transaction locks the players' rating rows (in key order: no deadlock) before reading them, and
on SQLite every writing transaction holds the database's write lock from its start (archive.database).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sqlalchemy import Connection, RowMapping, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from firebreak.archive.database import Database
from firebreak.ratings import model
from firebreak.ratings.tables import rating_changes, ratings


@dataclass(frozen=True)
class RatedMatch:
    """A finished rated match as the ratings see it: its title, every seat's rating key and place."""

    match_id: str
    title: str
    seats: dict[int, str]  # seat -> a player's id or bot:<level>
    places: dict[int, int]  # seat -> place (1 = first; equal places are ties)
    at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class Change:
    """One seat's rating change in a match."""

    match_id: str
    seat: int
    title: str
    key: str
    place: int
    before: model.Skill
    after: model.Skill
    games: int  # the key's rated matches once this one counted
    at: float

    @property
    def delta(self) -> int:
        """The change of the displayed rating."""
        return self.after.display - self.before.display


def apply(db: Database, rated: RatedMatch) -> bool:
    """Apply the match to its players' ratings in one transaction; return False (and change nothing) when it was
    applied before."""
    keys = sorted({key for key in rated.seats.values() if not model.is_deleted(key)})
    if not keys:  # every seat's player deleted their account: nothing to keep
        return False
    with db.write() as conn:
        _ensure(conn, rated.title, keys, rated.at)
        rows = conn.execute(select(ratings).where(ratings.c.title == rated.title, ratings.c.key.in_(keys))
                            .order_by(ratings.c.key).with_for_update()).mappings().all()
        done = conn.execute(select(rating_changes.c.seat).where(rating_changes.c.match_id == rated.match_id)
                            .limit(1)).first()
        if done is not None:
            return False
        before = {row["key"]: model.Skill(row["mu"], row["sigma"]) for row in rows}
        games = {row["key"]: row["games"] + 1 for row in rows}
        for key in rated.seats.values():  # a deleted player's seat: rated as a newcomer, kept nowhere
            if model.is_deleted(key):
                before[key], games[key] = model.Skill(), 1
        after = model.rate(before, rated.seats, rated.places)
        conn.execute(insert(rating_changes), [
            {"match_id": rated.match_id, "seat": seat, "title": rated.title, "key": key,
             "place": rated.places[seat], "mu_before": before[key].mu, "sigma_before": before[key].sigma,
             "mu_after": after[key].mu, "sigma_after": after[key].sigma, "games_after": games[key], "at": rated.at}
            for seat, key in sorted(rated.seats.items()) if not model.is_deleted(key)])
        for key in keys:
            conn.execute(update(ratings).where(ratings.c.title == rated.title, ratings.c.key == key)
                         .values(mu=after[key].mu, sigma=after[key].sigma, games=games[key], updated=rated.at))
    return True


def forget(conn: Connection, key: str) -> int:
    """Take a key (a deleted player's id) off every leaderboard: its ratings and its rating changes go (the other
    seats' changes in its matches stay, theirs); return how many rows went."""
    gone = conn.execute(delete(rating_changes).where(rating_changes.c.key == key)).rowcount
    return int(gone) + int(conn.execute(delete(ratings).where(ratings.c.key == key)).rowcount)


def _ensure(conn: Connection, title: str, keys: list[str], at: float) -> None:
    """Give every key a newcomer's rating row if it has none (a concurrent insert of the same row is not an
    error)."""
    rows = [{"title": title, "key": key, "mu": model.MU, "sigma": model.SIGMA, "games": 0, "updated": at}
            for key in keys]
    dialect = conn.dialect.name
    if dialect == "postgresql":
        conn.execute(postgresql.insert(ratings).on_conflict_do_nothing(), rows)
    elif dialect == "sqlite":
        conn.execute(sqlite.insert(ratings).on_conflict_do_nothing(), rows)
    else:  # another database: only missing rows (its transaction isolation must keep them from racing)
        have = set(conn.execute(select(ratings.c.key).where(ratings.c.title == title,
                                                            ratings.c.key.in_(keys))).scalars())
        missing = [row for row in rows if row["key"] not in have]
        if missing:
            conn.execute(insert(ratings), missing)


def changes_of(conn: Connection, match_id: str) -> list[Change]:
    """A match's rating changes by seat ([] for a match that was not rated)."""
    rows = conn.execute(select(rating_changes).where(rating_changes.c.match_id == match_id)
                        .order_by(rating_changes.c.seat)).mappings().all()
    return [_change(row) for row in rows]


def changes_for(conn: Connection, key: str, match_ids: list[str]) -> dict[str, Change]:
    """One player's (or bot level's) rating change in each of these matches that was rated, by match id."""
    if not match_ids:
        return {}
    rows = conn.execute(select(rating_changes).where(rating_changes.c.key == key,
                                                     rating_changes.c.match_id.in_(match_ids))).mappings().all()
    return {row["match_id"]: _change(row) for row in rows}


def _change(r: RowMapping) -> Change:
    return Change(r["match_id"], r["seat"], r["title"], r["key"], r["place"],
                  model.Skill(r["mu_before"], r["sigma_before"]), model.Skill(r["mu_after"], r["sigma_after"]),
                  r["games_after"], r["at"])
