"""The edges every client of the player's event stream hits (issue 50, section 1): a stream that says it is live
(`ready`, then what the client's own request caused), and a one-time ticket that opens the REST stream where no
header can be sent (a browser's EventSource), standing for the credential it was made from and never a credential
itself in the URL. Real API processes, real workers, a real Redis."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from redis import Redis

from firebreak.api.rest.responses_events import MyEvent
from firebreak.api.stream_tickets import TICKETS
from tests.service.conftest import Client, api_process
from tests.service.events_support import Got, sse, ws
from tests.service.players_support import CREATE_TOKEN, REFRESH, REVOKE_TOKEN, SIGN_OUT, Signed, guest, rest
from tests.service.support import create
from tests.service.test_my_matches import seat_player

TICKET = """mutation { createEventsTicket { __typename ... on EventsTicket { ticket expiresIn url }
  ... on Unauthenticated { code reason } } }"""
Follow = Callable[..., Any]  # opens ann's stream (until=, got=, idle= and the stream's own keywords)


@pytest.fixture(scope="module")
def rechecking(redis_url: str, workers: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process of its own that re-verifies an open stream's credential every 0.3 s."""
    with api_process(redis_url, tmp_path_factory.mktemp("stream-edges-api") / "api.log",
                     {"FIREBREAK_EVENTS_RECHECK_SECONDS": "0.3"}) as base:
        yield base


def start_match(c: Client, ann: Signed, bob: Signed, seed: int) -> str:
    """A 2-seat match both players sit in (it starts: each gets matchStarted)."""
    s = create(c, 2, seed)
    seat_player(c, s, ann, 0)
    seat_player(c, s, bob, 1)
    return s.match_id


async def _until_ready(got: Got, task: asyncio.Task[Got]) -> None:
    """Wait until the stream has said it is live (or ended without saying it)."""
    while not got.ready and not task.done():
        await asyncio.sleep(0.01)
    assert got.ready, (got.status, got.problem, got.raw[-5:])


async def open_ready_act(follow: Follow, c: Client, ann: Signed, bob: Signed, seed: int,
                         **opened: Any) -> tuple[Got, str]:
    """Open ann's stream, wait for ready, then start a match she sits in: the stream carries its matchStarted."""
    got = Got()
    task = asyncio.create_task(follow(until=lambda events: any(e["type"] == "matchStarted" for e in events),
                                      got=got, idle=30, **opened))
    await _until_ready(got, task)
    match_id = await asyncio.to_thread(start_match, c, ann, bob, seed)
    await asyncio.wait_for(task, 60)
    return got, match_id


def test_a_stream_opens_with_ready_and_carries_what_follows(client: Client, server: str) -> None:
    """Over SSE and the subscription: ready (its id the newest event's, the cursor to resume from) before any live
    event, then the event the client's own request caused."""
    ann, bob = guest(client, "ann"), guest(client, "bob")
    newest = "0"  # ann has no event yet
    for n, follow in enumerate((lambda **kw: sse(server, ann.access, **kw), lambda **kw: ws(server, ann.access, **kw))):
        got, match_id = asyncio.run(open_ready_act(follow, client, ann, bob, 10 + n))
        assert len(got.ready) == 1 and got.before == [0]  # from now on: nothing to catch up, ready first
        assert got.ready[0]["id"] == newest  # the newest event when it opened: the cursor to resume from
        started = [e for e in got.events if e["type"] == "matchStarted" and e["matchId"] == match_id]
        assert len(started) == 1
        newest = got.events[-1]["id"]
        MyEvent.model_validate(got.ready[0])
        for event in got.events:
            MyEvent.model_validate(event)


def test_ready_names_the_cursor_to_resume_from(client: Client, server: str) -> None:
    """A player with no event yet gets ready "0" (from the oldest kept); resuming from a ready's id gets exactly
    what came after it."""
    ann, bob = guest(client, "ann"), guest(client, "bob")
    fresh = asyncio.run(sse(server, ann.access, idle=2))
    assert [r["id"] for r in fresh.ready] == ["0"] and fresh.events == []
    got, _ = asyncio.run(open_ready_act(lambda **kw: sse(server, ann.access, **kw), client, ann, bob, 20))
    assert got.ready[0]["id"] == "0"
    resumed = asyncio.run(sse(server, ann.access, after=got.ready[0]["id"], idle=2))
    # every event from the first on (the match's start, and the yourTurn that came with it), each once, in order
    assert [e["id"] for e in resumed.events][:len(got.events)] == [e["id"] for e in got.events]
    assert len({e["id"] for e in resumed.events}) == len(resumed.events)
    assert resumed.before == [len(resumed.events)]  # caught up first, then ready
    assert resumed.ready[0]["id"] == resumed.events[-1]["id"]


