"""REST social: player search, public profiles, friends with presence, friend requests and blocks (GraphQL's
searchPlayers, player, me { friends friendRequests blocks }, requestFriend, acceptFriend, declineFriend,
cancelFriendRequest, removeFriend, blockPlayer, unblockPlayer)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from pydantic import Field

from firebreak.api import social
from firebreak.api.rest import callers
from firebreak.api.rest import requests as R
from firebreak.api.rest.players import player_json
from firebreak.api.rest.problems import problem
from firebreak.api.rest.ratings import rating_json
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.matches.refusals import Refusal
from firebreak.players.handles import HANDLE_MAX
from firebreak.players.records import Player
from firebreak.social import profile, search
from firebreak.social.errors import SocialError
from firebreak.social.friends import Friends, FriendStatus


def profile_json(shown: profile.Profile) -> dict[str, Any]:
    """A player's public profile (GraphQL's PlayerProfile)."""
    player = shown.player
    return {"id": player.id, "handle": player.handle, "name": player.name, "memberSince": player.created,
            "ratings": [rating_json(rating) for rating in shown.ratings],
            "recentMatches": [{"id": m.id, "title": m.title, "endedAt": m.ended_at,
                               "outcome": None if m.outcome is None else m.outcome.name,
                               "endReason": None if m.end_reason is None else m.end_reason.name, "rated": m.rated}
                              for m in shown.recent]}


def _refused(error: SocialError) -> Exception:
    return problem(error.code, error.message)


async def search_players(call: Call) -> Reply:
    """A page of the players whose handle starts with the prefix."""
    principal = await callers.principal(call)
    await social.charge_search(call.context, principal.player.id)
    try:
        found = await search.search(call.services.store.redis, call.params["prefix"], call.params["first"],
                                    call.params.get("after"))
    except SocialError as exc:
        raise _refused(exc) from None
    return Reply({"items": [player_json(p) for p in found.items], "endCursor": found.end_cursor,
                  "hasNextPage": found.has_next_page})


async def _profile(call: Call, player_id: str | None, handle: str | None) -> Reply:
    await call.context.principal()  # a bad credential sent is refused, as everywhere
    try:
        found = await social.other(call.services, player_id, handle)
    except SocialError as exc:
        raise _refused(exc) from None
    return Reply(profile_json(await profile.profile(call.services.store, await call.services.database(), found)))


async def get_player(call: Call) -> Reply:
    """A player's public profile by handle."""
    return await _profile(call, None, call.params["handle"])


async def get_player_by_id(call: Call) -> Reply:
    """A player's public profile by id."""
    return await _profile(call, call.params["playerId"], None)


async def list_friends(call: Call) -> Reply:
    """The signed-in player's friends with presence and live public matches."""
    principal = await callers.principal(call)
    listed = await social.friend_list(call.services, principal.player.id)
    return Reply({"items": [{"player": player_json(f.player), "since": f.since, "online": f.presence.online,
                             "lastSeen": f.presence.last_seen,
                             "liveMatches": [{"id": m.id, "title": m.title} for m in f.live]} for f in listed]})


async def list_friend_requests(call: Call) -> Reply:
    """The signed-in player's pending friend requests, both ways."""
    principal = await callers.principal(call)
    steps = social.friends(call.services)
    incoming = await social.others(call.services, await steps.incoming(principal.player.id))
    outgoing = await social.others(call.services, await steps.outgoing(principal.player.id))
    return Reply({"incoming": [{"player": player_json(o.player), "at": o.since} for o in incoming],
                  "outgoing": [{"player": player_json(o.player), "at": o.since} for o in outgoing]})


async def list_blocks(call: Call) -> Reply:
    """The players the signed-in player blocks."""
    principal = await callers.principal(call)
    listed = await social.block_list(call.services, principal.player.id)
    return Reply({"items": [{"player": player_json(o.player), "since": o.since} for o in listed]})


async def _other(call: Call) -> tuple[Player, Player]:
    """The caller's player and the other player the body or the path names (raise PLAYER_NOT_FOUND)."""
    principal = await callers.principal(call)
    if call.body is not None:
        ref = call.form(R.PlayerRef)
        player_id, handle = ref.playerId, ref.handle
    else:
        player_id, handle = call.params["playerId"], None
    try:
        return principal.player, await social.other(call.services, player_id, handle)
    except SocialError as exc:
        raise _refused(exc) from None


