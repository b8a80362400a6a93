"""Reading the ratings: a title's leaderboard in pages, and one player's ratings with their ranks.

The leaderboard's order is the displayed rating, highest first (mu, to the bit), then the rating key: a total
order, so keyset cursors (the last entry's mu and key) page through it with no entry twice or left out while the
ratings stand still; a rating that moves between two pages may show on both or neither, as in any live board.
Provisional ratings are listed and marked. A rank is 1 + the number of entries ahead in that order.
"""

from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Connection, RowMapping, and_, func, or_, select

from firebreak.ratings import model
from firebreak.ratings.tables import ratings


class BadCursor(ValueError):
    """Raised for an `after` that is not a cursor of a leaderboard."""


@dataclass(frozen=True)
class Rating:
    """A rating as shown: the title, the key (a player's id or bot:<level>), mu and sigma, the rated matches played,
    the rank on the title's leaderboard."""

    title: str
    key: str
    skill: model.Skill
    games: int
    rank: int
    updated: float

    @property
    def display(self) -> int:
        """The displayed rating."""
        return self.skill.display

    @property
    def provisional(self) -> bool:
        """Whether it is still provisional (fewer than model.PROVISIONAL_GAMES rated matches)."""
        return model.provisional(self.games)

    @property
    def bot_level(self) -> str | None:
        """The bot level it rates (None: a player)."""
        return model.bot_level(self.key)

    @property
    def player(self) -> str | None:
        """The player it rates (None: a bot level)."""
        return None if self.bot_level is not None else self.key


@dataclass(frozen=True)
class Entry:
    """One leaderboard entry and its cursor."""

    cursor: str
    rating: Rating


@dataclass(frozen=True)
class Board:
    """A page of a leaderboard, its end cursor and whether more follow."""

    items: list[Entry]
    end_cursor: str | None
    has_next_page: bool


def encode(mu: float, key: str) -> str:
    """The opaque cursor of an entry."""
    return base64.urlsafe_b64encode(f"{mu!r}|{key}".encode()).decode().rstrip("=")


def decode(text: str) -> tuple[float, str]:
    """An entry's mu and key from its cursor; raise BadCursor for anything else."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
        mu_text, key = raw.split("|", 1)
        mu = float(mu_text)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise BadCursor("after is not a cursor of this leaderboard (pass a page's endCursor or an edge's cursor)") \
            from None
    if not math.isfinite(mu) or not key:
        raise BadCursor("after is not a cursor of this leaderboard (pass a page's endCursor or an edge's cursor)")
    return mu, key


def _ahead(mu: float, key: str) -> ColumnElement[bool]:
    """The condition of the entries ahead of (mu, key) in the leaderboard's order."""
    return or_(ratings.c.mu > mu, and_(ratings.c.mu == mu, ratings.c.key < key))


def leaderboard(conn: Connection, title: str, first: int, after: str | None) -> Board:
    """A page of a title's leaderboard after a cursor (None: from the top). Raise BadCursor for a bad `after`."""
    query = select(ratings).where(ratings.c.title == title)
    if after is not None:
        mu, key = decode(after)
        query = query.where(or_(ratings.c.mu < mu, and_(ratings.c.mu == mu, ratings.c.key > key)))
    rows = conn.execute(query.order_by(ratings.c.mu.desc(), ratings.c.key).limit(first + 1)).mappings().all()
    more, rows = len(rows) > first, rows[:first]
    rank = 1  # the first entry's, as of now (on a later page: counted)
    if rows and after is not None:
        rank = 1 + _count(conn, title, rows[0]["mu"], rows[0]["key"])
    items = [Entry(encode(row["mu"], row["key"]), _rating(row, rank + n)) for n, row in enumerate(rows)]
    return Board(items, items[-1].cursor if items else None, more)


def ratings_of(conn: Connection, key: str) -> list[Rating]:
    """A player's (or bot level's) rating in every title it has played rated, with its rank, by title."""
    rows = conn.execute(select(ratings).where(ratings.c.key == key).order_by(ratings.c.title)).mappings().all()
    return [_rating(row, 1 + _count(conn, row["title"], row["mu"], row["key"])) for row in rows]


def rating_of(conn: Connection, title: str, key: str) -> Rating | None:
    """A player's (or bot level's) rating in a title with its rank (None: no rated match yet)."""
    row = conn.execute(select(ratings).where(ratings.c.title == title, ratings.c.key == key)).mappings().first()
    return None if row is None else _rating(row, 1 + _count(conn, title, row["mu"], key))


def _count(conn: Connection, title: str, mu: float, key: str) -> int:
    """How many entries of the title's leaderboard are ahead of (mu, key)."""
    ahead = conn.execute(select(func.count()).select_from(ratings)
                         .where(ratings.c.title == title, _ahead(mu, key))).scalar_one()
    return int(ahead)


def _rating(row: RowMapping, rank: int) -> Rating:
    return Rating(row["title"], row["key"], model.Skill(row["mu"], row["sigma"]), row["games"], rank, row["updated"])
