"""Turn clocks and abandoned matches, over HTTP against an API and a worker of their own (short settings)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import Redis

from firebreak.matches import keys
from tests.service import support as h
from tests.service.conftest import Client

CLOCK = """query($id: ID!) { match(id: $id) { status version toAct serviceToAct endReason legalActions
  clock { initialSeconds incrementSeconds seats { seat secondsLeft running takenOver } } } }"""


@pytest.fixture(scope="module")
def clocked(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API and a worker whose reconciler ticks every 0.1 s."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("clocks"), "firebreak-clocks", api=True,
                           FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="2") as svc:
        yield svc


def clocked_match(c: Client, seed: int, initial: float, increment: float) -> h.Setup:
    """A person in seat 0 under a clock, two bots in the other seats."""
    body = {"title": "greatfire", "seats": 3, "seed": seed,
            "clock": {"initialSeconds": initial, "incrementSeconds": increment}}
    created = c.gql(h.CREATE, {"input": body})["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    s = h.Setup(created["matchId"], created["hostToken"], 3, seed, created["match"]["options"])
    h.join(c, s, "ann", seat=0)
    h.add_bot(c, s, "random")
    h.add_bot(c, s, "greedy")
    return s


def read(c: Client, s: h.Setup, token: str | None = None) -> dict[str, Any]:
    m: dict[str, Any] = c.gql(CLOCK, {"id": s.match_id}, token)["match"]
    return m


def check_clock(m: dict[str, Any], initial: float) -> None:
    """Only a person's clock runs, only while that person owes the decision; bots' clocks never move."""
    seats = {row["seat"]: row for row in m["clock"]["seats"]}
    running = {seat for seat, row in seats.items() if row["running"]}
    if m["status"] != "ACTIVE" or m["serviceToAct"]:
        assert not running, f"a clock runs while the service acts: {m}"
    else:
        assert running <= set(m["toAct"]) and running <= {0}, m
    for seat in (1, 2):
        assert seats[seat]["secondsLeft"] == initial and not seats[seat]["takenOver"], f"a bot's clock moved: {m}"


def takeover_events(c: Client, s: h.Setup) -> list[dict[str, Any]]:
    """The service's events of the match, each served with its label (issue 50), shown without it."""
    found = [e for row in h.all_events(c, s.match_id, None) for e in row["events"]
             if e["type"] in h.SERVICE_EVENT_TYPES]
    assert all(isinstance(e.get("label"), str) and e["label"] for e in found), found
    return [{k: v for k, v in e.items() if k != "label"} for e in found]


def test_a_silent_seat_is_taken_over_and_the_match_ends(clocked: h.Private, redis: Redis) -> None:
    assert clocked.base is not None
    with h.recording(clocked.base) as c:
        s = clocked_match(c, 1201, initial=1.0, increment=0.5)
        first = read(c, s)
        assert first["clock"]["initialSeconds"] == 1.0 and first["clock"]["incrementSeconds"] == 0.5
        reads = 0

        def over() -> bool:
            nonlocal reads
            m = read(c, s)
            check_clock(m, 1.0)
            reads += 1
            return m["status"] == "OVER"

        h.wait_for(over, "the match with a silent seat to end", pause=0.05)
        final = read(c, s, s.humans[0])
        assert final["endReason"] == "FINISHED" and reads > 10
        assert final["clock"]["seats"][0] == {"seat": 0, "secondsLeft": 0.0, "running": False, "takenOver": True}
        assert takeover_events(c, s) == [{"type": "clockExpired", "seat": 0},
                                         {"type": "seatTakenOver", "seat": 0, "level": "greedy"}]
        record = h.check_replay(redis, s)
        mine = [entry for entry in record["log"] if entry.get("seat") == 0]
        assert mine and all(entry.get("takeover") and entry["bot"] == "greedy" for entry in mine)
        h.check_event_log(c, s, final["version"])


RECLAIM = """mutation($input: ReclaimSeatInput!) { reclaimSeat(input: $input) { __typename
  ... on SeatReclaimed { seat version } ... on Problem { code message } } }"""


