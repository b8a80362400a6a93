"""Players who know each other (issue 49, section 1), over GraphQL and REST against real API processes, workers and
Redis: search by case-folded handle prefix in bounded pages, public profiles that never show a private match,
friends with presence and live matches, friend events, caps with typed refusals, blocks that keep a blocked player
out every way in (friend request, invitation, rematch offer, seek pairing) with the same refusal as any other, and
forget_player for an account's deletion."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from redis import Redis

from firebreak.matches import keys as match_keys
from firebreak.players import handle_index, handles
from firebreak.players import keys as player_keys
from firebreak.social import keys
from firebreak.social.forget import forget_player
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import JOIN, Signed, guest, rest
from tests.service.test_rematch_invites import CREATE
from tests.service.test_rematch_offers import ANSWER, finished
from tests.service.test_rest_api import conforms

UPDATE = """mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename
  ... on ProfileUpdated { player { handle } } ... on Problem { code message } } }"""
SEARCH = """query($prefix: String!, $first: Int, $after: String) { searchPlayers(prefix: $prefix, first: $first,
  after: $after) { players { id handle name } endCursor hasNextPage } }"""
PROFILE = """query($handle: String, $id: ID) { player(handle: $handle, id: $id) { id handle name memberSince
  ratings { title value rank } recentMatches { id title endedAt outcome endReason rated } } }"""
FRIEND_STEP = """mutation($input: PlayerRefInput!) { %s(input: $input) { __typename
  ... on FriendshipChanged { player { id handle } status } ... on Problem { code message } } }"""
BLOCK_STEP = """mutation($input: PlayerRefInput!) { %s(input: $input) { __typename
  ... on BlockChanged { player { id } blocked since } ... on Problem { code message } } }"""
FRIENDS = """{ me { friends { player { id handle } since online lastSeen liveMatches { id title } }
  friendRequests { incoming { player { id } at } outgoing { player { id } at } } blocks { player { id } since } } }"""
INVITE = """mutation($id: ID!, $handles: [String!]!) { invitePlayers(input: {matchId: $id, handles: $handles}) {
  __typename ... on PlayersInvited { playerIds } ... on Problem { code message } } }"""
SEEK = """mutation($input: SeekInput!) { seek(input: $input) { __typename ... on Seek { id status matchId seat }
  ... on Problem { code message } } }"""
MY_SEEKS = "{ me { seeks { id status matchId } } }"
MY_EVENTS = """{ me { events(first: 100) { edges { node { __typename type
  ... on FriendEvent { by handle } } } } } }"""


def named(c: Client, who: Signed, handle: str) -> str:
    """Give a guest that handle; the handle as kept."""
    done = c.gql(UPDATE, {"input": {"handle": handle}}, who.access)["updateProfile"]
    assert done["__typename"] == "ProfileUpdated", done
    return str(done["player"]["handle"])


def step(c: Client, mutation: str, who: Signed, **ref: str) -> dict[str, Any]:
    """A friendship or block mutation naming the other player by playerId or handle."""
    query = BLOCK_STEP if "block" in mutation.lower() else FRIEND_STEP
    answer: dict[str, Any] = c.gql(query % mutation, {"input": ref}, who.access)[mutation]
    return answer


def lists(c: Client, who: Signed) -> dict[str, Any]:
    """The player's friends, requests and blocks."""
    me: dict[str, Any] = c.gql(FRIENDS, token=who.access)["me"]
    return me


def feed_of(r: Redis, player: str, prefix: str = "friend") -> list[dict[str, Any]]:
    """The events of a player's stream whose type starts with prefix."""
    events = [json.loads(fields["e"]) for _, fields in r.xrange(match_keys.feed(player))]
    return [e for e in events if e["type"].startswith(prefix)]


def stem() -> str:
    """A handle start no other test uses."""
    return "s" + secrets.token_hex(4)


# ----- search ----------------------------------------------------------------------------------------------------

