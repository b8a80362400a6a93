"""Hostile requests through the real API process: queries built to make validation explode, wrong tokens on reads
and subscriptions, and the rate limits (an API process of its own, with tight limits, over a Redis of its own)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis
from websockets.asyncio.client import connect

from firebreak.api.schema import schema, validated
from firebreak.api.schema.limits import MAX_ALIASES, MAX_DEPTH
from firebreak.domain.titles import all_titles
from firebreak.matches.embedded import EmbeddedRedis
from tests.service import support as h
from tests.service.test_subscription import PROTOCOL, RECV_TIMEOUT, Received, subscribe, ws_url

HANG_GUARD = 60.0  # seconds: only so that a regression fails instead of hanging the suite


def fan(levels: int, on: str = "Title", leaf: str = "id name", root: str = "{ titles { ...F0 } }") -> str:
    """A query whose fragment n spreads fragment n+1 twice: 2^levels selections if walked naively."""
    fragments = [f"fragment F{n} on {on} {{ ...F{n + 1} ...F{n + 1} }}" for n in range(levels)]
    return " ".join([root, *fragments, f"fragment F{levels} on {on} {{ {leaf} }}"])


def post(base: str, query: str, variables: dict[str, Any] | None = None, token: str | None = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{base}/graphql", json={"query": query, "variables": variables or {}}, headers=headers,
                      timeout=HANG_GUARD)


def codes(body: dict[str, Any]) -> list[str]:
    return [e.get("extensions", {}).get("code") for e in body.get("errors", [])]


# ----- queries built to make validation explode ----------------------------------------------------------

@pytest.mark.parametrize("levels", [17, 30])
def test_a_fan_of_fragments_is_answered_like_the_plain_query(server: str, levels: int) -> None:
    """Each fragment spreads the next twice; execution merges the spreads, so the answer is the plain query's."""
    plain = post(server, "{ titles { id name } }").json()
    response = post(server, fan(levels))
    assert response.status_code == 200, response.text
    assert response.json() == plain
    assert httpx.get(f"{server}/healthz", timeout=10).status_code == 200


@pytest.mark.parametrize("levels", [17, 30])
def test_a_fan_of_fragments_over_the_limits_is_refused(server: str, levels: int) -> None:
    """The same fan, with aliases or nesting that the limits count once per fragment, is refused with a code."""
    aliased = post(server, fan(levels, leaf=" ".join(f"a{n}: id" for n in range(MAX_ALIASES + 1))))
    assert codes(aliased.json()) == ["TOO_MANY_ALIASES"], aliased.text
    # a fan through introspection types that re-enters itself: a cycle through fields, nested without end
    looping = post(server, fan(levels, on="__Type", leaf="name fields { type { ...F0 } }",
                               root="{ __schema { types { ...F0 } } }"))
    assert codes(looping.json()) == ["QUERY_TOO_DEEP"], looping.text


def test_repeated_field_names_are_refused_before_the_quadratic_merge_check(server: str) -> None:
    """OverlappingFieldsCanBeMerged compares every pair of same-named fields: 490 of them is 120,000 pairs."""
    response = post(server, "{ " + "titles { id } " * 490 + "}")
    assert response.status_code == 200 and codes(response.json()) == ["QUERY_TOO_COMPLEX"], response.text
    deep = post(server, "{ titles { id " + "{ id " * (MAX_DEPTH + 2) + "} " * (MAX_DEPTH + 2) + "} }")
    assert codes(deep.json()) == ["QUERY_TOO_DEEP"], deep.text


def test_the_full_introspection_query_passes_the_limits(server: str) -> None:
    """GraphiQL's introspection query (fragments, 9 levels of ofType) is within every limit."""
    from graphql import get_introspection_query

    response = post(server, get_introspection_query(descriptions=True))
    assert response.status_code == 200 and "errors" not in response.json(), response.text[:500]


def test_validation_is_cached_per_query_text() -> None:
    """A query text seen before is neither walked nor validated again (the speed-up the API relies on)."""
    query = "query CachedOnce { titles { id minSeats } }"
    before = validated.cache_info()
    for _ in range(3):
        assert asyncio.run(schema.execute(query)).errors is None
    after = validated.cache_info()
    assert after.misses - before.misses <= 1 and after.hits - before.hits >= 2, (before, after)


# ----- wrong tokens on reads and subscriptions -----------------------------------------------------------

@pytest.fixture(scope="module")
def two_matches(server: str) -> Iterator[tuple[h.Setup, h.Setup]]:
    with h.recording(server) as c:
        yield h.all_human_match(c, seats=3, seed=901), h.all_human_match(c, seats=3, seed=902)


