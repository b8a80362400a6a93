"""Ratings in GraphQL: a title's leaderboard (a Relay-style connection), a player's ratings (Me.ratings) and the
rating change in a finished match (MyMatch.ratingChange). README: How ratings work."""

from __future__ import annotations

from typing import Annotated

import strawberry
from graphql import GraphQLError

from firebreak.api import leaderboards
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.context import Info
from firebreak.api.schema.mine import PageInfo, bad_cursor
from firebreak.matches.refusals import Refusal
from firebreak.ratings import board


@strawberry.type
class Rating:
    """A player's rating in one title and their rank on its leaderboard."""

    rating: strawberry.Private[board.Rating]

    @strawberry.field
    def title(self) -> str:
        """The title id."""
        return self.rating.title

    @strawberry.field
    def value(self) -> int:
        """The displayed rating (a newcomer shows 1500; 200 points ahead finishes ahead about 3 times in 4)."""
        return self.rating.display

    @strawberry.field
    def provisional(self) -> bool:
        """Whether the rating is still provisional (fewer than 10 rated matches played)."""
        return self.rating.provisional

    @strawberry.field
    def games(self) -> int:
        """Rated matches played in the title."""
        return self.rating.games

    @strawberry.field
    def rank(self) -> int:
        """The place on the title's leaderboard (1: the top; bot levels are on it too)."""
        return self.rating.rank

    @strawberry.field
    def mu(self) -> float:
        """OpenSkill's estimate of the skill (Plackett-Luce; a newcomer has 25)."""
        return self.rating.skill.mu

    @strawberry.field
    def sigma(self) -> float:
        """OpenSkill's uncertainty of mu (a newcomer has 25/3; it shrinks with rated matches)."""
        return self.rating.skill.sigma


@strawberry.type
class LeaderboardEntry:
    """One rated player or bot level on a title's leaderboard."""

    named: strawberry.Private[leaderboards.Named]

    @strawberry.field
    def rank(self) -> int:
        """The place on the leaderboard (1: the top)."""
        return self.named.entry.rating.rank

    @strawberry.field
    def player(self) -> strawberry.ID | None:
        """The player's id (null: a bot level)."""
        player = self.named.entry.rating.player
        return None if player is None else strawberry.ID(player)

    @strawberry.field
    def bot_level(self) -> str | None:
        """The bot level rated here (null: a player)."""
        return self.named.entry.rating.bot_level

    @strawberry.field
    def name(self) -> str:
        """The player's display name, or "<level> bot"."""
        return self.named.name

    @strawberry.field
    def handle(self) -> str | None:
        """The player's handle (unique; null: a bot level, or a player gone)."""
        return self.named.handle

    @strawberry.field
    def rating(self) -> int:
        """The displayed rating."""
        return self.named.entry.rating.display

    @strawberry.field
    def provisional(self) -> bool:
        """Whether the rating is still provisional (fewer than 10 rated matches played)."""
        return self.named.entry.rating.provisional

    @strawberry.field
    def games(self) -> int:
        """Rated matches played in the title."""
        return self.named.entry.rating.games

    @strawberry.field
    def mu(self) -> float:
        """OpenSkill's estimate of the skill."""
        return self.named.entry.rating.skill.mu

    @strawberry.field
    def sigma(self) -> float:
        """OpenSkill's uncertainty of mu."""
        return self.named.entry.rating.skill.sigma


@strawberry.type
class LeaderboardEdge:
    """One entry of the leaderboard and its cursor."""

    cursor: str = strawberry.field(description="Pass as `after` to list the entries after this one.")
    node: LeaderboardEntry = strawberry.field(description="The entry.")


@strawberry.type
class LeaderboardConnection:
    """A page of a title's leaderboard, highest rating first."""

    edges: list[LeaderboardEdge] = strawberry.field(description="The entries of this page, in order.")
    page_info: PageInfo = strawberry.field(description="The page's end cursor and whether more follow.")


@strawberry.type
class RatingsQuery:
    """Ratings reads."""

    @strawberry.field
    async def leaderboard(
        self, info: Info,
        title: Annotated[str, strawberry.argument(description="A title id.")],
        first: Annotated[int, strawberry.argument(description=f"The page size (1-{MAX_PAGE}).")] = 20,
        after: Annotated[str | None, strawberry.argument(description="A previous page's endCursor (or an edge's "
                                                                     "cursor).")] = None,
    ) -> LeaderboardConnection:
        """A title's rated players and bot levels, highest rating first (provisional ones marked). An unknown
        title: error TITLE_NOT_FOUND; a bad `after`: error BAD_CURSOR."""
        first = max(1, min(first, MAX_PAGE))
        try:
            page = await leaderboards.leaderboard(info.context.services, title, first, after)
        except leaderboards.TitleNotFound as exc:
            raise GraphQLError(str(exc), extensions={"code": Refusal.TITLE_NOT_FOUND.value}) from None
        except board.BadCursor as exc:
            raise bad_cursor(str(exc)) from None
        return LeaderboardConnection(
            edges=[LeaderboardEdge(cursor=named.entry.cursor, node=LeaderboardEntry(named=named))
                   for named in page.items],
            page_info=PageInfo(end_cursor=page.end_cursor, has_next_page=page.has_next_page))


async def my_ratings(info: Info, player: str) -> list[Rating]:
    """A player's ratings, one per title they have played rated."""
    return [Rating(rating=rating) for rating in await leaderboards.ratings_of(info.context.services, player)]