def test_search_finds_odd_unicode_handles_by_their_case_folded_prefix(client: Client, server: str) -> None:
    ann, bob, cat = guest(client, "ann"), guest(client, "bob"), guest(client, "cat")
    tail = "".join(random.choice("0123456789") for _ in range(6))
    greek = named(client, ann, f"ΣΟΦΊΑ{tail}")             # Greek capitals: found by lowercase, final sigma or not
    wide = named(client, bob, f"\uff2b\uff21\uff34{tail}")  # fullwidth KAT: kept as its NFKC, KAT...
    german = named(client, cat, f"Straße{tail}")           # ß casefolds to ss
    assert wide == f"KAT{tail}"
    for prefix, who, handle in ((f"σοφία{tail}", ann, greek), ("ΣΟΦΊ", ann, greek), (f"kat{tail[:3]}", bob, wide),
                                (f"\uff4b\uff41\uff54{tail}", bob, wide), (f"STRASSE{tail}", cat, german),
                                (f"straße{tail[:2]}", cat, german)):
        found = client.gql(SEARCH, {"prefix": prefix, "first": 50}, ann.access)["searchPlayers"]["players"]
        assert {"id": who.player, "handle": handle, "name": who.name} in found, (prefix, found)
        listed = httpx.get(f"{server}/v1/players", params={"prefix": prefix, "first": 50},
                           headers={"authorization": f"Bearer {ann.access}"}, timeout=30)
        assert listed.status_code == 200, listed.text
        conforms(listed.json(), "PlayerSearchPage")
        assert who.player in [p["id"] for p in listed.json()["items"]]
    assert rest(server, "GET", "/v1/players", ann.access).status_code == 422  # the prefix is required


def test_search_pages_are_bounded_and_follow_renames(client: Client, server: str, redis: Redis) -> None:
    start = stem()
    people = [guest(client, f"p{i}") for i in range(5)]
    for i, who in enumerate(people):
        named(client, who, f"{start}{i}")
    seen: list[str] = []
    after = None
    for size in (2, 2, 2):
        page = client.gql(SEARCH, {"prefix": start.upper(), "first": size, "after": after},
                          people[0].access)["searchPlayers"]
        assert len(page["players"]) <= size
        seen += [p["handle"] for p in page["players"]]
        after = page["endCursor"]
        if not page["hasNextPage"]:
            break
    assert seen == [f"{start}{i}" for i in range(5)] and not page["hasNextPage"]
    big = httpx.get(f"{server}/v1/players", params={"prefix": start[:1], "first": 10_000},
                    headers={"authorization": f"Bearer {people[0].access}"}, timeout=30).json()
    assert 1 <= len(big["items"]) <= 50  # clamped to the page bound, whatever is asked
    # a rename: the old entry goes, the new handle is found
    named(client, people[0], f"{start}zz")
    assert redis.zscore(handle_index.INDEX, handle_index.member(f"{start}0", people[0].player)) is None
    again = client.gql(SEARCH, {"prefix": start, "first": 50}, people[1].access)["searchPlayers"]["players"]
    assert [p["handle"] for p in again] == [f"{start}{i}" for i in range(1, 5)] + [f"{start}zz"]
    # bad input: typed, and nothing found or changed
    for bad in ("", " ", "a b", "x" * 25, "a/"):
        body = client.http.post("/graphql", json={"query": SEARCH, "variables": {"prefix": bad}},
                                headers={"authorization": f"Bearer {people[0].access}"}).json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["BAD_SEARCH"], (bad, body)
        refused = httpx.get(f"{server}/v1/players", params={"prefix": bad},
                            headers={"authorization": f"Bearer {people[0].access}"}, timeout=30)
        assert (refused.status_code, refused.json()["code"]) == (422, "BAD_SEARCH"), bad
    forged = httpx.get(f"{server}/v1/players", params={"prefix": start, "after": "bm90LWEtY3Vyc29y"},
                       headers={"authorization": f"Bearer {people[0].access}"}, timeout=30)
    assert (forged.status_code, forged.json()["code"]) == (422, "BAD_CURSOR")
    assert rest(server, "GET", f"/v1/players?prefix={start}").status_code == 401  # a player's credential is needed


# ----- profiles --------------------------------------------------------------------------------------------------