def test_a_wrong_token_on_a_query_is_unauthorized(server: str, two_matches: tuple[h.Setup, h.Setup]) -> None:
    s, other = two_matches
    for wrong in (other.humans[0], other.host, "x" * 43):
        body = post(server, h.STATE, {"id": s.match_id}, wrong).json()
        assert body["data"] == {"match": None} and codes(body) == ["UNAUTHORIZED"], body
        assert not any(wrong in e["message"] for e in body["errors"])
    not_bearer = httpx.post(f"{server}/graphql", json={"query": h.STATE, "variables": {"id": s.match_id}},
                            headers={"authorization": f"Basic {s.humans[0]}"}, timeout=30).json()
    assert codes(not_bearer) == ["UNAUTHORIZED"], not_bearer
    # no token and the match's host token read as a spectator; a seat token as its seat
    for token, seat in ((None, None), (s.host, None), (s.humans[1], 1)):
        body = post(server, h.STATE, {"id": s.match_id}, token).json()
        assert "errors" not in body and body["data"]["match"]["you"] == seat, body
    # the lobby lists many matches: a token is applied where it is valid and never refused
    page = post(server, "{ matches(status: ACTIVE, first: 100) { items { id you } } }", token=s.humans[2]).json()
    assert "errors" not in page, page
    you = {m["id"]: m["you"] for m in page["data"]["matches"]["items"]}
    assert you[s.match_id] == 2 and you[other.match_id] is None


def test_a_wrong_token_on_a_subscription_is_unauthorized(server: str, two_matches: tuple[h.Setup, h.Setup]) -> None:
    """The subscription gets an error with code UNAUTHORIZED, then complete; the connection stays usable."""
    s, other = two_matches

    async def scenario() -> tuple[Received, list[dict[str, Any]]]:
        refused = await subscribe(server, s.match_id, 0, other.humans[0])
        ws = await connect(ws_url(server), subprotocols=[PROTOCOL], open_timeout=10)
        try:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": "Bearer nope"}}))
            assert json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "s", "type": "subscribe", "payload": {
                "query": h.SUBSCRIBE, "variables": {"id": s.match_id, "after": 0}}}))
            await ws.send(json.dumps({"id": "t", "type": "subscribe", "payload": {"query": "{ titles { id } }"}}))
            answers = [json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)) for _ in range(4)]
        finally:
            await ws.close()
        return refused, answers

    refused, answers = asyncio.run(scenario())
    assert refused.completed and refused.rows == [] and codes({"errors": refused.errors}) == ["UNAUTHORIZED"]
    by_id = {(a["id"], a["type"]): a for a in answers}
    assert codes(by_id[("s", "next")]["payload"]) == ["UNAUTHORIZED"]
    assert ("s", "complete") in by_id
    assert by_id[("t", "next")]["payload"]["data"] == {"titles": [{"id": t.id} for t in all_titles()]}


# ----- rate limits ---------------------------------------------------------------------------------------

TIGHT = {"FIREBREAK_RATE_TOKEN_PER_SECOND": "2", "FIREBREAK_RATE_TOKEN_BURST": "5",
         "FIREBREAK_RATE_CLIENT_PER_SECOND": "500", "FIREBREAK_RATE_CLIENT_BURST": "1000",
         "FIREBREAK_RATE_AUTH_FAILURES_PER_SECOND": "0.1", "FIREBREAK_RATE_AUTH_FAILURES_BURST": "5"}
BLOCKED_LONG_ENOUGH = 5.0  # seconds of a block left in which the checks made while blocked surely fit


@pytest.fixture(scope="module")
def private_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis of their own for the limited API processes: their buckets must not empty the shared server's."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("rate-redis"), appendonly=False, prefer_bundled=False)
    yield server.start()
    server.stop()


@pytest.fixture
def limited(private_redis: str, tmp_path: Path) -> Iterator[str]:
    """A fresh API process with tight limits (its buckets and its memory of blocked clients start empty)."""
    Redis.from_url(private_redis).flushall()
    with h.api_process(private_redis, tmp_path / "api.log", TIGHT) as base:
        yield base


def _act(base: str, s: h.Setup, token: str, version: int) -> httpx.Response:
    variables = {"input": {"matchId": s.match_id, "action": {"type": "endActions"}, "expectedVersion": version}}
    return post(base, h.ACT, variables, token)


def _retry_after(response: httpx.Response) -> float:
    """Check a refusal's shape (429, Retry-After, RATE_LIMITED with retryAfter) and return retryAfter."""
    body = response.json()
    assert codes(body) == ["RATE_LIMITED"], body
    retry = body["errors"][0]["extensions"]["retryAfter"]
    assert isinstance(retry, (int, float)) and 0 < retry <= 60, retry
    if response.status_code == 429:
        assert int(response.headers["retry-after"]) >= 1
    return float(retry)


