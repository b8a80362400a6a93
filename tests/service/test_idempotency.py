"""Idempotency keys: a resubmitted key returns the first outcome and never applies twice, for accepted and for
refused actions; different keys, different seats and different matches are independent."""

from __future__ import annotations

import pytest
from redis import Redis

from tests.service import support as h
from tests.service.conftest import Client


def test_a_resubmitted_key_returns_the_first_accepted_outcome(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=21)
        seat, token, m = h.to_act(c, s)
        v = m["version"]
        first = h.act(c, s.match_id, token, m["legalActions"][0], v, key="retry-me")
        assert first["__typename"] == "ActionAccepted" and first["version"] == v + 1, first
        again = h.act(c, s.match_id, token, m["legalActions"][0], v, key="retry-me")
        assert again == first, "the resubmission did not return the first outcome"
        assert h.state(c, s.match_id, None)["version"] == v + 1
        # the key, not the payload, identifies the submission: at the new version, with another legal action,
        # it still answers the first outcome and applies nothing
        now = h.state(c, s.match_id, token)
        if seat in now["toAct"]:
            later = h.act(c, s.match_id, token, now["legalActions"][-1], now["version"], key="retry-me")
            assert later == first
        # the match moves on with another key; the first key still answers its own first outcome
        _seat2, token2, m2 = h.to_act(c, s)
        moved = h.act(c, s.match_id, token2, m2["legalActions"][0], m2["version"], key="next")
        assert moved["__typename"] == "ActionAccepted" and moved["version"] == v + 2
        assert h.act(c, s.match_id, token, m["legalActions"][0], v, key="retry-me") == first
        record = h.check_replay(redis, s)
        assert record["version"] == v + 2


def test_a_resubmitted_key_returns_the_first_refused_outcome(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=22)
        seat, token, m = h.to_act(c, s)
        v = m["version"]
        # illegal
        illegal = h.act(c, s.match_id, token, {"type": "demolish", "district": "nowhere"}, v, key="bad-move")
        assert illegal["__typename"] == "IllegalAction" and illegal["code"] and illegal["at"] == v, illegal
        assert h.act(c, s.match_id, token, {"type": "demolish", "district": "nowhere"}, v, key="bad-move") == illegal
        # stale: the first outcome is kept even once the match has moved on
        stale = h.act(c, s.match_id, token, m["legalActions"][0], v + 5, key="too-late")
        assert stale["__typename"] == "StaleVersion" and stale["currentVersion"] == v, stale
        # not your turn
        other_seat = next(x for x in s.humans if x != seat)
        nyt = h.act(c, s.match_id, s.humans[other_seat], m["legalActions"][0], v, key="not-mine")
        assert nyt["__typename"] == "NotYourTurn" and nyt["code"] == "NOT_YOUR_TURN", nyt
        assert h.state(c, s.match_id, None)["version"] == v, "a refused action changed the match"
        ok = h.act(c, s.match_id, token, m["legalActions"][0], v, key="fine")
        assert ok["__typename"] == "ActionAccepted"
        assert h.act(c, s.match_id, token, {"type": "demolish", "district": "nowhere"}, v, key="bad-move") == illegal
        assert h.act(c, s.match_id, token, m["legalActions"][0], v + 5, key="too-late") == stale
        assert h.act(c, s.match_id, s.humans[other_seat], m["legalActions"][0], v, key="not-mine") == nyt
        # a refused key does not block a later legitimate use of the match, and is never applied
        assert h.state(c, s.match_id, None)["version"] == v + 1
        assert h.check_replay(redis, s)["version"] == v + 1


def test_different_keys_are_independent(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=4, seed=23)
        _seat, token, m = h.to_act(c, s)
        v = m["version"]
        action = m["legalActions"][0]
        assert h.act(c, s.match_id, token, action, v, key="x")["__typename"] == "ActionAccepted"
        y = h.act(c, s.match_id, token, action, v, key="y")
        assert y["__typename"] == "StaleVersion" and y["currentVersion"] == v + 1, \
            "another key was answered with the first key's outcome"
        _seat2, token2, m2 = h.to_act(c, s)
        z = h.act(c, s.match_id, token2, m2["legalActions"][0], m2["version"], key="z")
        assert z["__typename"] == "ActionAccepted" and z["version"] == v + 2, z
        assert h.check_replay(redis, s)["version"] == v + 2


def test_keys_are_scoped_to_the_seat_and_the_match(server: str) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=24)
        seat, token, m = h.to_act(c, s)
        first = h.act(c, s.match_id, token, m["legalActions"][0], m["version"], key="same")
        assert first["__typename"] == "ActionAccepted"
        now = h.state(c, s.match_id, None)
        idle = next(x for x in s.humans if x != seat and x not in now["toAct"])
        theirs = h.act(c, s.match_id, s.humans[idle], m["legalActions"][0], now["version"], key="same")
        assert theirs["__typename"] == "NotYourTurn", f"seat {idle} got seat {seat}'s outcome for its key: {theirs}"
        other = h.all_human_match(c, seats=3, seed=25)
        _s2, token2, m2 = h.to_act(c, other)
        there = h.act(c, other.match_id, token2, m2["legalActions"][0], m2["version"], key="same")
        assert there["__typename"] == "ActionAccepted" and there["version"] == m2["version"] + 1


@pytest.mark.parametrize("key", ["", "k" * 129, "k" * 10_000])
def test_an_out_of_range_key_is_refused_and_changes_nothing(server: str, key: str) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=26)
        _seat, token, m = h.to_act(c, s)
        result = h.act(c, s.match_id, token, m["legalActions"][0], m["version"], key=key)
        assert result["__typename"] == "IllegalAction" and result["code"] == "BAD_IDEMPOTENCY_KEY", result
        assert h.state(c, s.match_id, token) == m
        longest = h.act(c, s.match_id, token, m["legalActions"][0], m["version"], key="k" * 128)
        assert longest["__typename"] == "ActionAccepted", longest


ACT_WITH_MATCH = """mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { version match { version you toAct legalActions } } } }"""


def test_an_accepted_action_answers_with_the_match_as_it_now_stands(client: Client) -> None:
    """ActionAccepted.match saves the read a client would otherwise make; a replayed key loads it afresh."""
    c = client
    s = h.all_human_match(c, seats=3, seed=5)
    for _ in range(3):
        _seat, token, m = h.to_act(c, s)
        action = m["legalActions"][0]
        variables = {"input": {"matchId": s.match_id, "action": action, "expectedVersion": m["version"],
                               "idempotencyKey": f"k{m['version']}"}}
        first = c.gql(ACT_WITH_MATCH, variables, token)["act"]
        assert first["__typename"] == "ActionAccepted"
        now = h.state(c, s.match_id, token)
        assert first["match"]["version"] == first["version"] == now["version"]
        assert first["match"]["legalActions"] == now["legalActions"] and first["match"]["toAct"] == now["toAct"]
        again = c.gql(ACT_WITH_MATCH, variables, token)["act"]
        assert again["version"] == first["version"] and again["match"]["version"] >= first["version"]