def test_a_profile_shows_finished_public_matches_and_never_a_private_one(client: Client, server: str,
                                                                        redis: Redis) -> None:
    public, _tokens, (ann, cat) = finished(client, 4901, anonymous=False)
    private = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 2, "seed": 4902, "private": True}},
                         ann.access)["createMatch"]
    s = h.Setup(private["matchId"], private["hostToken"], 2, 4902, {})
    s.humans[0] = client.gql(JOIN, {"input": {"matchId": s.match_id, "seat": 0}}, ann.access)["joinMatch"]["token"]
    s.humans[1] = client.gql(JOIN, {"input": {"code": private["inviteCode"]}},
                             cat.access)["joinMatch"]["token"]
    assert h.play_to_end(client, s, random.Random(4902)).final["status"] == "OVER"
    assert private["inviteCode"]  # private: out of the lobby, reached by its code
    handle = client.gql("{ me { handle } }", token=ann.access)["me"]["handle"]

    def shown() -> list[str]:
        got = client.gql(PROFILE, {"handle": handle.upper()})["player"]  # no credential needed; case-folded
        return [m["id"] for m in got["recentMatches"]]

    h.wait_for(lambda: public.match_id in shown(), "the finished public match on the profile")
    assert s.match_id not in shown()
    profile = client.gql(PROFILE, {"id": ann.player})["player"]
    assert (profile["id"], profile["handle"], profile["name"]) == (ann.player, handle, "ann")
    assert profile["memberSince"] > 0 and profile["ratings"] == []
    mine = next(m for m in profile["recentMatches"] if m["id"] == public.match_id)
    assert mine["title"] == "greatfire" and mine["endReason"] == "FINISHED" and mine["rated"] is False
    by_handle = rest(server, "GET", f"/v1/players/{handle}")
    by_id = rest(server, "GET", f"/v1/players/id/{ann.player}")
    assert by_handle.status_code == by_id.status_code == 200
    conforms(by_handle.json(), "PlayerProfile")
    assert by_handle.json()["recentMatches"] == by_id.json()["recentMatches"]
    assert s.match_id not in [m["id"] for m in by_id.json()["recentMatches"]]
    assert client.gql(PROFILE, {"handle": "nobody-" + stem()})["player"] is None
    missing = rest(server, "GET", "/v1/players/nobody-x1")
    assert (missing.status_code, missing.json()["code"]) == (404, "PLAYER_NOT_FOUND")
    long = "a" * 10_000  # hostile: a handle no one can hold is looked up no further
    assert client.gql(PROFILE, {"handle": long})["player"] is None
    assert rest(server, "GET", f"/v1/players/{long}").status_code == 404
    assert rest(server, "POST", "/v1/me/blocks", ann.access, {"handle": long}).status_code == 422  # the bound


# ----- friends ---------------------------------------------------------------------------------------------------