def _rest_ticket(base: str, token: str) -> dict[str, Any]:
    answer = rest(base, "POST", "/v1/me/events/ticket", token)
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_ticket_opens_the_stream_once_without_a_header(client: Client, server: str, redis: Redis) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    over_rest = _rest_ticket(server, ann.access)
    over_graphql = client.gql(TICKET, None, ann.access)["createEventsTicket"]
    assert over_graphql["__typename"] == "EventsTicket"
    for issued in (over_rest, over_graphql):
        assert issued["ticket"].startswith("fbe_") and issued["expiresIn"] == 60
        assert issued["url"] == f"/v1/me/events?ticket={issued['ticket']}"
        # only its SHA-256 is kept, with its time to live
        assert redis.get(TICKETS.key(issued["ticket"])) is not None and redis.ttl(TICKETS.key(issued["ticket"])) > 0
        assert not redis.keys(f"*{issued['ticket']}*")
    got, match_id = asyncio.run(open_ready_act(lambda **kw: sse(server, None, **kw), client, ann, bob, 30,
                                               query={"ticket": over_rest["ticket"]}))
    assert any(e["matchId"] == match_id for e in got.events)
    used = asyncio.run(sse(server, None, query={"ticket": over_rest["ticket"]}, idle=5))
    assert used.status == 401 and used.problem is not None
    assert (used.problem["code"], used.problem["reason"]) == ("UNAUTHENTICATED", "invalid")
    unknown = asyncio.run(sse(server, None, query={"ticket": "fbe_" + "x" * 43}, idle=5))
    assert unknown.status == 401 and unknown.problem is not None and unknown.problem["code"] == "UNAUTHENTICATED"
    assert asyncio.run(sse(server, None, query={"ticket": over_graphql["ticket"]}, idle=2)).ready  # its own


def test_no_credential_is_taken_in_a_url(client: Client, server: str) -> None:
    ann = guest(client, "ann")
    token = client.gql(CREATE_TOKEN, {"input": {"name": "bot", "scopes": ["BOT"]}}, ann.access)["createAccessToken"]
    for query in ({"access_token": ann.access}, {"ticket": ann.refresh}, {"ticket": ann.access},
                  {"ticket": token["token"]}):
        refused = asyncio.run(sse(server, None, query=query, idle=5))
        assert refused.status == 401 and refused.problem is not None, query
        assert (refused.problem["code"], refused.problem["reason"]) == ("UNAUTHENTICATED", "malformed")
        assert "never taken in a URL" in refused.problem["detail"]
        assert ann.access not in str(refused.problem) and ann.refresh not in str(refused.problem)
    # the refresh token put in the URL was looked up nowhere: it still refreshes
    assert client.gql(REFRESH, {"t": ann.refresh})["refreshSession"]["__typename"] == "Session"


def test_a_ticket_dies_with_its_credential(client: Client, server: str) -> None:
    """Signed out everywhere, or its token revoked: a ticket not yet used opens nothing."""
    ann = guest(client, "ann")
    ticket = _rest_ticket(server, ann.access)["ticket"]
    client.gql(SIGN_OUT, {"e": True}, ann.access)
    refused = asyncio.run(sse(server, None, query={"ticket": ticket}, idle=5))
    assert refused.status == 401 and refused.problem is not None and refused.problem["reason"] == "revoked"
    bob = guest(client, "bob")
    token = client.gql(CREATE_TOKEN, {"input": {"name": "bot", "scopes": ["BOT"]}}, bob.access)["createAccessToken"]
    by_token = _rest_ticket(server, token["token"])["ticket"]
    revoked = client.gql(REVOKE_TOKEN, {"id": token["accessToken"]["id"]}, bob.access)["revokeAccessToken"]
    assert revoked["__typename"] == "AccessTokenRevoked", revoked
    refused = asyncio.run(sse(server, None, query={"ticket": by_token}, idle=5))
    assert refused.status == 401 and refused.problem is not None and refused.problem["reason"] == "revoked"
    assert rest(server, "POST", "/v1/me/events/ticket").status_code == 401  # no credential: no ticket
    assert client.gql(TICKET)["createEventsTicket"]["reason"] == "missing"


def test_a_stream_opened_with_a_ticket_ends_when_its_credential_is_revoked(client: Client, rechecking: str) -> None:
    ann = guest(client, "ann")
    ticket = _rest_ticket(rechecking, ann.access)["ticket"]

    async def run() -> Got:
        got = Got()
        task = asyncio.create_task(sse(rechecking, None, query={"ticket": ticket}, got=got, idle=20))
        await _until_ready(got, task)
        await asyncio.to_thread(client.gql, SIGN_OUT, {"e": False}, ann.access)  # this session only
        return await task

    got = asyncio.run(run())
    assert got.ended and got.errors == [{"code": "UNAUTHENTICATED", "reason": "revoked"}]


def test_the_ticket_route_is_charged_and_typed(server: str) -> None:
    document = httpx.get(f"{server}/v1/openapi.json", timeout=30).json()
    created = document["paths"]["/v1/me/events/ticket"]["post"]
    assert created["operationId"] == "createEventsTicket"
    assert created["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/EventsTicket"}
    assert "ticket" in [p["name"] for p in document["paths"]["/v1/me/events"]["get"]["parameters"]]
