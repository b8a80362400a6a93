"""bench/peer_bgio's floor (floor.py, started as the bench starts it: its own Redis and uvicorn process): the same
REST surface the driver plays, the refusals a real endpoint owes, and the same games as the service's tic-tac-toe
title (tests/titles/tictactoe.py) move for move."""

from __future__ import annotations

import random
from collections.abc import Iterator

import httpx
import pytest
from redis import Redis

from bench.floor import events_key, log_key, state_key
from bench.peer_bgio.launcher import FloorService
from tests.titles.tictactoe import TITLE


@pytest.fixture(scope="module")
def floor() -> Iterator[FloorService]:
    """The floor as the bench starts it."""
    service = FloorService()
    try:
        service.start(30)
        yield service
    finally:
        service.stop()


def _seated(c: httpx.Client) -> tuple[str, list[str]]:
    created = c.post("/v1/matches", json={"title": "tictactoe", "seats": 2})
    assert created.status_code == 201
    match_id = created.json()["matchId"]
    tokens = ["", ""]
    for name in ("a", "b"):
        joined = c.post(f"/v1/matches/{match_id}/seats", json={"name": name})
        assert joined.status_code == 201
        tokens[joined.json()["seat"]] = joined.json()["token"]
    return match_id, tokens


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_the_floor_refuses_what_a_real_endpoint_refuses(floor: FloorService) -> None:
    with httpx.Client(base_url=floor.base, timeout=30) as c:
        assert c.post("/v1/matches", json={"title": "tictactoe", "seats": 3}).status_code == 400
        waiting = c.post("/v1/matches", json={"title": "tictactoe", "seats": 2}).json()["matchId"]
        first = c.post(f"/v1/matches/{waiting}/seats", json={"name": "a"}).json()["token"]
        assert c.get(f"/v1/matches/{waiting}", headers=_bearer(first)).json()["status"] == "WAITING"
        early = c.post(f"/v1/matches/{waiting}/actions", json={"action": {"type": "mark", "cell": 0},
                                                               "expectedVersion": 0}, headers=_bearer(first))
        assert early.status_code == 422 and early.json()["code"] == "NOT_STARTED"
        match_id, tokens = _seated(c)
        full = c.post(f"/v1/matches/{match_id}/seats", json={"name": "c"})
        assert full.status_code == 409 and full.json()["code"] == "MATCH_FULL"
        assert c.post("/v1/matches/0000/seats", json={"name": "c"}).status_code == 404
        assert c.get(f"/v1/matches/{match_id}", headers=_bearer("not-a-token")).status_code == 401
        assert c.get(f"/v1/matches/{match_id}").status_code == 401
        read = c.get(f"/v1/matches/{match_id}", headers=_bearer(tokens[0])).json()
        assert read == {"matchId": match_id, "version": 0, "status": "ACTIVE", "toAct": [0],
                        "view": {"cells": [None] * 9}, "winner": None}
        url = f"/v1/matches/{match_id}/actions"
        mark = {"type": "mark", "cell": 4}
        turn = c.post(url, json={"action": mark, "expectedVersion": 0}, headers=_bearer(tokens[1]))
        assert turn.status_code == 422 and turn.json()["code"] == "NOT_YOUR_TURN"
        for bad in ({"type": "mark", "cell": 9}, {"type": "mark", "cell": "4"}, {"type": "pass"}):
            refused = c.post(url, json={"action": bad, "expectedVersion": 0}, headers=_bearer(tokens[0]))
            assert refused.status_code == 422 and refused.json()["code"] == "ILLEGAL_ACTION", bad
        assert c.post(url, json={"action": mark, "expectedVersion": 0}, headers=_bearer(tokens[0])).status_code == 200
        stale = c.post(url, json={"action": mark, "expectedVersion": 0}, headers=_bearer(tokens[0]))
        assert stale.status_code == 409 and stale.json()["currentVersion"] == 1
        taken = c.post(url, json={"action": mark, "expectedVersion": 1}, headers=_bearer(tokens[1]))
        assert taken.status_code == 422 and taken.json()["code"] == "ILLEGAL_ACTION"
        assert c.get(f"/v1/matches/{match_id}", headers=_bearer(tokens[1])).json()["version"] == 1


def test_the_floor_plays_the_titles_games_and_keeps_what_a_commit_keeps(floor: FloorService) -> None:
    redis = Redis.from_url(floor.redis_url, decode_responses=True)
    rng = random.Random(7)
    try:
        with httpx.Client(base_url=floor.base, timeout=30) as c:
            for _ in range(60):
                match_id, tokens = _seated(c)
                engine = TITLE.new_match(seats=2, seed=0, options={"firstSeat": 0})
                match = c.get(f"/v1/matches/{match_id}", headers=_bearer(tokens[0])).json()
                while match["status"] != "OVER":
                    seat = match["toAct"][0]
                    assert engine.to_act() == [seat]
                    cell = rng.choice([k for k, owner in enumerate(match["view"]["cells"]) if owner is None])
                    action = {"type": "mark", "cell": cell}
                    engine.apply(seat, action)
                    answer = c.post(f"/v1/matches/{match_id}/actions", headers=_bearer(tokens[seat]),
                                    json={"action": action, "expectedVersion": match["version"]})
                    assert answer.status_code == 200
                    match = answer.json()["match"]
                    assert match["view"]["cells"] == engine.cells and match["version"] == engine.version
                assert engine.is_over() and match["winner"] == engine.winner
                assert redis.llen(log_key(match_id)) == redis.xlen(events_key(match_id)) == engine.version
                assert all(0 < redis.ttl(key) <= 3600 for key in (state_key(match_id), log_key(match_id)))
    finally:
        redis.close()
