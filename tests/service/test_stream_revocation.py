"""A match's event stream (matchEvents over graphql-transport-ws) carries a seat's private view: it ends, as the
player's own streams do, once the credential it was opened with stops holding (issue 47, part 5, item 1). Over a
real WebSocket against an API process of its own that rechecks an open stream's credential every 0.3 s."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.service.conftest import Client, api_process
from tests.service.players_support import CREATE_TOKEN, REVOKE_TOKEN, Signed, guest, rest
from tests.service.support import Setup, act, create, join, to_act
from tests.service.test_my_matches import seat_player
from tests.service.test_subscription import _open

WITH_VIEW = """subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterVersion: $after) {
  version match { you view } } }"""
LEAVE = """mutation($input: LeaveSeatInput!) { leaveSeat(input: $input) { __typename ... on Problem { code } } }"""
IDLE = 20.0  # far past the 0.3 s recheck: a stream still open this long after the revocation never ends


@dataclass
class Streamed:
    """What one matchEvents subscription received, and how it ended."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False


@pytest.fixture(scope="module")
def rechecking(redis_url: str, workers: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process of its own that re-verifies an open stream's credential every 0.3 s."""
    with api_process(redis_url, tmp_path_factory.mktemp("revocation-api") / "api.log",
                     {"FIREBREAK_EVENTS_RECHECK_SECONDS": "0.3"}) as base:
        yield base


async def follow(base: str, match_id: str, token: str, revoke: Callable[[], None]) -> Streamed:
    """Subscribe with the token, revoke it once the first row has come (or, in a match with no step yet, once
    nothing has come for a second), then read until the server ends the subscription (error or complete) or
    nothing comes for IDLE seconds."""
    got = Streamed()
    revoked = False
    ws = await _open(base, token)
    try:
        await ws.send(json.dumps({"id": "1", "type": "subscribe",
                                  "payload": {"query": WITH_VIEW, "variables": {"id": match_id, "after": 0}}}))
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), IDLE if revoked else 1.0)
            except TimeoutError:
                if revoked:
                    return got
                revoked = True
                await asyncio.to_thread(revoke)
                continue
            message = json.loads(text)
            if message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))
                continue
            if message["type"] in ("complete", "error"):
                got.ended = True
                return got
            if message["payload"].get("errors"):
                got.errors.extend(message["payload"]["errors"])
                continue
            got.rows.append(message["payload"]["data"]["matchEvents"])
            if not revoked:
                revoked = True
                await asyncio.to_thread(revoke)
    finally:
        await ws.close()


def seated(client: Client, who: Signed, seed: int) -> Setup:
    """A 2-seat match with one step played: the player in seat 0, a person by token in seat 1 (nothing moves on
    its own)."""
    s = create(client, 2, seed)
    seat_player(client, s, who, 0)
    join(client, s, "other", 1)
    _, token, m = to_act(client, s)
    assert act(client, s.match_id, token, m["legalActions"][0], m["version"])["__typename"] == "ActionAccepted"
    return s


def codes(errors: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    """(code, reason) of each error."""
    return [(e["extensions"]["code"], e["extensions"].get("reason")) for e in errors]


def test_signing_out_everywhere_ends_an_open_match_stream(client: Client, rechecking: str) -> None:
    """A guest seated in a match follows it with its session's access token (its private view in every row), then
    signs out everywhere over REST: the stream ends with UNAUTHENTICATED (revoked) instead of carrying the view on."""
    me = guest(client, "signs out")
    s = seated(client, me, 4701)

    def sign_out() -> None:
        answer = rest(rechecking, "POST", "/v1/auth/sign-out?everywhere=true", me.access)
        assert answer.status_code == 200, answer.text

    got = asyncio.run(follow(rechecking, s.match_id, me.access, sign_out))
    assert got.rows and got.rows[0]["match"] is not None and got.rows[-1]["match"]["you"] == 0
    assert got.ended and codes(got.errors) == [("UNAUTHENTICATED", "revoked")], got


def test_revoking_a_personal_access_token_ends_an_open_match_stream(client: Client, rechecking: str) -> None:
    """The same stream opened with a personal access token ends with UNAUTHENTICATED once the token is revoked."""
    me = guest(client, "revokes")
    s = seated(client, me, 4702)
    made = client.gql(CREATE_TOKEN, {"input": {"name": "watch", "scopes": ["PLAY"]}}, me.access)["createAccessToken"]
    assert made["__typename"] == "AccessTokenCreated", made

    def revoke() -> None:
        answer = client.gql(REVOKE_TOKEN, {"id": made["accessToken"]["id"]}, me.access)["revokeAccessToken"]
        assert answer["__typename"] == "AccessTokenRevoked", answer

    got = asyncio.run(follow(rechecking, s.match_id, made["token"], revoke))
    assert got.rows and got.rows[0]["match"]["you"] == 0
    assert got.ended and codes(got.errors) == [("UNAUTHENTICATED", "unknown")], got


def test_a_seat_token_that_left_its_seat_ends_its_match_stream(client: Client, rechecking: str) -> None:
    """A person by seat token follows a waiting match as its seat, then leaves the seat (the token stops working):
    the stream ends with UNAUTHORIZED."""
    s = create(client, 2, 4703)
    joined = join(client, s, "leaver", 0)

    def leave() -> None:
        answer = client.gql(LEAVE, {"input": {"matchId": s.match_id}}, joined["token"])["leaveSeat"]
        assert answer["__typename"] == "SeatLeft", answer

    got = asyncio.run(follow(rechecking, s.match_id, joined["token"], leave))
    assert not got.rows  # a waiting match has no step yet
    assert got.ended and codes(got.errors) == [("UNAUTHORIZED", None)], got
