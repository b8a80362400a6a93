"""A player's own event stream on both surfaces (issue 25, section 1): myEvents over graphql-transport-ws and GET
/v1/me/events as Server-Sent Events, over real HTTP and WebSockets, a real Redis and real workers: resuming with
no gap or duplicate, the typed refusals, the end of a revoked credential's stream, and one shared reader."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from firebreak.api.feedhub import CLIENT_NAME as FEEDS_CLIENT
from firebreak.matches import feed, keys
from firebreak.matches.config import Settings
from firebreak.matches.feed import FeedType
from firebreak.matches.store import MatchStore
from tests.service import events_support as ev
from tests.service.conftest import Client, api_process, service_env
from tests.service.players_support import CREATE_TOKEN, REVOKE_TOKEN, SIGN_OUT, Signed, codes, guest
from tests.service.support import Played, play_to_end, wait_for
from tests.service.test_feed import events as stored
from tests.service.test_my_matches import two_seats

PAGE = """query($after: String, $first: Int!) { me { events(after: $after, first: $first) {
  edges { cursor node { __typename id type at ... on MatchEndedEvent { winners reason } } }
  pageInfo { endCursor hasNextPage } } } }"""


def ended(match_id: str) -> ev.Until:
    """Until the match's matchEnded has come."""
    return lambda events: any(e["type"] == "matchEnded" and e["matchId"] == match_id for e in events)


def count(n: int) -> ev.Until:
    """Until n events have come."""
    return lambda events: len(events) >= n


def background_play(client: Client, first: Signed, second: Signed, seed: int) -> tuple[str, threading.Thread,
                                                                                        list[Played]]:
    """A 2-seat match of the two players, played to its end in a thread (started by the caller)."""
    s = two_seats(client, first, seed, other=second)
    out: list[Played] = []
    thread = threading.Thread(target=lambda: out.append(play_to_end(client, s, random.Random(seed))), daemon=True)
    return s.match_id, thread, out


@pytest.mark.parametrize("surface", ["sse", "ws"])
def test_a_follower_dropped_mid_match_resumes_with_exactly_the_rest(client: Client, server: str, redis: Redis,
                                                                    surface: str) -> None:
    """Following from now on (after the match's start) while the match is played, the connection drops after 3
    events; reconnecting with the last id seen (SSE: Last-Event-ID; GraphQL: after) brings exactly the events
    after it, once, in order: the two parts together are the player's whole feed since the start."""
    me, other = guest(client, f"resume {surface}"), guest(client, "resume other")
    match_id, thread, played = background_play(client, me, other, 11)
    wait_for(lambda: stored(redis, me.player), "matchStarted")
    before = len(stored(redis, me.player))  # nothing moves until the thread plays: the start's events are all in

    async def scenario() -> tuple[ev.Got, ev.Got]:
        follow = ev.sse if surface == "sse" else ev.ws
        first_part = asyncio.create_task(follow(server, me.access, until=count(3)))
        await asyncio.sleep(0.3)  # subscribed (from now on) before the first move
        thread.start()
        first = await first_part
        last = first.events[-1]["id"]
        rest = await (ev.sse(server, me.access, last_event_id=last, until=ended(match_id)) if surface == "sse"
                      else ev.ws(server, me.access, after=last, until=ended(match_id)))
        return first, rest

    first, rest = asyncio.run(scenario())
    thread.join(120)
    assert played and played[0].final["status"] == "OVER"
    whole = stored(redis, me.player)
    assert whole[0]["type"] == "matchStarted" and whole[-1]["type"] == "matchEnded"
    assert first.events + rest.events == whole[before:]
    assert not first.errors and not rest.errors


