"""My matches: the signed-in player's matches as a Relay-style connection (Me.matches), their turn first."""

from __future__ import annotations

from enum import Enum

import strawberry
from graphql import GraphQLError

from firebreak.api import leaderboards
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.context import Info
from firebreak.api.schema.match import EndReason, Match, SeatInfo
from firebreak.api.schema.rematch_offer import RematchOffer
from firebreak.api.schema.types import MatchStatus
from firebreak.matches import lifecycle, mypage
from firebreak.matches.refusals import Refusal
from firebreak.matches.rematch_offers import Offers
from firebreak.ratings import ledger, model
from firebreak.ratings.finisher import is_rated


@strawberry.enum
class MyOutcome(Enum):
    """How a finished match came out for the player."""

    # matches.mypage.Outcome member for member (same names, same values)
    WON = strawberry.enum_value(mypage.Outcome.WON.value, description="The player's seat alone won.")
    SHARED = strawberry.enum_value(mypage.Outcome.SHARED.value,
                                   description="The player's seat is one of several winners (a true tie).")
    LOST = strawberry.enum_value(mypage.Outcome.LOST.value, description="Another seat won.")


@strawberry.type
class RatingChange:
    """How a finished rated match moved the player's rating."""

    change: strawberry.Private[ledger.Change]

    @strawberry.field
    def before(self) -> int:
        """The displayed rating before the match."""
        return self.change.before.display

    @strawberry.field
    def after(self) -> int:
        """The displayed rating after it."""
        return self.change.after.display

    @strawberry.field
    def delta(self) -> int:
        """after - before."""
        return self.change.delta

    @strawberry.field
    def place(self) -> int:
        """The player's place in the match (1: first; equal places are ties)."""
        return self.change.place

    @strawberry.field
    def provisional(self) -> bool:
        """Whether the rating after the match is still provisional (fewer than 10 rated matches)."""
        return model.provisional(self.change.games)


@strawberry.type
class MyMatch:
    """One of the player's matches, as the player's seat sees it."""

    item: strawberry.Private[mypage.MyMatch]
    change: strawberry.Private[ledger.Change | None] = None

    @strawberry.field
    def id(self) -> strawberry.ID:
        """The match id."""
        return strawberry.ID(self.item.reading.id)

    @strawberry.field
    def title(self) -> str:
        """The title id."""
        return self.item.reading.title

    @strawberry.field
    def status(self) -> MatchStatus:
        """WAITING (seats open), ACTIVE or OVER."""
        return MatchStatus[self.item.reading.status.name]

    @strawberry.field
    def version(self) -> int:
        """The match's version (act's expectedVersion)."""
        return self.item.reading.version

    @strawberry.field
    def seat(self) -> int:
        """The player's seat."""
        return self.item.seat

    @strawberry.field
    def your_turn(self) -> bool:
        """Whether the player owes a decision now."""
        return self.item.to_act

    @strawberry.field
    def clock_deadline(self) -> float | None:
        """When the player's time runs out (epoch seconds); null without a clock or while the player's clock is not
        running."""
        return self.item.deadline()

    @strawberry.field
    def last_activity(self) -> float:
        """When the match last changed (epoch seconds; its creation while waiting)."""
        return self.item.last_activity

    @strawberry.field
    def others(self) -> list[SeatInfo]:
        """The other seats: who sits there (name, human or bot), open seats while waiting."""
        return [SeatInfo.of(s) for s in self.item.others()]

    @strawberry.field
    def end_reason(self) -> EndReason | None:
        """Why it ended (null before)."""
        reason = self.item.end_reason()
        return None if reason is None else EndReason[reason.name]

    @strawberry.field
    def winners(self) -> list[int] | None:
        """The winning seats once over (null before; [] for an abandoned match)."""
        winners = self.item.winners()
        return None if winners is None else list(winners)

    @strawberry.field
    def outcome(self) -> MyOutcome | None:
        """WON, SHARED or LOST once over (null before, and when nobody won)."""
        outcome = self.item.outcome()
        return None if outcome is None else MyOutcome[outcome.name]

    @strawberry.field
    def rated(self) -> bool:
        """Whether the match is rated (it moves its players' ratings once played out)."""
        return is_rated(self.item.reading.loaded.meta)

    @strawberry.field
    def rating_change(self) -> RatingChange | None:
        """How the match moved the player's rating (null: not rated, not over, not played out, or not applied yet:
        the workers apply it moments after the end)."""
        return None if self.change is None else RatingChange(change=self.change)

    @strawberry.field
    async def rematch_offer(self, info: Info) -> RematchOffer | None:
        """An over match's rematch offer, standing or last (answer it with acceptRematch or declineRematch)."""
        if self.item.reading.status is not lifecycle.MatchStatus.OVER:
            return None
        offer = await Offers(info.context.services.lobby).read(self.item.reading.id)
        return None if offer is None else RematchOffer.of(offer)

    @strawberry.field
    def match(self) -> Match:
        """The whole match as the player's seat sees it (view, legal actions, clock, result)."""
        return Match(read=self.item.reading)


@strawberry.type
class MyMatchEdge:
    """One match of the list and its cursor."""

    cursor: str = strawberry.field(description="Pass as `after` to list the matches after this one.")
    node: MyMatch = strawberry.field(description="The match.")


@strawberry.type
class PageInfo:
    """Where a page of a list ends."""

    end_cursor: str | None = strawberry.field(description="The last edge's cursor: `after` for the next page (null: "
                                                           "an empty page).")
    has_next_page: bool = strawberry.field(description="Whether more follow.")


@strawberry.type
class MyMatchConnection:
    """A page of the player's matches: their turn first (oldest waiting first), then the rest by last activity."""

    edges: list[MyMatchEdge] = strawberry.field(description="The matches of this page, in order.")
    page_info: PageInfo = strawberry.field(description="The page's end cursor and whether more follow.")


def bad_cursor(message: str) -> GraphQLError:
    """The GraphQL error of an `after` that is not a cursor (code BAD_CURSOR)."""
    return GraphQLError(message, extensions={"code": Refusal.BAD_CURSOR.value})


async def my_matches(info: Info, player: str, status: MatchStatus | None, first: int,
                     after: str | None) -> MyMatchConnection:
    """A page of a player's matches (raise BAD_CURSOR for a bad `after`)."""
    first = max(1, min(first, MAX_PAGE))
    listed = None if status is None else lifecycle.MatchStatus[status.name]
    try:
        page = await mypage.page(info.context.services.store, player, listed, first, after)
    except mypage.BadCursor as exc:
        raise bad_cursor(str(exc)) from None
    changes = await leaderboards.changes(info.context.services, player, page.items)
    return MyMatchConnection(edges=[MyMatchEdge(cursor=item.cursor,
                                                node=MyMatch(item=item, change=changes.get(item.reading.id)))
                                    for item in page.items],
                             page_info=PageInfo(end_cursor=page.end_cursor, has_next_page=page.has_next_page))