def test_friends_request_accept_with_events_presence_and_live_matches(client: Client, server: str,
                                                                     redis: Redis) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    bob_handle = client.gql("{ me { handle } }", token=bob.access)["me"]["handle"]
    asked = step(client, "requestFriend", ann, handle=bob_handle.upper())
    assert asked == {"__typename": "FriendshipChanged", "player": {"id": bob.player, "handle": bob_handle},
                     "status": "REQUESTED"}
    assert step(client, "requestFriend", ann, playerId=bob.player)["status"] == "REQUESTED"  # again: no change
    told = feed_of(redis, bob.player)
    assert [(e["type"], e["by"]) for e in told] == [("friendRequested", ann.player)]
    assert set(told[0]) == {"type", "at", "by", "handle"}  # public facts only
    assert [r["player"]["id"] for r in lists(client, bob)["friendRequests"]["incoming"]] == [ann.player]
    assert [r["player"]["id"] for r in lists(client, ann)["friendRequests"]["outgoing"]] == [bob.player]
    requests = rest(server, "GET", "/v1/me/friend-requests", bob.access)
    conforms(requests.json(), "FriendRequests")
    accepted = rest(server, "POST", f"/v1/me/friend-requests/{ann.player}/accept", bob.access)
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["status"] == "FRIENDS" and accepted.json()["player"]["id"] == ann.player
    assert [(e["type"], e["by"]) for e in feed_of(redis, ann.player)] == [("friendAccepted", bob.player)]
    past = client.gql(MY_EVENTS, token=ann.access)["me"]["events"]["edges"]
    assert [e["node"] for e in past if e["node"]["__typename"] == "FriendEvent"] == [
        {"__typename": "FriendEvent", "type": "FRIEND_ACCEPTED", "by": bob.player, "handle": bob_handle}]
    kinds = rest(server, "GET", "/v1/me/push-preferences", ann.access).json()
    assert kinds["friendRequested"] is True and kinds["friendAccepted"] is True  # pushed unless turned off
    for me, other in ((ann, bob), (bob, ann)):
        mine = lists(client, me)
        assert [f["player"]["id"] for f in mine["friends"]] == [other.player]
        assert mine["friendRequests"] == {"incoming": [], "outgoing": []}
        friend = mine["friends"][0]
        assert friend["online"] is True and friend["lastSeen"] is not None  # they just acted
    again = step(client, "acceptFriend", bob, playerId=ann.player)
    assert (again["__typename"], again["code"]) == ("FriendRequestNotFound", "FRIEND_REQUEST_NOT_FOUND")
    twice = step(client, "requestFriend", ann, playerId=bob.player)
    assert (twice["__typename"], twice["code"]) == ("AlreadyFriends", "ALREADY_FRIENDS")
    myself = step(client, "requestFriend", ann, playerId=ann.player)
    assert (myself["__typename"], myself["code"]) == ("InvalidInput", "NOT_YOURSELF")
    nobody = step(client, "requestFriend", ann, handle="nobody-" + stem())
    assert (nobody["__typename"], nobody["code"]) == ("PlayerNotFound", "PLAYER_NOT_FOUND")

    # a live public match of bob's shows in ann's list (a private one would not); a finished one no more
    made = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 2, "seed": 4903}}, bob.access)["createMatch"]
    game = h.Setup(made["matchId"], made["hostToken"], 2, 4903, {})
    bound = client.gql(JOIN, {"input": {"matchId": game.match_id, "seat": 0}}, bob.access)["joinMatch"]
    assert bound["__typename"] == "SeatJoined", bound
    assert h.add_bot(client, game, "random")["started"] is True

    def live() -> list[str]:
        friends = rest(server, "GET", "/v1/me/friends", ann.access).json()
        conforms(friends, "FriendList")
        return [m["id"] for m in friends["items"][0]["liveMatches"]]

    h.wait_for(lambda: game.match_id in live(), "bob's live match in ann's friends list")
    # last seen: a friend not seen for a while is offline, shown with when
    long_ago = time.time() - 3600
    redis.set(keys.seen(bob.player), repr(long_ago))
    shown = lists(client, ann)["friends"][0]
    assert shown["online"] is False and shown["lastSeen"] == pytest.approx(long_ago)

    # mutual requests make friends at once; decline, cancel and remove
    cat, dan = guest(client, "cat"), guest(client, "dan")
    assert step(client, "requestFriend", cat, playerId=dan.player)["status"] == "REQUESTED"
    assert step(client, "requestFriend", dan, playerId=cat.player)["status"] == "FRIENDS"
    removed = rest(server, "DELETE", f"/v1/me/friends/{cat.player}", dan.access)
    assert removed.status_code == 200 and removed.json()["status"] == "NONE"
    assert lists(client, cat)["friends"] == [] and lists(client, dan)["friends"] == []
    gone = rest(server, "DELETE", f"/v1/me/friends/{cat.player}", dan.access)
    assert (gone.status_code, gone.json()["code"]) == (404, "FRIEND_NOT_FOUND")
    assert step(client, "requestFriend", cat, playerId=dan.player)["status"] == "REQUESTED"
    assert step(client, "declineFriend", dan, playerId=cat.player)["status"] == "NONE"
    assert lists(client, cat)["friendRequests"]["outgoing"] == []
    made = rest(server, "POST", "/v1/me/friend-requests", cat.access, {"playerId": dan.player})
    assert made.status_code == 200 and made.json()["status"] == "REQUESTED"
    conforms(made.json(), "FriendshipChanged")
    cancelled = rest(server, "DELETE", f"/v1/me/friend-requests/{dan.player}", cat.access)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "NONE"
    assert lists(client, dan)["friendRequests"]["incoming"] == []
    # cat was told once, of dan's answering request; the removal, the decline and the cancel told nobody
    assert [(e["type"], e["by"]) for e in feed_of(redis, cat.player)] == [("friendAccepted", dan.player)]
    assert [(e["type"], e["by"]) for e in feed_of(redis, dan.player)] == [("friendRequested", cat.player)] * 3