def test_mutations_past_a_tokens_burst_are_refused_then_allowed_after_the_hint(limited: str,
                                                                             private_redis: str) -> None:
    c = h.Client(limited)
    try:
        s = h.all_human_match(c, seats=3, seed=911)
        seat, token, m = h.to_act(c, s)
        stale = m["version"] + 7  # every act is refused as stale: nothing changes while the bucket empties
        answers = []
        for _ in range(40):
            answers.append(_act(limited, s, token, stale))
            if answers[-1].status_code == 429:
                break
        refused = answers[-1]
        assert refused.status_code == 429, [a.text for a in answers]
        assert all(a.json()["data"]["act"]["code"] == "STALE_VERSION" for a in answers[:-1])
        assert len(answers) - 1 >= 5, "the burst of 5 was not allowed"
        retry = _retry_after(refused)
        assert refused.json()["data"] is None
        # another seat of the same client is not held back by this token's bucket
        other = next(t for n, t in s.humans.items() if n != seat)
        assert _act(limited, s, other, stale).json()["data"]["act"]["code"] == "STALE_VERSION"
        time.sleep(retry)
        again = _act(limited, s, token, stale)
        assert again.status_code == 200 and again.json()["data"]["act"]["code"] == "STALE_VERSION", again.text
        assert 'firebreak_rate_limited_total{limit="mutations"} 1.0' in httpx.get(f"{limited}/metrics").text
        assert h.state(c, s.match_id, token)["version"] == m["version"]
        # every bucket is a key of its own that expires
        r = Redis.from_url(private_redis, decode_responses=True)
        buckets = list(r.scan_iter("rate:*"))
        assert buckets and all(0 < r.pttl(k) <= 60_000 for k in buckets), {k: r.pttl(k) for k in buckets}
    finally:
        c.http.close()


def _guess(guesser: httpx.Client, s: h.Setup, version: int) -> tuple[str, float]:
    """One act with a made-up token: the answer's code (UNAUTHORIZED, or RATE_LIMITED as a request error) and
    the retry hint (0 without one)."""
    variables = {"input": {"matchId": s.match_id, "action": {"type": "endActions"}, "expectedVersion": version}}
    body = guesser.post("/graphql", json={"query": h.ACT, "variables": variables},
                        headers={"authorization": f"Bearer {secrets.token_urlsafe(32)}"}).json()
    if body.get("data"):
        return str(body["data"]["act"]["code"]), 0.0
    return str(codes(body)[0]), float(body["errors"][0]["extensions"].get("retryAfter", 0))


def test_guessed_tokens_are_mostly_refused_and_the_client_may_try_again_later(limited: str) -> None:
    """300 acts with made-up tokens: past the burst of 5 failures, RATE_LIMITED, and the client's credentials
    (even a valid one) are refused until the hint has passed."""
    c = h.Client(limited)
    try:
        s = h.all_human_match(c, seats=3, seed=912)
        _seat, token, m = h.to_act(c, s)
        with httpx.Client(base_url=limited, timeout=HANG_GUARD) as guesser:
            started = time.monotonic()
            outcomes = [_guess(guesser, s, m["version"])[0] for _ in range(300)]
            elapsed = time.monotonic() - started
            unauthorized = outcomes.count("UNAUTHORIZED")
            assert unauthorized + outcomes.count("RATE_LIMITED") == 300, set(outcomes)
            assert 5 <= unauthorized <= 5 + elapsed * 0.1 + 1, (unauthorized, elapsed)
            # guess until the block has long enough to run, then try the valid token at once
            while _guess(guesser, s, m["version"])[1] < BLOCKED_LONG_ENOUGH:
                pass
        # while blocked, this client's valid token is refused too, and its reads with a token
        refused = _act(limited, s, token, m["version"] + 7)
        assert refused.status_code == 429, refused.text
        retry = _retry_after(refused)
        read = post(limited, h.STATE, {"id": s.match_id}, token)
        assert read.status_code == 429 and read.json()["data"] is None, read.text
        _retry_after(read)
        subscribed = asyncio.run(subscribe(limited, s.match_id, 0, token))
        assert subscribed.completed and subscribed.rows == [], subscribed.raw
        assert codes({"errors": subscribed.errors}) == ["RATE_LIMITED"], subscribed.errors
        # reads without a token are not auth attempts: still served
        assert post(limited, h.STATE, {"id": s.match_id}).json()["data"]["match"]["you"] is None
        time.sleep(retry)
        assert h.state(c, s.match_id, token)["version"] == m["version"]
        metrics = httpx.get(f"{limited}/metrics", timeout=10).text
        for limit in ("auth-failures", "blocked"):
            assert f'firebreak_rate_limited_total{{limit="{limit}"}}' in metrics, limit
    finally:
        c.http.close()