def test_the_owner_takes_the_seat_back_with_reclaim_seat(clocked: h.Private, redis: Redis) -> None:
    """Once taken over, the seat is the bot's at bot speed: its owner's act is SEAT_TAKEN_OVER (naming
    reclaimSeat) until they reclaim it; the clock then restarts at 0 + the increment and the owner acts."""
    assert clocked.base is not None
    with h.recording(clocked.base) as c:
        s = clocked_match(c, 1202, initial=1.0, increment=8.0)
        token = s.humans[0]
        h.wait_for(lambda: read(c, s)["clock"]["seats"][0]["takenOver"], "seat 0 to be taken over", pause=0.05)
        m = read(c, s, token)
        refused = h.act(c, s.match_id, token, {"type": "anything"}, m["version"])
        assert refused["__typename"] == "SeatTakenOver" and refused["code"] == "SEAT_TAKEN_OVER", refused
        assert "reclaimSeat" in refused["message"]
        back = c.gql(RECLAIM, {"input": {"matchId": s.match_id}}, token)["reclaimSeat"]
        assert back["__typename"] == "SeatReclaimed" and back["seat"] == 0, back
        seat0 = read(c, s, token)["clock"]["seats"][0]
        assert not seat0["takenOver"] and 0 < seat0["secondsLeft"] <= 8.0, seat0
        again = c.gql(RECLAIM, {"input": {"matchId": s.match_id}}, token)["reclaimSeat"]
        assert again["__typename"] == "NotTakenOver" and again["code"] == "NOT_TAKEN_OVER", again

        def my_move() -> dict[str, Any] | None:
            m = read(c, s, token)
            if 0 not in m["toAct"] or not m["legalActions"]:
                return None
            result = h.act(c, s.match_id, token, m["legalActions"][0], m["version"])
            assert result["__typename"] in ("ActionAccepted", "StaleVersion"), result
            return result if result["__typename"] == "ActionAccepted" else None

        h.wait_for(my_move, "an act of seat 0 once reclaimed", pause=0.01)
        # then silent again: the increment runs out, the seat is taken over a second time, the match ends
        h.wait_for(lambda: read(c, s)["status"] == "OVER", "the match to end", pause=0.1)
        assert [e["type"] for e in takeover_events(c, s)] == [
            "clockExpired", "seatTakenOver", "seatReturned", "clockExpired", "seatTakenOver"]
        h.check_replay(redis, s)


@pytest.mark.parametrize("clock", [
    {"initialSeconds": 0}, {"initialSeconds": -5}, {"initialSeconds": 1e12},
    {"initialSeconds": 60, "incrementSeconds": -1}, {"initialSeconds": 60, "incrementSeconds": 1e9},
    {}, {"perMoveSeconds": 0}, {"perMoveSeconds": -1}, {"perMoveSeconds": 14 * 24 * 3600 + 1},
    {"perMoveSeconds": 60, "incrementSeconds": 5}, {"initialSeconds": 60, "perMoveSeconds": 1e12},
])
def test_a_bad_clock_is_refused_and_creates_nothing(client: Client, redis: Redis, clock: dict[str, Any]) -> None:
    waiting = redis.zcard(keys.lobby("waiting"))
    result = client.gql(h.CREATE, {"input": {"title": "greatfire", "seats": 3, "clock": clock}})["createMatch"]
    assert result["__typename"] == "InvalidInput" and result["code"] == "BAD_OPTIONS", result
    assert "clock." in result["message"]
    assert redis.zcard(keys.lobby("waiting")) == waiting


def test_a_match_without_a_clock_has_none(client: Client) -> None:
    s = h.create(client, 3, 1203)
    assert read(client, s)["clock"] is None


def test_a_match_nobody_acts_in_is_abandoned(redis_url: str, redis: Redis, tmp_path: Path) -> None:
    """With FIREBREAK_ABANDONED_TTL=2, a match of people that stop acting ends as abandoned: status over,
    an event everyone sees, the reason stored, its keys expiring like a finished match's."""
    with h.private_service(redis_url, tmp_path, "firebreak-abandon", api=True, FIREBREAK_ABANDONED_TTL="2",
                           FIREBREAK_TICK_SECONDS="0.1") as svc:
        assert svc.base is not None
        with h.recording(svc.base) as c:
            s = h.all_human_match(c, seats=3, seed=1204)
            _seat, token, m = h.to_act(c, s)
            assert h.act(c, s.match_id, token, m["legalActions"][0], m["version"])["__typename"] == "ActionAccepted"
            acted_version = m["version"] + 1
            over = h.wait_for(lambda: (x := read(c, s))["status"] == "OVER" and x, "the match to be abandoned",
                              pause=0.1)
            assert over["endReason"] == "ABANDONED" and over["toAct"] == [] and over["legalActions"] == []
            assert over["version"] == acted_version + 1, "abandonment is one step after the last act"
            for viewer in (None, *s.humans.values()):
                last = h.all_events(c, s.match_id, viewer)[-1]
                assert last["version"] == acted_version + 1
                assert last["events"] == [{"type": "matchAbandoned", "reason": "no human action for 2 s",
                                           "label": "The match was abandoned: nobody acted for too long"}]
            late = h.act(c, s.match_id, token, m["legalActions"][0], over["version"])
            assert late["__typename"] == "MatchOver", late
        record = h.stored(redis, s.match_id)
        meta = record["meta"]
        assert meta["status"] == "over" and meta["reason"] == "abandoned"
        assert float(meta["at"]) - float(meta["lastHuman"]) >= 2, "abandoned before the TTL passed"
        assert record["archived"], "the finished match was not archived"
        assert not any(redis.exists(key) for key in keys.all_of(s.match_id))
        assert 0 < redis.ttl(keys.archive(s.match_id)) <= svc.settings.finished_ttl
        assert redis.zscore(keys.lobby("over"), s.match_id) is not None
        assert redis.zscore(keys.lobby("active"), s.match_id) is None
        assert redis.zscore(keys.due(svc.settings.queue), s.match_id) is None
        assert record["log"][-1] == {"service": "abandoned", "events": [
            {"type": "matchAbandoned", "reason": "no human action for 2 s"}]}
        h.check_replay(redis, s)