def test_an_open_event_stream_keeps_a_friend_online(redis_url: str, redis: Redis,
                                                    tmp_path_factory: pytest.TempPathFactory) -> None:
    with h.private_service(redis_url, tmp_path_factory.mktemp("presence"), "firebreak-presence", api=True,
                           workers=0, FIREBREAK_PRESENCE_TOUCH_SECONDS="0") as svc, svc.client() as c:
        base = svc.base or ""
        ann, bob = guest(c, "ann"), guest(c, "bob")
        step(c, "requestFriend", ann, playerId=bob.player)
        step(c, "acceptFriend", bob, playerId=ann.player)
        redis.set(keys.seen(ann.player), repr(time.time() - 3600))  # ann not seen for an hour
        assert lists(c, bob)["friends"][0]["online"] is False
        with httpx.stream("GET", f"{base}/v1/me/events", headers={"authorization": f"Bearer {ann.access}"},
                          timeout=30) as stream:
            assert stream.status_code == 200
            h.wait_for(lambda: lists(c, bob)["friends"][0]["online"], "ann online while her stream is open")
            redis.set(keys.seen(ann.player), repr(time.time() - 3600))  # she sends nothing more: only the stream
            h.wait_for(lambda: lists(c, bob)["friends"][0]["online"], "the open stream to mark ann seen again")


# ----- caps and rate limits --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def capped(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API with small caps: 2 requests sent, 3 friends, 2 blocks, 3 searches at once."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("social-caps"), "firebreak-social-caps", api=True,
                           workers=0, FIREBREAK_FRIEND_REQUESTS_MAX="2", FIREBREAK_FRIENDS_MAX="3",
                           FIREBREAK_BLOCKS_MAX="2", FIREBREAK_SEARCH_BURST="3",
                           FIREBREAK_SEARCH_PER_SECOND="0.001") as service:
        yield service


def test_caps_are_typed_refusals_that_change_nothing(capped: h.Private, redis: Redis) -> None:
    with capped.client() as c:
        ann = guest(c, "ann")
        others = [guest(c, f"o{i}") for i in range(5)]
        assert [step(c, "requestFriend", ann, playerId=o.player)["status"] for o in others[:2]] == ["REQUESTED"] * 2
        third = step(c, "requestFriend", ann, playerId=others[2].player)
        assert (third["__typename"], third["code"]) == ("TooManyFriendRequests", "TOO_MANY_FRIEND_REQUESTS")
        assert redis.zcard(keys.outgoing(ann.player)) == 2 and redis.zcard(keys.incoming(others[2].player)) == 0
        # the asked side full: the asker is refused as for a block, and nothing is kept on either side
        zed = guest(c, "zed")
        for o in others[:2]:
            assert step(c, "requestFriend", o, playerId=zed.player)["status"] == "REQUESTED"
        full = step(c, "requestFriend", others[2], playerId=zed.player)
        assert (full["__typename"], full["code"]) == ("NotAccepted", "NOT_ACCEPTED")
        assert redis.zcard(keys.outgoing(others[2].player)) == 0 and redis.zcard(keys.incoming(zed.player)) == 2
        # friends and sent requests together at most 3
        for o in others[:2]:
            assert step(c, "acceptFriend", o, playerId=ann.player)["status"] == "FRIENDS"
        assert step(c, "requestFriend", ann, playerId=others[2].player)["status"] == "REQUESTED"
        over = step(c, "requestFriend", ann, playerId=others[3].player)
        assert (over["__typename"], over["code"]) == ("TooManyFriends", "TOO_MANY_FRIENDS")
        # blocks at most 2
        for o in others[3:5]:
            assert step(c, "blockPlayer", ann, playerId=o.player)["blocked"] is True
        many = step(c, "blockPlayer", ann, playerId=zed.player)
        assert (many["__typename"], many["code"]) == ("TooManyBlocks", "TOO_MANY_BLOCKS")
        assert redis.zcard(keys.blocks(ann.player)) == 2
        refused = rest(capped.base or "", "POST", "/v1/me/blocks", ann.access, {"playerId": zed.player})
        assert (refused.status_code, refused.json()["code"]) == (409, "TOO_MANY_BLOCKS")
        for body in ({}, {"playerId": "0" * 16}, {"handle": "no such one"}, {"playerId": ann.player}):
            bad = rest(capped.base or "", "POST", "/v1/me/friend-requests", ann.access, body)
            assert bad.status_code in (404, 409, 422), (body, bad.text)
            assert bad.json()["code"] in ("PLAYER_NOT_FOUND", "NOT_YOURSELF"), body
        assert redis.zcard(keys.outgoing(ann.player)) == 1


