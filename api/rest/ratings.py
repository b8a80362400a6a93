"""REST ratings: a title's leaderboard (GraphQL's leaderboard), and the JSON of a rating and a rating change (GET
/v1/me, GET /v1/me/matches). README: How ratings work."""

from __future__ import annotations

from typing import Any

from firebreak.api import leaderboards
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.rest.problems import problem
from firebreak.api.rest.requests import title_param
from firebreak.api.rest.table import Call, Operation, Param, Reply
from firebreak.matches.refusals import Refusal
from firebreak.ratings import board


def rating_json(rating: board.Rating) -> dict[str, Any]:
    """A player's rating in one title (GraphQL's Rating)."""
    return {"title": rating.title, "value": rating.display, "provisional": rating.provisional,
            "games": rating.games, "rank": rating.rank, "mu": rating.skill.mu, "sigma": rating.skill.sigma}


def entry_json(named: leaderboards.Named) -> dict[str, Any]:
    """One leaderboard entry (GraphQL's LeaderboardEntry) with its cursor."""
    rating = named.entry.rating
    return {"rank": rating.rank, "player": rating.player, "botLevel": rating.bot_level, "name": named.name,
            "handle": named.handle,
            "rating": rating.display, "provisional": rating.provisional, "games": rating.games,
            "mu": rating.skill.mu, "sigma": rating.skill.sigma, "cursor": named.entry.cursor}


async def get_leaderboard(call: Call) -> Reply:
    """A page of a title's leaderboard."""
    first = max(1, min(call.params["first"], MAX_PAGE))
    try:
        page = await leaderboards.leaderboard(call.services, call.params["title"], first, call.params.get("after"))
    except leaderboards.TitleNotFound as exc:
        raise problem(Refusal.TITLE_NOT_FOUND, str(exc)) from None
    except board.BadCursor as exc:
        raise problem(Refusal.BAD_CURSOR, str(exc)) from None
    return Reply({"items": [entry_json(named) for named in page.items], "endCursor": page.end_cursor,
                  "hasNextPage": page.has_next_page})


OPERATIONS = [
    Operation("GET", "/v1/titles/{title}/leaderboard", "getLeaderboard", "titles", "A title's leaderboard",
              "The title's rated players and bot levels, highest rating first (provisional ratings marked), paged "
              "with cursors (a bad after: 422 BAD_CURSOR). README: How ratings work.", get_leaderboard,
              response="Leaderboard",
              params=(Param("title", "path", title_param(), "The title id.", True,
                            code=Refusal.TITLE_NOT_FOUND),
                      Param("first", "query", int, f"How many entries (clamped to 1-{MAX_PAGE}).", default=20),
                      Param("after", "query", str, "The endCursor of the previous page (or an "
                                                                  "entry's cursor).")),
              codes=(Refusal.TITLE_NOT_FOUND, Refusal.BAD_CURSOR)),
]