def _changed(other: Player, status: FriendStatus) -> Reply:
    return Reply({"player": player_json(other), "status": status.name})


Step = Callable[[Friends, Player, Player], Awaitable[FriendStatus]]


def _friendship(step: Step, doc: str) -> Callable[[Call], Awaitable[Reply]]:
    """The handler of one friendship step between the caller and the player the path names."""
    async def handle(call: Call) -> Reply:
        me, other = await _other(call)
        try:
            return _changed(other, await step(social.friends(call.services), me, other))
        except SocialError as exc:
            raise _refused(exc) from None

    handle.__doc__ = doc
    return handle


request_friend = _friendship(lambda f, me, other: f.request(me, other), "Ask a player to be friends.")
accept_friend = _friendship(lambda f, me, other: f.accept(me, other), "Accept a player's friend request.")
decline_friend = _friendship(lambda f, me, other: f.decline(me.id, other.id), "Decline a player's friend request.")
cancel_friend_request = _friendship(lambda f, me, other: f.cancel(me.id, other.id),
                                    "Take back a friend request the player sent.")
remove_friend = _friendship(lambda f, me, other: f.remove(me.id, other.id), "End a friendship.")


async def block_player(call: Call) -> Reply:
    """Block a player."""
    me, other = await _other(call)
    try:
        since = await social.blocks(call.services).block(me.id, other.id)
    except SocialError as exc:
        raise _refused(exc) from None
    return Reply({"player": player_json(other), "blocked": True, "since": since})


async def unblock_player(call: Call) -> Reply:
    """Lift a block."""
    me, other = await _other(call)
    await social.blocks(call.services).unblock(me.id, other.id)
    return Reply({"player": player_json(other), "blocked": False, "since": None})


PREFIX = Param("prefix", "query", Annotated[str, Field(min_length=1, max_length=HANDLE_MAX)],
               f"The start of a handle (1-{HANDLE_MAX} characters a handle may hold, compared after NFKC and "
               "case-folded as handles are; else 422 BAD_SEARCH).", required=True, code=Refusal.BAD_SEARCH)
FIRST = Param("first", "query", int, f"How many players (clamped to 1-{search.PAGE_MAX}).", default=20)
AFTER = Param("after", "query", str, "The endCursor of the previous page.")
HANDLE = Param("handle", "path", str, "The player's handle (compared case-folded).", required=True)
PLAYER_ID = Param("playerId", "path", str, "The other player's id.", required=True)
REF_EXAMPLE = {"handle": "ann-4821"}
NAMED = (Refusal.PLAYER_NOT_FOUND,)
FRIEND_CODES = (*NAMED, Refusal.NOT_YOURSELF, Refusal.PLAYER_BLOCKED, Refusal.ALREADY_FRIENDS,
                Refusal.TOO_MANY_FRIEND_REQUESTS, Refusal.TOO_MANY_FRIENDS, Refusal.NOT_ACCEPTED)
PROFILE = ("A player's public profile: handle, display name, member since, rating and rank per title they played "
           "rated, and their most recent finished public matches (never a private one, nor a match a seek made). "
           "Needs no credential. ")