def test_after_zero_replays_the_kept_events_and_me_events_pages_them(client: Client, server: str,
                                                                     redis: Redis) -> None:
    """after "0": every kept event, then the new ones; me.events pages the same events oldest first, each page
    ending where the next starts."""
    me, other = guest(client, "replay"), guest(client, "replay other")
    match_id, thread, _ = background_play(client, me, other, 12)
    thread.start()
    thread.join(120)
    wait_for(lambda: ended(match_id)(stored(redis, me.player)), "matchEnded")
    whole = stored(redis, me.player)
    sse = asyncio.run(ev.sse(server, me.access, after="0", until=count(len(whole))))
    gql = asyncio.run(ev.ws(server, me.access, after="0", until=count(len(whole))))
    assert sse.events == whole and gql.events == whole
    paged: list[str] = []
    after = None
    while True:
        page = client.gql(PAGE, {"after": after, "first": 7}, me.access)["me"]["events"]
        paged += [edge["cursor"] for edge in page["edges"]]
        assert all(edge["node"]["id"] == edge["cursor"] for edge in page["edges"])
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert paged == [e["id"] for e in whole]


def test_no_credential_a_bad_cursor_and_an_expired_one_are_typed_refusals(client: Client, server: str,
                                                                         redis_url: str, redis: Redis) -> None:
    """No credential: 401 UNAUTHENTICATED (GraphQL: error UNAUTHENTICATED); not an event id, or an id between the
    player's events: 422 BAD_CURSOR; older than the oldest kept (the feed trimmed past it): 410 CURSOR_EXPIRED; none
    of them opens a stream."""
    me = guest(client, "refusals")
    settings = Settings.from_env(service_env(redis_url))

    async def fill() -> list[str]:
        conn = AsyncRedis.from_url(redis_url, decode_responses=True)
        store = MatchStore(conn, settings, conn)
        ids = [await feed.emit(store, me.player, FeedType.INVITED, {"matchId": f"m{n}", "title": "greatfire",
                                                                     "by": None}, f"fill:{n}")
               for n in range(feed.FEED_KEPT + 300)]
        await conn.aclose()
        return ids

    ids = asyncio.run(fill())
    oldest = feed.cursor_order(redis.xrange(keys.feed(me.player), count=1)[0][0])
    assert feed.cursor_order(ids[0]) < oldest, "the feed is trimmed to its newest events"
    ms, _, _ = ids[-3].partition("-")
    theirs = f"{ms}-999999"  # between kept events, yet none of them (another player's ids look the same)

    async def scenario() -> list[ev.Got]:
        return [await ev.sse(server, None), await ev.ws(server, None),
                await ev.sse(server, me.access, after="12-x"), await ev.ws(server, me.access, after="12-x"),
                await ev.sse(server, me.access, last_event_id=theirs), await ev.ws(server, me.access, after=theirs),
                await ev.sse(server, me.access, after=ids[0]), await ev.ws(server, me.access, after=ids[0])]

    got = asyncio.run(scenario())
    wanted = [(401, "UNAUTHENTICATED"), (422, "BAD_CURSOR"), (422, "BAD_CURSOR"), (410, "CURSOR_EXPIRED")]
    for (status, code), (over_sse, over_ws) in zip(wanted, zip(got[::2], got[1::2], strict=True), strict=True):
        assert over_sse.status == status and over_sse.problem is not None and over_sse.problem["code"] == code
        assert not over_sse.events and not over_ws.events
        assert [e["extensions"]["code"] for e in over_ws.errors] == [code], over_ws.errors
    assert got[0].problem is not None and got[0].problem["reason"] == "missing"
    answer = client.post(PAGE, {"after": ids[0], "first": 5}, me.access).json()
    assert codes(answer) == ["CURSOR_EXPIRED"]
    kept = ids[-5:]
    tail = asyncio.run(ev.sse(server, me.access, after=ids[-6], until=count(5)))
    assert [e["id"] for e in tail.events] == kept


