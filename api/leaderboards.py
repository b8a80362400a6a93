"""The ratings as both API surfaces show them: a title's leaderboard with names, a player's ratings, and a player's
rating change in each of their finished matches (README: How ratings work)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from firebreak.api.services import Services
from firebreak.archive.export import export
from firebreak.domain import titles
from firebreak.domain.errors import UnknownTitle
from firebreak.matches import mypage
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.store import Loaded
from firebreak.ratings import board, ledger, model
from firebreak.ratings.finisher import is_rated


class TitleNotFound(LookupError):
    """Raised for a leaderboard of a title this service does not serve."""


@dataclass(frozen=True)
class Named:
    """A leaderboard entry with the name it shows: the player's display name, "<level> bot" for a bot level; and
    the player's handle (None: a bot level, or a player gone)."""

    entry: board.Entry
    name: str
    handle: str | None = None


@dataclass(frozen=True)
class NamedBoard:
    """A page of a leaderboard with names, its end cursor and whether more follow."""

    items: list[Named]
    end_cursor: str | None
    has_next_page: bool


async def leaderboard(services: Services, title: str, first: int, after: str | None) -> NamedBoard:
    """A page of a title's leaderboard (raise TitleNotFound, board.BadCursor)."""
    try:
        titles.get(title)
    except UnknownTitle:
        raise TitleNotFound(f"no title {title!r}") from None
    db = await services.database()

    def read() -> board.Board:
        with db.read() as conn:
            return board.leaderboard(conn, title, first, after)

    page = await db.run(read)
    names = await asyncio.gather(*(_name(services, entry.rating) for entry in page.items))
    return NamedBoard([Named(entry, *named) for entry, named in zip(page.items, names, strict=True)],
                      page.end_cursor, page.has_next_page)


async def _name(services: Services, rating: board.Rating) -> tuple[str, str | None]:
    if rating.bot_level is not None:
        return f"{rating.bot_level} bot", None
    player = await services.players.directory.get(rating.key)
    return ("player", None) if player is None else (player.name, player.handle)


async def ratings_of(services: Services, player: str) -> list[board.Rating]:
    """A player's rating in every title they have played rated, with its rank."""
    db = await services.database()

    def read() -> list[board.Rating]:
        with db.read() as conn:
            return board.ratings_of(conn, player)

    return await db.run(read)


async def changes(services: Services, player: str, items: list[mypage.MyMatch]) -> dict[str, ledger.Change]:
    """The player's rating change in each finished rated match of a page of their matches, by match id (one read,
    none when the page has no finished rated match)."""
    rated = [item.reading.id for item in items
             if item.reading.status is MatchStatus.OVER and is_rated(item.reading.loaded.meta)]
    if not rated:
        return {}
    db = await services.database()

    def read() -> dict[str, ledger.Change]:
        with db.read() as conn:
            return ledger.changes_for(conn, player, rated)

    return await db.run(read)


def change_facts(change: ledger.Change) -> dict[str, Any]:
    """A rating change as both surfaces show it outside GraphQL's types (REST, the export): the displayed ratings
    before and after, the difference, the place, and whether the rating is still provisional."""
    return {"before": change.before.display, "after": change.after.display, "delta": change.delta,
            "place": change.place, "provisional": model.provisional(change.games)}


async def exported(services: Services, loaded: Loaded) -> dict[str, Any]:
    """The export of an over match (archive/export.py; raises NotArchivable before its end) with the rating changes
    it made, by seat (ratingChanges: [] for a match that was not rated, or not yet applied)."""
    document = await export(services.store, loaded)
    for seat in document["seats"]:  # the handle now of each player seat (a handle may change; the id does not)
        if seat.get("player"):
            player = await services.players.directory.get(seat["player"])
            seat["handle"] = None if player is None else player.handle
    changes: list[ledger.Change] = []
    if is_rated(loaded.meta):
        db = await services.database()

        def read() -> list[ledger.Change]:
            with db.read() as conn:
                return ledger.changes_of(conn, loaded.id)

        changes = await db.run(read)
    document["ratingChanges"] = [{"seat": change.seat, "key": change.key, **change_facts(change)}
                                 for change in changes]
    return document
