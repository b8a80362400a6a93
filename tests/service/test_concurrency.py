"""Concurrent submissions at one version apply exactly once, through one API process or two side by side.

The matches are people-only, so nothing but the test moves them: after the race the version must have risen
by exactly one, the stream must hold exactly one step after the old version, and the seed plus the stored log
must replay to the stored state.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from redis import Redis

from tests.service import support as h
from tests.service.conftest import Client

N = 50


def _race(c: Client, redis: Redis, s: h.Setup, bases: list[str], keys_: list[str | None],
          actions: list[dict[str, Any]] | None = None) -> tuple[list[dict[str, Any]], int, int, str]:
    """Fire len(keys_) submissions of the acting seat at its current version; check it applied once."""
    seat, token, m = h.to_act(c, s)
    version = m["version"]
    if actions is None:
        results = h.act_concurrently(bases, s.match_id, token, m["legalActions"][0], version, keys_)
    else:
        results = h.act_concurrently_varied(bases, s.match_id, token, actions, version)
    kinds = Counter(r["__typename"] for r in results)
    after = h.state(c, s.match_id, None)
    assert after["version"] == version + 1, f"version {version} -> {after['version']} after the race ({kinds})"
    rows = h.all_events(c, s.match_id, token)
    assert [r["version"] for r in rows][version:] == [version + 1], "the stream does not hold exactly one new step"
    record = h.check_replay(redis, s)
    assert len(record["log"]) == version + 1
    assert record["log"][-1]["seat"] == seat
    for r in results:
        if r["__typename"] == "ActionAccepted":
            assert r["version"] == version + 1
            assert r["events"] == rows[version]["events"], "the accepted answer's events differ from the stream's"
        elif r["__typename"] == "StaleVersion":
            assert r["code"] == "STALE_VERSION" and r["currentVersion"] == version + 1, r
    return results, version, seat, token


def test_fifty_concurrent_identical_submissions_apply_once(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=11)
        results, *_ = _race(c, redis, s, [server], [None] * N)
        kinds = Counter(r["__typename"] for r in results)
        assert kinds == {"ActionAccepted": 1, "StaleVersion": N - 1}, kinds


def test_fifty_concurrent_submissions_with_distinct_keys_apply_once(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=4, seed=12)
        keys_: list[str | None] = [f"distinct-{n}" for n in range(N)]
        results, version, _seat, token = _race(c, redis, s, [server], keys_)
        kinds = Counter(r["__typename"] for r in results)
        assert kinds == {"ActionAccepted": 1, "StaleVersion": N - 1}, kinds
        # each key now answers its own first outcome again
        m = h.state(c, s.match_id, token)
        for key, first in list(zip(keys_, results, strict=True))[:10]:
            again = h.act(c, s.match_id, token, {"type": "whatever"}, m["version"], key=key)
            assert again == first, (key, first, again)
        assert h.state(c, s.match_id, None)["version"] == version + 1


def test_fifty_concurrent_submissions_sharing_a_key_all_get_the_one_accepted_outcome(server: str,
                                                                                    redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=13)
        results, *_ = _race(c, redis, s, [server], ["one-key"] * N)
        assert all(r["__typename"] == "ActionAccepted" for r in results), Counter(r["__typename"] for r in results)
        assert all(r == results[0] for r in results), "the replays differ from the first outcome"


def test_fifty_concurrent_different_actions_at_one_version_apply_once(server: str, redis: Redis) -> None:
    """Different legal actions raced at one version: exactly one of them is applied."""
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=5, seed=14)
        _seat, _token, m = h.to_act(c, s)
        rng = random.Random(14)
        actions = [rng.choice(m["legalActions"]) for _ in range(N)]
        results, *_ = _race(c, redis, s, [server], [None] * N, actions)
        kinds = Counter(r["__typename"] for r in results)
        assert kinds == {"ActionAccepted": 1, "StaleVersion": N - 1}, kinds


def test_two_api_processes_apply_concurrent_submissions_once(server: str, second_server: str,
                                                             redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=15)
        for _ in range(3):  # a few rounds, each a fresh version
            results, *_ = _race(c, redis, s, [server, second_server], [None] * N)
            kinds = Counter(r["__typename"] for r in results)
            assert kinds == {"ActionAccepted": 1, "StaleVersion": N - 1}, kinds


def test_two_api_processes_share_idempotency_keys(server: str, second_server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=16)
        results, *_ = _race(c, redis, s, [server, second_server], ["shared"] * N)
        assert all(r["__typename"] == "ActionAccepted" for r in results)
        assert all(r == results[0] for r in results)


def test_a_second_api_process_serves_the_same_matches(server: str, second_server: str) -> None:
    """Both processes read the same state: a step taken through one is seen through the other."""
    with h.recording(server) as a, h.recording(second_server) as b:
        s = h.all_human_match(a, seats=3, seed=17)
        _seat, token, m = h.to_act(a, s)
        assert h.state(b, s.match_id, token) == m
        accepted = h.act(b, s.match_id, token, m["legalActions"][0], m["version"])
        assert accepted["__typename"] == "ActionAccepted", accepted
        assert h.state(a, s.match_id, None)["version"] == m["version"] + 1


def test_a_process_starting_from_its_own_last_commit_still_answers_the_match_as_stored(
        server: str, second_server: str, redis: Redis) -> None:
    """A process acts from the match its own commit left (no read); once another process has moved the match on,
    every answer it gives at the old version, refusals included, is the stored match's: STALE_VERSION with the
    current version, never a refusal worked out on the old copy."""
    with h.recording(server) as a, h.recording(second_server) as b:
        s = h.all_human_match(a, seats=3, seed=18)
        _seat, token, m = h.to_act(a, s)
        assert h.act(a, s.match_id, token, m["legalActions"][0], m["version"])["__typename"] == "ActionAccepted"
        old_seat, old_token, old = h.to_act(a, s)  # the version process a's own commit left
        moved = h.act(b, s.match_id, old_token, old["legalActions"][0], old["version"])
        assert moved["__typename"] == "ActionAccepted", moved
        current = old["version"] + 1
        others = [t for seat, t in s.humans.items() if seat != old_seat]
        for token_, action in ((old_token, old["legalActions"][-1]),                    # legal at the old version
                               (old_token, {"type": "demolish", "district": "nowhere"}),  # illegal at it
                               (others[0], old["legalActions"][0])):                    # not that seat's turn
            answer = h.act(a, s.match_id, token_, action, old["version"])
            assert answer["__typename"] == "StaleVersion" and answer["currentVersion"] == current, answer
        _seat, token, m = h.to_act(a, s)
        assert h.act(a, s.match_id, token, m["legalActions"][0], current)["__typename"] == "ActionAccepted"
        assert h.check_replay(redis, s)["version"] == current + 1
