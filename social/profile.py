"""A player's public profile: handle, display name, member since, rating and rank per title, and their recent
finished public matches (a private match, which includes every match a seek made, is never shown)."""

from __future__ import annotations

from dataclasses import dataclass

from firebreak.archive.database import Database
from firebreak.matches import mypage
from firebreak.matches.lifecycle import EndReason, MatchStatus
from firebreak.matches.store import MatchStore
from firebreak.players.records import Player
from firebreak.ratings import board
from firebreak.ratings.finisher import is_rated

RECENT = 10       # finished public matches a profile shows at most
PAGES = 3         # pages of the player's finished matches looked through for them (private ones are passed over)
PAGE = 20


@dataclass(frozen=True)
class Recent:
    """A finished public match as a profile shows it: id, title, when it ended, how it came out for the player
    (None: nobody won), why it ended and whether it was rated."""

    id: str
    title: str
    ended_at: float
    outcome: mypage.Outcome | None
    end_reason: EndReason | None
    rated: bool


@dataclass(frozen=True)
class Profile:
    """What anyone may see of a player."""

    player: Player
    ratings: list[board.Rating]
    recent: list[Recent]


async def profile(store: MatchStore, db: Database, player: Player) -> Profile:
    """The public profile of a player."""

    def read() -> list[board.Rating]:
        with db.read() as conn:
            return board.ratings_of(conn, player.id)

    ratings = await db.run(read)
    return Profile(player, ratings, await recent(store, player.id))


async def recent(store: MatchStore, player: str) -> list[Recent]:
    """The player's most recent finished public matches, newest first (at most RECENT)."""
    out: list[Recent] = []
    after = None
    for _page in range(PAGES):
        page = await mypage.page(store, player, MatchStatus.OVER, PAGE, after)
        for item in page.items:
            loaded = item.reading.loaded
            if loaded.listed and len(out) < RECENT:
                out.append(Recent(item.reading.id, item.reading.title, item.last_activity, item.outcome(),
                                  item.end_reason(), is_rated(loaded.meta)))
        if len(out) >= RECENT or not page.has_next_page:
            break
        after = page.end_cursor
    return out