OPERATIONS = [
    Operation("GET", "/v1/players", "searchPlayers", "social", "Search players by handle",
              "The players whose handle starts with a prefix (compared case-folded after NFKC, as handles are), "
              "ordered by handle, in pages (a bad prefix: 422 BAD_SEARCH; a bad after: 422 BAD_CURSOR). Rate "
              "limited per player (FIREBREAK_SEARCH_PER_SECOND, 429 RATE_LIMITED).", search_players,
              response="PlayerSearchPage", params=(PREFIX, FIRST, AFTER), auth=Auth.PLAYER,
              codes=(Refusal.BAD_SEARCH, Refusal.BAD_CURSOR)),
    Operation("GET", "/v1/players/{handle}", "getPlayer", "social", "A player's public profile",
              PROFILE + "404 PLAYER_NOT_FOUND for a handle nobody holds.", get_player, response="PlayerProfile",
              params=(HANDLE,), codes=NAMED),
    Operation("GET", "/v1/players/id/{playerId}", "getPlayerById", "social", "A player's public profile by id",
              PROFILE + "404 PLAYER_NOT_FOUND for an unknown id.", get_player_by_id, response="PlayerProfile",
              params=(PLAYER_ID,), codes=NAMED),
    Operation("GET", "/v1/me/friends", "listFriends", "social", "List my friends",
              "The signed-in player's friends, oldest friendship first: each one online (an open event stream or "
              "match subscription, or a request within FIREBREAK_PRESENCE_ONLINE_SECONDS) or last seen, with their "
              "live public matches to watch.", list_friends, response="FriendList", auth=Auth.PLAYER),
    Operation("GET", "/v1/me/friend-requests", "listFriendRequests", "social", "List my friend requests",
              "The signed-in player's pending friend requests: incoming (to answer) and outgoing (sent).",
              list_friend_requests, response="FriendRequests", auth=Auth.PLAYER),
    Operation("POST", "/v1/me/friend-requests", "requestFriend", "social", "Ask a player to be friends",
              "Ask a player (by playerId or handle) to be friends: they get friendRequested; when they had asked "
              "you, you are friends at once (status FRIENDS). Asking again changes nothing. 409 NOT_ACCEPTED when "
              "their side cannot take it, for whatever reason.", request_friend, response="FriendshipChanged",
              body=R.PlayerRef, example=REF_EXAMPLE, auth=Auth.PLAYER, write=True, codes=FRIEND_CODES),
    Operation("POST", "/v1/me/friend-requests/{playerId}/accept", "acceptFriend", "social",
              "Accept a friend request", "Accept the friend request of that player (they get friendAccepted).",
              accept_friend, response="FriendshipChanged", params=(PLAYER_ID,), auth=Auth.PLAYER, write=True,
              codes=(*NAMED, Refusal.FRIEND_REQUEST_NOT_FOUND, Refusal.TOO_MANY_FRIENDS)),
    Operation("POST", "/v1/me/friend-requests/{playerId}/decline", "declineFriend", "social",
              "Decline a friend request", "Decline the friend request of that player (they are not told).",
              decline_friend, response="FriendshipChanged", params=(PLAYER_ID,), auth=Auth.PLAYER, write=True,
              codes=(*NAMED, Refusal.FRIEND_REQUEST_NOT_FOUND)),
    Operation("DELETE", "/v1/me/friend-requests/{playerId}", "cancelFriendRequest", "social",
              "Cancel a friend request", "Take back the friend request sent to that player.", cancel_friend_request,
              response="FriendshipChanged", params=(PLAYER_ID,), auth=Auth.PLAYER, write=True,
              codes=(*NAMED, Refusal.FRIEND_REQUEST_NOT_FOUND)),
    Operation("DELETE", "/v1/me/friends/{playerId}", "removeFriend", "social", "Remove a friend",
              "End the friendship with that player, both ways (they are not told).", remove_friend,
              response="FriendshipChanged", params=(PLAYER_ID,), auth=Auth.PLAYER, write=True,
              codes=(*NAMED, Refusal.FRIEND_NOT_FOUND)),
    Operation("GET", "/v1/me/blocks", "listBlocks", "social", "List the players I block",
              "The players the signed-in player blocks, most recent first (nobody else sees it).", list_blocks,
              response="BlockList", auth=Auth.PLAYER),
    Operation("POST", "/v1/me/blocks", "blockPlayer", "social", "Block a player",
              "Block a player (by playerId or handle), privately: any friendship and friend request between you "
              "end; they can then send you no friend request, invitation or rematch offer (each refused to them "
              "as 409 NOT_ACCEPTED, as for any other reason), and seeks never seat you together. Again changes "
              "nothing.", block_player, response="BlockChanged", body=R.PlayerRef, example=REF_EXAMPLE,
              auth=Auth.PLAYER, write=True, codes=(*NAMED, Refusal.NOT_YOURSELF, Refusal.TOO_MANY_BLOCKS)),
    Operation("DELETE", "/v1/me/blocks/{playerId}", "unblockPlayer", "social", "Unblock a player",
              "Lift the block on that player (a friendship it ended stays ended).", unblock_player,
              response="BlockChanged", params=(PLAYER_ID,), auth=Auth.PLAYER, write=True, codes=NAMED),
]
