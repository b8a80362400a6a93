"""The social room's REST answer bodies as pydantic models (see responses.py): search, profiles, friends, requests
and blocks (GraphQL's PlayerSearchPage, PlayerProfile, Friend, FriendRequests, BlockedPlayer, FriendshipChanged,
BlockChanged)."""

from __future__ import annotations

from typing import Annotated

from firebreak.api.rest.responses import END_REASONS, Answer, Player, Rating, d, enum_of
from firebreak.matches.mypage import Outcome
from firebreak.social.friends import FriendStatus

PLAYER = d("The other player.")


class PlayerSearchPage(Answer):
    """A page of the players whose handle starts with the prefix, by handle."""

    items: list[Player]
    endCursor: Annotated[str | None, d("after for the next page (null: nothing was found).")]
    hasNextPage: Annotated[bool, d("Whether more players follow.")]


class RecentMatch(Answer):
    """A finished public match of a player's profile."""

    id: str
    title: Annotated[str, d("Its title id.")]
    endedAt: Annotated[float, d("When it ended (epoch seconds).")]
    outcome: Annotated[str | None, enum_of([*(o.name for o in Outcome), None], "How it came out for the player "
                                                                             "(null: nobody won).")]
    endReason: Annotated[str | None, enum_of([*END_REASONS, None], "Why it ended.")]
    rated: Annotated[bool, d("Whether it moved its players' ratings.")]


class PlayerProfile(Answer):
    """What anyone may see of a player: handle, display name, member since, ratings with ranks, recent finished
    public matches (never a private one)."""

    id: str
    handle: str
    name: str
    memberSince: Annotated[float, d("When the player first signed in (epoch seconds).")]
    ratings: list[Rating]
    recentMatches: Annotated[list[RecentMatch], d("The most recent finished public matches, newest first (at most "
                                                  "10).")]


class LiveMatch(Answer):
    """A live public match of a friend, to watch."""

    id: str
    title: str


class Friend(Answer):
    """A friend with their presence and live public matches."""

    player: Player
    since: Annotated[float, d("Friends since (epoch seconds).")]
    online: Annotated[bool, d("Whether they hold a stream open or acted within FIREBREAK_PRESENCE_ONLINE_SECONDS.")]
    lastSeen: Annotated[float | None, d("When they were last seen (epoch seconds, to the minute; null: not for "
                                        "months).")]
    liveMatches: Annotated[list[LiveMatch], d("Their live public matches (at most 3), to watch.")]


class FriendList(Answer):
    """The signed-in player's friends, oldest friendship first."""

    items: list[Friend]


class FriendRequest(Answer):
    """A pending friend request: the other player and when it was made."""

    player: Annotated[Player, PLAYER]
    at: Annotated[float, d("When it was made (epoch seconds).")]


class FriendRequests(Answer):
    """The signed-in player's pending friend requests, both ways, oldest first."""

    incoming: Annotated[list[FriendRequest], d("Waiting for the player's answer.")]
    outgoing: Annotated[list[FriendRequest], d("Sent by the player.")]


class BlockedPlayer(Answer):
    """A player the signed-in player blocks (only they see it)."""

    player: Player
    since: Annotated[float, d("Blocked since (epoch seconds).")]


class BlockList(Answer):
    """The players the signed-in player blocks, most recent first."""

    items: list[BlockedPlayer]


class FriendshipChanged(Answer):
    """Where the caller stands with the other player now."""

    player: Annotated[Player, PLAYER]
    status: Annotated[str, enum_of([s.name for s in FriendStatus], "NONE, REQUESTED or FRIENDS.")]


class BlockChanged(Answer):
    """Whether the caller blocks the other player now."""

    player: Annotated[Player, PLAYER]
    blocked: bool
    since: Annotated[float | None, d("Blocked since (epoch seconds; null: not blocked).")]
