"""Social area: player search by handle prefix, public profiles (player), friends with presence (me.friends,
me.friendRequests), blocks (me.blocks), and their mutations (social/; REST: api/rest/social.py, same names)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, cast

import strawberry
from graphql import GraphQLError

from firebreak.api import social
from firebreak.api.context import Info
from firebreak.api.schema.match import EndReason
from firebreak.api.schema.mine import MyOutcome
from firebreak.api.schema.player import Player
from firebreak.api.schema.problems import (
    AlreadyFriends,
    ForbiddenScope,
    FriendNotFound,
    FriendRequestNotFound,
    InvalidInput,
    NotAccepted,
    PlayerBlocked,
    PlayerNotFound,
    TooManyBlocks,
    TooManyFriendRequests,
    TooManyFriends,
    Unauthenticated,
    player_problem,
    problem_type,
)
from firebreak.api.schema.ratings import Rating
from firebreak.players import records
from firebreak.players.errors import PlayerError
from firebreak.players.records import Principal
from firebreak.social import friends as friendship
from firebreak.social import profile, search
from firebreak.social.errors import SocialError


def _player(player: records.Player) -> Player:
    return Player.of(player)


@strawberry.enum
class FriendStatus(Enum):
    """Where the caller stands with another player."""

    # social.friends.FriendStatus member for member (same names, same values)
    NONE = strawberry.enum_value(friendship.FriendStatus.NONE.value, description="Neither friends nor a pending "
                                                                                  "request.")
    REQUESTED = strawberry.enum_value(friendship.FriendStatus.REQUESTED.value,
                                      description="The caller asked; the other has not answered yet.")
    FRIENDS = strawberry.enum_value(friendship.FriendStatus.FRIENDS.value, description="Friends, both ways.")


@strawberry.type
class RecentMatch:
    """A finished public match of a player's profile."""

    id: strawberry.ID = strawberry.field(description="The match's id.")
    title: str = strawberry.field(description="Its title id.")
    ended_at: float = strawberry.field(description="When it ended (epoch seconds).")
    outcome: MyOutcome | None = strawberry.field(description="WON, SHARED or LOST for the player (null: nobody won).")
    end_reason: EndReason | None = strawberry.field(description="Why it ended.")
    rated: bool = strawberry.field(description="Whether it moved its players' ratings.")

    @classmethod
    def of(cls, recent: profile.Recent) -> RecentMatch:
        """The GraphQL form of a profile's match."""
        return cls(id=strawberry.ID(recent.id), title=recent.title, ended_at=recent.ended_at,
                   outcome=None if recent.outcome is None else MyOutcome[recent.outcome.name],
                   end_reason=None if recent.end_reason is None else EndReason[recent.end_reason.name],
                   rated=recent.rated)


@strawberry.type
class PlayerProfile:
    """What anyone may see of a player: handle, display name, member since, ratings with ranks, recent finished
    public matches (never a private one)."""

    shown: strawberry.Private[profile.Profile]

    @strawberry.field
    def id(self) -> strawberry.ID:
        """The player's id."""
        return strawberry.ID(self.shown.player.id)

    @strawberry.field
    def handle(self) -> str:
        """The public handle."""
        return self.shown.player.handle

    @strawberry.field
    def name(self) -> str:
        """The display name."""
        return self.shown.player.name

    @strawberry.field
    def member_since(self) -> float:
        """When the player first signed in (epoch seconds)."""
        return self.shown.player.created

    @strawberry.field
    def ratings(self) -> list[Rating]:
        """The player's rating and leaderboard rank in every title they have played rated."""
        return [Rating(rating=rating) for rating in self.shown.ratings]

    @strawberry.field
    def recent_matches(self) -> list[RecentMatch]:
        """The player's most recent finished public matches, newest first (at most 10)."""
        return [RecentMatch.of(recent) for recent in self.shown.recent]


@strawberry.type
class PlayerSearchPage:
    """A page of the players whose handle starts with a prefix, ordered by handle."""

    players: list[Player] = strawberry.field(description="The players of this page.")
    end_cursor: str | None = strawberry.field(description="after for the next page (null: nothing was found).")
    has_next_page: bool = strawberry.field(description="Whether more players follow.")


@strawberry.type
class LiveMatch:
    """A live public match of a friend, to watch (subscribe to it, or read it, as a spectator)."""

    id: strawberry.ID = strawberry.field(description="The match's id.")
    title: str = strawberry.field(description="Its title id.")


@strawberry.type
class Friend:
    """A friend with their presence and live public matches."""

    player: Player = strawberry.field(description="The friend.")
    since: float = strawberry.field(description="Friends since (epoch seconds).")
    online: bool = strawberry.field(description="Whether they hold a stream open or acted within "
                                                "FIREBREAK_PRESENCE_ONLINE_SECONDS.")
    last_seen: float | None = strawberry.field(description="When they were last seen (epoch seconds, to the minute; "
                                                           "null: not for months).")
    live_matches: list[LiveMatch] = strawberry.field(description="Their live public matches (at most 3), to watch; "
                                                                 "invite them to yours with invitePlayers.")