def test_search_is_rate_limited_per_player(capped: h.Private) -> None:
    with capped.client() as c:
        ann = guest(c, "ann")
        answers = [httpx.get(f"{capped.base}/v1/players", params={"prefix": "ann"},
                             headers={"authorization": f"Bearer {ann.access}"}, timeout=30) for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert answers[3].json()["code"] == "RATE_LIMITED" and int(answers[3].headers["retry-after"]) >= 1
        body = c.http.post("/graphql", json={"query": SEARCH, "variables": {"prefix": "ann"}},
                           headers={"authorization": f"Bearer {ann.access}"}).json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["RATE_LIMITED"]


def test_handles_given_before_the_index_are_found_after_the_backfill(redis_url: str, redis: Redis,
                                                                     tmp_path_factory: pytest.TempPathFactory) -> None:
    """A player whose handle is held but not indexed (made before the index existed) is found once the one-time
    backfill has run: a fresh API process, the marker gone, runs it on its first search."""
    player_id = secrets.token_hex(8)
    handle = "legacy" + secrets.token_hex(3)
    redis.hset(player_keys.player(player_id), mapping={"name": "old timer", "kind": "guest", "created": "1",
                                                       "ver": "0", "links": "[]", "device": "", "handle": handle})
    redis.set(player_keys.handle(handles.key(handle)), f"{player_id} 1.0")
    redis.delete(handle_index.BUILT)
    with h.private_service(redis_url, tmp_path_factory.mktemp("backfill"), "firebreak-backfill", api=True,
                           workers=0) as svc, svc.client() as c:
        ann = guest(c, "ann")
        found = c.gql(SEARCH, {"prefix": handle}, ann.access)["searchPlayers"]["players"]
    assert [p["id"] for p in found] == [player_id]
    assert redis.get(handle_index.BUILT) == "1"


# ----- blocks ----------------------------------------------------------------------------------------------------

def test_a_blocked_player_gets_the_same_refusal_every_way_in_and_nothing_changes(client: Client, server: str,
                                                                                redis: Redis) -> None:
    over, tokens, (ann, bob) = finished(client, 4904, anonymous=False)  # ann and bob played a match together
    # friends, and requests both ways with others, before the block
    assert step(client, "requestFriend", ann, playerId=bob.player)["status"] == "REQUESTED"
    assert step(client, "acceptFriend", bob, playerId=ann.player)["status"] == "FRIENDS"
    blocked = rest(server, "POST", "/v1/me/blocks", ann.access, {"playerId": bob.player})
    assert blocked.status_code == 200 and blocked.json()["blocked"] is True
    conforms(blocked.json(), "BlockChanged")
    assert lists(client, ann)["friends"] == [] and lists(client, bob)["friends"] == []
    assert [b["player"]["id"] for b in lists(client, ann)["blocks"]] == [bob.player]
    assert lists(client, bob)["blocks"] == []  # private: bob sees nothing of it
    assert feed_of(redis, bob.player, "block") == []
    assert client.gql(PROFILE, {"id": ann.player}, bob.access)["player"]["id"] == ann.player  # still public

    # a friend request: the same refusal as a full inbox, and nothing kept on either side
    refused = step(client, "requestFriend", bob, playerId=ann.player)
    assert (refused["__typename"], refused["code"]) == ("NotAccepted", "NOT_ACCEPTED")
    again = rest(server, "POST", "/v1/me/friend-requests", bob.access, {"playerId": ann.player})
    assert (again.status_code, again.json()["code"]) == (409, "NOT_ACCEPTED")
    assert "block" not in refused["message"] and "block" not in again.json()["detail"]
    assert redis.zcard(keys.incoming(ann.player)) == 0 and redis.zcard(keys.outgoing(bob.player)) == 0
    assert feed_of(redis, ann.player, "friendRequested") == []

    # an invitation to bob's match, by handle or id: refused, nobody invited
    game = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 3, "seed": 4905}}, bob.access)["createMatch"]
    ann_handle = client.gql("{ me { handle } }", token=ann.access)["me"]["handle"]
    invited = client.gql(INVITE, {"id": game["matchId"], "handles": [ann_handle]}, bob.access)["invitePlayers"]
    assert (invited["__typename"], invited["code"]) == ("NotAccepted", "NOT_ACCEPTED")
    by_host = rest(server, "POST", f"/v1/matches/{game['matchId']}/invitations", game["hostToken"],
                   {"playerIds": [ann.player]})
    assert (by_host.status_code, by_host.json()["code"]) == (409, "NOT_ACCEPTED")
    assert redis.hlen(match_keys.invited(game["matchId"])) == 0
    assert redis.zcard(player_keys.invitations(ann.player)) == 0
    assert feed_of(redis, ann.player, "invited") == []
    cat = guest(client, "cat")  # anyone else is still invited as before
    fine = client.gql(INVITE, {"id": game["matchId"], "handles": [client.gql("{ me { handle } }",
                                                                             token=cat.access)["me"]["handle"]]},
                      bob.access)["invitePlayers"]
    assert fine["__typename"] == "PlayersInvited", fine
    stranger = guest(client, "eve")  # a non-host naming ann is refused for that, as before (nothing learned)
    not_host = client.gql(INVITE, {"id": game["matchId"], "handles": [ann_handle]}, stranger.access)["invitePlayers"]
    assert not_host["code"] == "NOT_CREATOR"

    # a rematch offer of their over match: refused, no offer stands, ann told nothing
    offered = client.gql(ANSWER % "offerRematch", {"id": over.match_id}, tokens[1])["offerRematch"]
    assert (offered["__typename"], offered["code"]) == ("NotAccepted", "NOT_ACCEPTED")
    via_rest = rest(server, "POST", f"/v1/matches/{over.match_id}/rematch-offer", tokens[1])
    assert (via_rest.status_code, via_rest.json()["code"]) == (409, "NOT_ACCEPTED")
    assert redis.hgetall(match_keys.rematch_offer(over.match_id)) == {}
    assert feed_of(redis, ann.player, "rematch") == []
    # a seat at the other's waiting table, either way: refused, the seats as they were; anyone else sits down
    mine = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 3, "seed": 4906}}, ann.access)["createMatch"]
    for table, joiner in ((mine["matchId"], bob), (game["matchId"], ann)):  # ann's own table; bob's (hostPlayer)
        sat = client.gql(JOIN, {"input": {"matchId": table}}, joiner.access)["joinMatch"]
        assert (sat["__typename"], sat["code"]) == ("NotAccepted", "NOT_ACCEPTED"), sat
        by_rest = rest(server, "POST", f"/v1/matches/{table}/seats", joiner.access, {})
        assert (by_rest.status_code, by_rest.json()["code"]) == (409, "NOT_ACCEPTED"), by_rest.text
        assert "block" not in sat["message"] and "block" not in by_rest.json()["detail"]
        seats = rest(server, "GET", f"/v1/matches/{table}").json()["seats"]
        assert not any(seat.get("player") == joiner.player for seat in seats) and len(seats) == 3, seats
    assert client.gql(JOIN, {"input": {"matchId": mine["matchId"]}}, cat.access)["joinMatch"][
        "__typename"] == "SeatJoined"
    assert any(seat.get("player") == cat.player for seat in rest(server, "GET", f"/v1/matches/{mine['matchId']}")
               .json()["seats"])  # a seat names its player: the check above could see bob or ann had they sat

    # the blocker may still offer; unblocking lets bob ask again
    assert client.gql(ANSWER % "offerRematch", {"id": over.match_id}, tokens[0])["offerRematch"][
        "__typename"] == "Rematched"
    lifted = rest(server, "DELETE", f"/v1/me/blocks/{bob.player}", ann.access)
    assert lifted.status_code == 200 and lifted.json()["blocked"] is False
    assert step(client, "requestFriend", bob, playerId=ann.player)["status"] == "REQUESTED"