@pytest.fixture(scope="module")
def rechecking(redis_url: str, workers: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process of its own that re-verifies an open stream's credential every 0.3 s."""
    with api_process(redis_url, tmp_path_factory.mktemp("events-api") / "api.log",
                     {"FIREBREAK_EVENTS_RECHECK_SECONDS": "0.3"}) as base:
        yield base


def test_a_stream_ends_when_its_token_is_revoked_or_its_session_signed_out(client: Client, rechecking: str) -> None:
    """A personal access token revoked while its streams are open: both end with UNAUTHENTICATED (revoked), SSE
    with a last `error` event, GraphQL with an error; a session signed out: the same (reason revoked)."""
    me = guest(client, "revoked")
    made = client.gql(CREATE_TOKEN, {"input": {"name": "events", "scopes": ["PLAY"]}}, me.access)["createAccessToken"]
    assert made["__typename"] == "AccessTokenCreated", made
    token, token_id = made["token"], made["accessToken"]["id"]

    async def scenario(credential: str, revoke: Any) -> tuple[ev.Got, ev.Got]:
        streams = [asyncio.create_task(ev.sse(rechecking, credential, idle=20)),
                   asyncio.create_task(ev.ws(rechecking, credential, idle=20))]
        await asyncio.sleep(0.5)
        await asyncio.to_thread(revoke)
        sse, ws = await asyncio.gather(*streams)
        return sse, ws

    def revoke_token() -> None:
        assert client.gql(REVOKE_TOKEN, {"id": token_id}, me.access)["revokeAccessToken"]["__typename"] == \
            "AccessTokenRevoked"

    def sign_out() -> None:
        assert client.gql(SIGN_OUT, {"e": True}, me.access)["signOut"]["__typename"] == "SignedOut"

    # a revoked token is gone (reason unknown); a signed-out session's access token is revoked
    for credential, revoke, reason in ((token, revoke_token, "unknown"), (me.access, sign_out, "revoked")):
        sse, ws = asyncio.run(scenario(credential, revoke))
        assert sse.ended and sse.errors == [{"code": "UNAUTHENTICATED", "reason": reason}], sse
        assert ws.ended and [(e["extensions"]["code"], e["extensions"]["reason"]) for e in ws.errors] == [
            ("UNAUTHENTICATED", reason)], ws.errors


def test_many_idle_listeners_share_one_blocking_read_and_each_gets_its_own_events(
        client: Client, redis_url: str, redis: Redis, tmp_path: Path) -> None:
    """Thirty players follow their events through one API process of its own: Redis sees one blocking XREAD from
    it, not thirty; an event emitted to each reaches that player only, at once."""
    players = [guest(client, f"idle {n}") for n in range(30)]
    settings = Settings.from_env(service_env(redis_url))
    with api_process(redis_url, tmp_path / "api.log") as base:
        def blocked_reads() -> int:
            return sum(1 for c in redis.client_list() if c["name"] == FEEDS_CLIENT and "b" in c["flags"])

        wait_for(lambda: blocked_reads() == 0, "other processes' readers to stop", deadline=30)
        async def scenario() -> list[ev.Got]:
            tasks = [asyncio.create_task(ev.sse(base, p.access, until=count(1), idle=30)) for p in players]
            await asyncio.sleep(1.5)
            # (on a loaded machine a sample may fall between two reads of the one reader: never more than one)
            await asyncio.to_thread(wait_for, lambda: blocked_reads() == 1, "the one blocking read", 30)
            samples = []
            for _ in range(10):
                samples.append(await asyncio.to_thread(blocked_reads))
                await asyncio.sleep(0.1)
            assert max(samples) == 1, f"{samples} blocking reads for {len(players)} listeners"
            conn = AsyncRedis.from_url(redis_url, decode_responses=True)
            store = MatchStore(conn, settings, conn)
            for n, p in enumerate(players):
                await feed.emit(store, p.player, FeedType.INVITED, {"matchId": f"idle{n}", "title": "london",
                                                                     "by": None}, f"idle:{n}")
            await conn.aclose()
            return list(await asyncio.gather(*tasks))

        got = asyncio.run(scenario())
    for n, g in enumerate(got):
        assert [e["matchId"] for e in g.events] == [f"idle{n}"], g