@strawberry.type
class FriendRequest:
    """A pending friend request: the other player and when it was made."""

    player: Player = strawberry.field(description="The other player (who asked, or who was asked).")
    at: float = strawberry.field(description="When it was made (epoch seconds).")


@strawberry.type
class FriendRequests:
    """The caller's pending friend requests, both ways, oldest first."""

    incoming: list[FriendRequest] = strawberry.field(description="Requests waiting for the caller's answer "
                                                                 "(acceptFriend, declineFriend).")
    outgoing: list[FriendRequest] = strawberry.field(description="Requests the caller sent (cancelFriendRequest).")


@strawberry.type
class BlockedPlayer:
    """A player the caller blocks (only the caller sees it)."""

    player: Player = strawberry.field(description="The blocked player.")
    since: float = strawberry.field(description="Blocked since (epoch seconds).")


@strawberry.type
class FriendshipChanged:
    """Where the caller stands with the other player now."""

    player: Player = strawberry.field(description="The other player.")
    status: FriendStatus = strawberry.field(description="NONE, REQUESTED or FRIENDS.")


@strawberry.type
class BlockChanged:
    """Whether the caller blocks the other player now."""

    player: Player = strawberry.field(description="The other player.")
    blocked: bool = strawberry.field(description="Whether the caller blocks them now.")
    since: float | None = strawberry.field(description="Blocked since (epoch seconds; null: not blocked).")


@strawberry.input
class PlayerRefInput:
    """The other player, by id or by handle (both: they must name the same player)."""

    player_id: strawberry.ID | None = strawberry.field(default=None, description="The player's id.")
    handle: str | None = strawberry.field(default=None, description="The player's handle (compared case-folded).")


FriendResult = Annotated[
    FriendshipChanged | PlayerNotFound | InvalidInput | AlreadyFriends | FriendNotFound | FriendRequestNotFound
    | TooManyFriends | TooManyFriendRequests | PlayerBlocked | NotAccepted | Unauthenticated | ForbiddenScope,
    strawberry.union("FriendResult", description="Where the caller stands with the other player now, or why it did "
                                                 "not change.")]
BlockResult = Annotated[
    BlockChanged | PlayerNotFound | InvalidInput | TooManyBlocks | Unauthenticated | ForbiddenScope,
    strawberry.union("BlockResult", description="Whether the caller blocks the other player now, or why it did not "
                                                "change.")]
Ref = Annotated[PlayerRefInput, strawberry.argument(description="The other player.")]
SocialProblem = (PlayerNotFound | InvalidInput | AlreadyFriends | FriendNotFound | FriendRequestNotFound
                 | TooManyFriends | TooManyFriendRequests | PlayerBlocked | NotAccepted | TooManyBlocks)


def _refused(error: SocialError) -> SocialProblem:
    return cast(SocialProblem, problem_type(error.code)(code=error.code, message=error.message))


def _raised(error: SocialError) -> GraphQLError:
    """A refusal of a read (BAD_SEARCH, BAD_CURSOR) as a GraphQL error with its code."""
    return GraphQLError(error.message, extensions={"code": error.code.value})


async def my_friends(info: Info, principal: Principal) -> list[Friend]:
    """The player's friends, with presence and live public matches."""
    listed = await social.friend_list(info.context.services, principal.player.id)
    return [Friend(player=_player(f.player), since=f.since, online=f.presence.online, last_seen=f.presence.last_seen,
                   live_matches=[LiveMatch(id=strawberry.ID(m.id), title=m.title) for m in f.live]) for f in listed]


async def my_friend_requests(info: Info, principal: Principal) -> FriendRequests:
    """The player's pending friend requests, both ways."""
    services = info.context.services
    steps = social.friends(services)
    incoming = await social.others(services, await steps.incoming(principal.player.id))
    outgoing = await social.others(services, await steps.outgoing(principal.player.id))
    return FriendRequests(incoming=[FriendRequest(player=_player(o.player), at=o.since) for o in incoming],
                          outgoing=[FriendRequest(player=_player(o.player), at=o.since) for o in outgoing])


async def my_blocks(info: Info, principal: Principal) -> list[BlockedPlayer]:
    """The players the player blocks, most recent first."""
    listed = await social.block_list(info.context.services, principal.player.id)
    return [BlockedPlayer(player=_player(o.player), since=o.since) for o in listed]