def test_seeks_never_seat_a_blocked_pair_together(redis_url: str, redis: Redis,
                                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    with h.private_service(redis_url, tmp_path_factory.mktemp("social-seeks"), "firebreak-social-seeks", api=True,
                           workers=1, FIREBREAK_TICK_SECONDS="0.1") as svc, svc.client() as c:
        svc.wait_reconciling()
        ann, bob, cat, dan = (guest(c, n) for n in ("ann", "bob", "cat", "dan"))
        assert step(c, "blockPlayer", ann, playerId=bob.player)["blocked"] is True
        wanted = {"title": "greatfire", "seats": 2, "options": {"npcTies": "conductor"}}
        other_pool = {"title": "greatfire", "seats": 2, "options": {"npcTies": "random"}}
        seeks: dict[str, str] = {}

        def place(who: Signed, pool: dict[str, Any]) -> None:
            placed = c.gql(SEEK, {"input": pool}, who.access)["seek"]
            assert placed["__typename"] == "Seek", placed
            seeks[who.player] = placed["id"]

        def matched(who: Signed) -> str | None:
            found = [s for s in c.gql(MY_SEEKS, token=who.access)["me"]["seeks"] if s["id"] == seeks[who.player]]
            return found[0]["matchId"] if found and found[0]["status"] == "MATCHED" else None

        place(bob, wanted)  # bob first: the oldest anchors the table, and ann may not sit at it
        place(ann, wanted)
        for who in (cat, dan):  # a pair in another pool, queued after: once it is matched, a pass saw ann and bob
            place(who, other_pool)
        h.wait_for(lambda: matched(cat), "the other pool's pair matched", deadline=60)
        assert matched(ann) is None and matched(bob) is None  # alone together in their pool, and kept apart
        eve, fay = guest(c, "eve"), guest(c, "fay")
        for who in (eve, fay):
            place(who, wanted)
        tables: dict[str, str] = {}
        for who in (ann, bob, eve, fay):
            tables[who.player] = h.wait_for(functools.partial(matched, who), f"{who.name}'s seek matched", deadline=60)
        assert tables[ann.player] != tables[bob.player]
        assert sorted(tables.values()) == sorted([tables[ann.player], tables[bob.player]] * 2)


# ----- forgetting a player -----------------------------------------------------------------------------------------

def test_forget_player_removes_every_social_trace_both_ways(client: Client, redis_url: str, redis: Redis) -> None:
    ann, bob, cat, dan, eve, fay = (guest(client, n) for n in ("ann", "bob", "cat", "dan", "eve", "fay"))
    handle = named(client, ann, stem())
    step(client, "requestFriend", ann, playerId=bob.player)
    step(client, "acceptFriend", bob, playerId=ann.player)
    step(client, "requestFriend", ann, playerId=cat.player)  # ann asked cat
    step(client, "requestFriend", dan, playerId=ann.player)  # dan asked ann
    step(client, "blockPlayer", ann, playerId=eve.player)
    step(client, "blockPlayer", fay, playerId=ann.player)
    assert redis.zscore(handle_index.INDEX, handle_index.member(handle, ann.player)) is not None

    async def forget() -> None:
        async with aioredis.Redis.from_url(redis_url, decode_responses=True) as r:
            await forget_player(r, ann.player)
            await forget_player(r, ann.player)  # idempotent

    asyncio.run(forget())
    assert [redis.exists(key) for key in keys.every(ann.player)] == [0] * len(keys.every(ann.player))
    assert redis.zscore(keys.friends(bob.player), ann.player) is None
    assert redis.zscore(keys.incoming(cat.player), ann.player) is None
    assert redis.zscore(keys.outgoing(dan.player), ann.player) is None
    assert redis.zscore(keys.blockers(eve.player), ann.player) is None
    assert redis.zscore(keys.blocks(fay.player), ann.player) is None
    assert redis.zscore(handle_index.INDEX, handle_index.member(handle, ann.player)) is None
    assert lists(client, bob)["friends"] == [] and lists(client, fay)["blocks"] == []