@strawberry.type
class SocialQuery:
    """Social reads."""

    @strawberry.field
    async def player(
        self, info: Info,
        handle: Annotated[str | None, strawberry.argument(description="The player's handle (compared "
                                                                       "case-folded).")] = None,
        id: Annotated[strawberry.ID | None, strawberry.argument(description="The player's id.")] = None,
    ) -> PlayerProfile | None:
        """A player's public profile, by handle or id (null: no such player). Needs no credential."""
        await info.context.principal()  # a bad credential sent is refused, as everywhere
        services = info.context.services
        try:
            found = await social.other(services, None if id is None else str(id), handle)
        except SocialError:
            return None
        return PlayerProfile(shown=await profile.profile(services.store, await services.database(), found))

    @strawberry.field
    async def search_players(
        self, info: Info,
        prefix: Annotated[str, strawberry.argument(description="The start of a handle (1-24 characters, compared "
                                                               "case-folded as handles are).")],
        first: Annotated[int, strawberry.argument(description=f"The page size (1-{search.PAGE_MAX}).")] = 20,
        after: Annotated[str | None, strawberry.argument(description="The previous page's endCursor.")] = None,
    ) -> PlayerSearchPage:
        """The players whose handle starts with a prefix, by handle, in pages. Needs a player credential; rate
        limited per player (RATE_LIMITED). A bad prefix: error BAD_SEARCH; a bad after: BAD_CURSOR."""
        principal = await info.context.player_or_refusal()
        if isinstance(principal, PlayerError):
            raise GraphQLError(principal.message, extensions={"code": principal.code.value})
        await social.charge_search(info.context, principal.player.id)
        try:
            found = await search.search(info.context.services.store.redis, prefix, first, after)
        except SocialError as exc:
            raise _raised(exc) from None
        return PlayerSearchPage(players=[_player(p) for p in found.items], end_cursor=found.end_cursor,
                                has_next_page=found.has_next_page)


Resolved = tuple[Principal, records.Player]


async def _step(info: Info, ref: PlayerRefInput) -> Resolved | SocialProblem | Unauthenticated | ForbiddenScope:
    """The caller and the other player of a mutation, or why not."""
    principal = await info.context.player_or_refusal()
    if isinstance(principal, PlayerError):
        return cast(Unauthenticated | ForbiddenScope, player_problem(principal))
    try:
        other = await social.other(info.context.services, None if ref.player_id is None else str(ref.player_id),
                                   ref.handle)
    except SocialError as exc:
        return _refused(exc)
    return principal, other


async def _friend(info: Info, ref: PlayerRefInput, step: str) -> FriendResult:
    resolved = await _step(info, ref)
    if not isinstance(resolved, tuple):
        return cast(FriendResult, resolved)
    principal, other = resolved
    steps = social.friends(info.context.services)
    me = principal.player
    try:
        if step == "request":
            status = await steps.request(me, other)
        elif step == "accept":
            status = await steps.accept(me, other)
        elif step == "decline":
            status = await steps.decline(me.id, other.id)
        elif step == "cancel":
            status = await steps.cancel(me.id, other.id)
        else:
            status = await steps.remove(me.id, other.id)
    except SocialError as exc:
        return cast(FriendResult, _refused(exc))
    return FriendshipChanged(player=_player(other), status=FriendStatus(status.value))


@strawberry.type
class SocialMutation:
    """Social writes (each needs a player credential)."""

    @strawberry.mutation
    async def request_friend(self, info: Info, input: Ref) -> FriendResult:
        """Ask a player to be friends (they get friendRequested); if they had asked you, you are friends at once.
        Asking again changes nothing. NOT_ACCEPTED when their side cannot take it (whatever the reason)."""
        return await _friend(info, input, "request")

    @strawberry.mutation
    async def accept_friend(self, info: Info, input: Ref) -> FriendResult:
        """Accept a player's friend request (they get friendAccepted)."""
        return await _friend(info, input, "accept")

    @strawberry.mutation
    async def decline_friend(self, info: Info, input: Ref) -> FriendResult:
        """Decline a player's friend request (they are not told)."""
        return await _friend(info, input, "decline")

    @strawberry.mutation
    async def cancel_friend_request(self, info: Info, input: Ref) -> FriendResult:
        """Take back a friend request you sent."""
        return await _friend(info, input, "cancel")

    @strawberry.mutation
    async def remove_friend(self, info: Info, input: Ref) -> FriendResult:
        """End a friendship, both ways (they are not told)."""
        return await _friend(info, input, "remove")

    @strawberry.mutation
    async def block_player(self, info: Info, input: Ref) -> BlockResult:
        """Block a player, privately: it ends any friendship and friend request between you; they can then send
        you no friend request, invitation or rematch offer, and seeks never seat you together. Again changes
        nothing."""
        resolved = await _step(info, input)
        if not isinstance(resolved, tuple):
            return cast(BlockResult, resolved)
        principal, other = resolved
        try:
            since = await social.blocks(info.context.services).block(principal.player.id, other.id)
        except SocialError as exc:
            return cast(BlockResult, _refused(exc))
        return BlockChanged(player=_player(other), blocked=True, since=since)

    @strawberry.mutation
    async def unblock_player(self, info: Info, input: Ref) -> BlockResult:
        """Lift a block (a friendship it ended stays ended)."""
        resolved = await _step(info, input)
        if not isinstance(resolved, tuple):
            return cast(BlockResult, resolved)
        principal, other = resolved
        await social.blocks(info.context.services).unblock(principal.player.id, other.id)
        return BlockChanged(player=_player(other), blocked=False, since=None)
