"""The life of a seat over HTTP (GraphQL and REST), with real Redis, a real API process and real RQ workers:
resign, leave and cancel before the start, take-over at bot speed and reclaimSeat, per-move (correspondence)
time, and a worker killed during a take-over."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from firebreak.matches import keys
from firebreak.matches.config import Settings
from firebreak.matches.lifecycle import SeatControl
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.seatlife import NO_SEAT, SeatLife
from firebreak.matches.store import MatchStore
from tests.service import players_support
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import JOIN, guest
from tests.service.test_rest_api import Rest

RESIGN = """mutation($input: ResignInput!) { resign(input: $input) { __typename
  ... on Resignation { seat version matchEnded match { status endReason } }
  ... on MatchOver { code message at: version } ... on SeatResigned { code message at: version }
  ... on Problem { code message } } }"""
LEAVE = """mutation($input: LeaveSeatInput!) { leaveSeat(input: $input) { __typename
  ... on SeatLeft { seat } ... on Problem { code message } } }"""
CANCEL = """mutation($input: CancelMatchInput!) { cancelMatch(input: $input) { __typename
  ... on MatchCancelled { matchId } ... on Problem { code message } } }"""
RECLAIM = """mutation($input: ReclaimSeatInput!) { reclaimSeat(input: $input) { __typename
  ... on SeatReclaimed { seat version } ... on Problem { code message } } }"""
READ = """query($id: ID!) { match(id: $id) { status version toAct endReason legalActions
  seats { seat taken kind level takenOver resigned }
  clock { initialSeconds perMoveSeconds seats { seat secondsLeft running takenOver } }
  result { endReason winners resigned scores { seat total } } } }"""
BOT_LEVELS = ["random", "greedy"]


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API and two workers of their own, whose reconcilers tick every 0.1 s."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("seatlife"), "firebreak-seatlife", api=True, workers=2,
                           FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="2") as service:
        yield service


@pytest.fixture()
def c(svc: h.Private) -> Iterator[Client]:
    with svc.client() as client:
        yield client


@pytest.fixture()
def rest(svc: h.Private) -> Iterator[Rest]:
    assert svc.base is not None
    client = Rest(svc.base)
    yield client
    client.close()


def read(c: Client, match_id: str, token: str | None = None) -> dict[str, Any]:
    m: dict[str, Any] = c.gql(READ, {"id": match_id}, token)["match"]
    return m


def call(c: Client, document: str, name: str, match_id: str, token: str | None) -> dict[str, Any]:
    answer: dict[str, Any] = c.gql(document, {"input": {"matchId": match_id}}, token)[name]
    return answer


def clocked(c: Client, seed: int, seats: int, humans: int, bots: list[str], clock: dict[str, Any]) -> h.Setup:
    """A greatfire match with a clock: `humans` people in the first seats, then the bots."""
    created = c.gql(h.CREATE, {"input": {"title": "greatfire", "seats": seats, "seed": seed, "clock": clock}})
    made = created["createMatch"]
    assert made["__typename"] == "MatchCreated", made
    s = h.Setup(made["matchId"], made["hostToken"], seats, seed, made["match"]["options"])
    for n in range(humans):
        h.join(c, s, f"person {n}", seat=n)
    for level in bots:
        h.add_bot(c, s, level)
    return s


# ----- resign ---------------------------------------------------------------------------------------------

def test_a_resigned_seat_is_played_by_the_bot_and_the_last_resignation_but_one_ends_the_match(
        c: Client, redis: Redis) -> None:
    """Three people: the first resignation hands the seat to the takeover bot (the match goes on); resigning
    twice, or acting for the resigned seat, is SeatResigned and changes nothing; the second resignation leaves one
    person, so the match ends at once (RESIGNED) and the title ranks the one seat that did not resign (P18)."""
    s = h.new_match(c, 3, 2401, humans=3, bots=[])
    first = next(iter(s.humans))
    done = call(c, RESIGN, "resign", s.match_id, s.humans[first])
    assert done["__typename"] == "Resignation" and done["seat"] == first and not done["matchEnded"], done
    assert done["match"]["status"] == "ACTIVE"
    m = read(c, s.match_id)
    seat = m["seats"][first]
    assert seat["resigned"] and seat["level"] == "greedy" and seat["kind"] == "human", seat
    twice = call(c, RESIGN, "resign", s.match_id, s.humans[first])
    assert twice["__typename"] == "SeatResigned" and twice["code"] == "SEAT_RESIGNED", twice
    acted = h.act(c, s.match_id, s.humans[first], {"type": "anything"}, read(c, s.match_id)["version"])
    assert acted["__typename"] == "SeatResigned", acted
    reclaimed = call(c, RECLAIM, "reclaimSeat", s.match_id, s.humans[first])
    assert reclaimed["__typename"] == "SeatResigned", reclaimed
    second = next(seat for seat in s.humans if seat != first)
    ended = call(c, RESIGN, "resign", s.match_id, s.humans[second])
    assert ended["__typename"] == "Resignation" and ended["matchEnded"], ended
    assert ended["match"] == {"status": "OVER", "endReason": "RESIGNED"}
    final = read(c, s.match_id)
    last = ({0, 1, 2} - {first, second}).pop()
    assert final["result"]["endReason"] == "RESIGNED" and final["result"]["winners"] == [last], final["result"]
    assert final["result"]["resigned"] == sorted([first, second]) and len(final["result"]["scores"]) == 3
    after = call(c, RESIGN, "resign", s.match_id, s.humans[last])
    assert after["__typename"] == "MatchOver" and after["at"] == final["version"], after
    assert redis.zscore(keys.lobby("over"), s.match_id) is not None
    record = h.check_replay(redis, s)
    assert [e["service"] for e in record["log"] if "service" in e] == ["resigned", "resigned"]


def test_one_person_resigning_against_bots_ends_the_match_and_the_bots_win(c: Client, redis: Redis) -> None:
    """P18: the title ranks the bots as the match stood; the resigned person is scored but never wins."""
    s = h.new_match(c, 3, 2402, humans=1, bots=["random", "random"])
    token = s.humans[0]
    spectator = call(c, RESIGN, "resign", s.match_id, None)
    assert spectator["__typename"] == "Unauthorized", spectator
    host = call(c, RESIGN, "resign", s.match_id, s.host)
    assert host["__typename"] == "Unauthorized", host
    done = call(c, RESIGN, "resign", s.match_id, token)
    assert done["__typename"] == "Resignation" and done["matchEnded"], done
    final = read(c, s.match_id)
    result = final["result"]
    assert result["resigned"] == [0] and result["winners"] and set(result["winners"]) <= {1, 2}, final
    best = max(score["total"] for score in result["scores"] if score["seat"] != 0)
    assert all(score["total"] == best for score in result["scores"] if score["seat"] in result["winners"])
    h.check_replay(redis, s)


def test_a_resignation_is_one_compare_and_set_commit(svc: h.Private, c: Client, redis: Redis) -> None:
    """A resignation computed at a version the match has left (an act landed first) is refused by the commit
    and changes nothing; one that holds adds exactly one version, one log entry, one step of events and the
    seat's record, together."""
    s = h.new_match(c, 3, 2403, humans=3, bots=[])
    seat, token, m = h.to_act(c, s)
    other = next(x for x in s.humans if x != seat)

    async def stale_then_fresh() -> tuple[bool, bool]:
        connection = AsyncRedis.from_url(svc.settings.redis_url, decode_responses=True)
        store = MatchStore(connection, svc.settings)
        life = SeatLife(store, Scheduler(connection, svc.settings))
        try:
            loaded = await store.load(s.match_id)
            assert loaded is not None
            record = loaded.seats[other].controlled(SeatControl.RESIGNED, "greedy")
            accepted = h.act(c, s.match_id, token, m["legalActions"][0], m["version"])  # the act lands first
            assert accepted["__typename"] == "ActionAccepted", accepted
            stale = await life._commit(loaded, other, record, "resigned", [], False, False)
            fresh = await store.load(s.match_id)
            assert fresh is not None
            held = await life._commit(fresh, other, record, "resigned", [{"type": "seatResigned", "seat": other}],
                                      False, False)
            return stale is None, held is not None
        finally:
            await connection.aclose()

    before = h.stored(redis, s.match_id)
    refused, held = asyncio.run(stale_then_fresh())
    assert refused and held
    after = h.stored(redis, s.match_id)
    assert after["version"] == before["version"] + 2, "the act and the one resignation that held"
    assert len(after["log"]) == len(before["log"]) + 2 and after["log"][-1]["service"] == "resigned"
    assert read(c, s.match_id)["seats"][other]["resigned"]
    h.check_replay(redis, s)


def test_concurrent_acts_and_resignations_never_both_apply_at_one_version(c: Client, redis: Redis) -> None:
    s = h.new_match(c, 3, 2404, humans=3, bots=[])
    seat, token, m = h.to_act(c, s)
    other = next(x for x in s.humans if x != seat)
    answers: dict[str, Any] = {}

    def resign() -> None:
        answers["resign"] = call(c2, RESIGN, "resign", s.match_id, s.humans[other])

    c2 = Client(c.base)
    try:
        thread = threading.Thread(target=resign)
        thread.start()
        answers["act"] = h.act(c, s.match_id, token, m["legalActions"][0], m["version"])
        thread.join(30)
    finally:
        c2.http.close()
    assert answers["resign"]["__typename"] == "Resignation", answers
    assert answers["act"]["__typename"] in ("ActionAccepted", "StaleVersion"), answers
    record = h.check_replay(redis, s)
    applied = 1 + (answers["act"]["__typename"] == "ActionAccepted")
    # a worker may already have played the resigned seat after both (a bot entry): its own versions, not the race's
    played_for_resigned = sum(1 for entry in record["log"] if entry.get("bot"))
    assert record["version"] == m["version"] + applied + played_for_resigned, "each change is its own version"


# ----- leave and cancel -------------------------------------------------------------------------------------

def test_leave_frees_the_seat_and_cancel_ends_a_waiting_match(c: Client, redis: Redis) -> None:
    s = h.create(c, 3, 2405)
    h.join(c, s, "ann", seat=0)
    h.join(c, s, "bob", seat=1)
    ann = s.humans[0]
    left = call(c, LEAVE, "leaveSeat", s.match_id, ann)
    assert left == {"__typename": "SeatLeft", "seat": 0}, left
    assert not read(c, s.match_id)["seats"][0]["taken"]
    refused = c.post(READ, {"id": s.match_id}, ann).json()
    assert refused["errors"][0]["extensions"]["code"] == "UNAUTHORIZED", "the token no longer works"
    again = call(c, LEAVE, "leaveSeat", s.match_id, ann)
    assert again["__typename"] == "Unauthorized", again
    h.join(c, s, "cid", seat=0)
    not_creator = call(c, CANCEL, "cancelMatch", s.match_id, s.humans[1])
    assert not_creator["__typename"] == "NotCreator" and not_creator["code"] == "NOT_CREATOR", not_creator
    assert call(c, CANCEL, "cancelMatch", s.match_id, None)["__typename"] == "Unauthorized"
    assert redis.zscore(keys.lobby("waiting"), s.match_id) is not None
    cancelled = call(c, CANCEL, "cancelMatch", s.match_id, s.host)
    assert cancelled == {"__typename": "MatchCancelled", "matchId": s.match_id}, cancelled
    m = read(c, s.match_id)
    assert m["status"] == "OVER" and m["endReason"] == "CANCELLED" and m["result"]["winners"] == [], m
    assert redis.zscore(keys.lobby("waiting"), s.match_id) is None
    assert 0 < redis.ttl(keys.meta(s.match_id)) <= 7 * 24 * 3600
    twice = call(c, CANCEL, "cancelMatch", s.match_id, s.host)
    assert twice["__typename"] == "MatchStarted", twice
    late = c.gql(h.JOIN, {"input": {"matchId": s.match_id, "name": "dan"}})["joinMatch"]
    assert late["__typename"] == "MatchStarted", late


def test_leave_and_cancel_are_refused_once_started(c: Client) -> None:
    s = h.new_match(c, 3, 2406, humans=1, bots=["random", "random"])
    assert call(c, LEAVE, "leaveSeat", s.match_id, s.humans[0])["__typename"] == "MatchStarted"
    assert call(c, CANCEL, "cancelMatch", s.match_id, s.host)["__typename"] == "MatchStarted"
    waiting = h.create(c, 3, 2407)
    h.join(c, waiting, "ann")
    early = call(c, RESIGN, "resign", waiting.match_id, waiting.humans[0])
    assert early["__typename"] == "MatchNotStarted", early


def test_the_seat_operations_over_rest(rest: Rest, redis: Redis) -> None:
    """The same operations under /v1: resign, leave, cancel, reclaim, their problems and schemas."""
    waiting = rest.create(3, 2408)
    rest.join(waiting, "ann", seat=0)
    rest.join(waiting, "bob", seat=1)
    rest.refused("POST", f"/v1/matches/{waiting.match_id}/resign", 409, "MATCH_NOT_STARTED", waiting.humans[0])
    rest.refused("POST", f"/v1/matches/{waiting.match_id}/reclaim", 409, "MATCH_NOT_STARTED", waiting.humans[0])
    left = rest.ok("POST", f"/v1/matches/{waiting.match_id}/leave", "SeatLeft", token=waiting.humans[0])
    assert left == {"matchId": waiting.match_id, "seat": 0}
    rest.refused("POST", f"/v1/matches/{waiting.match_id}/leave", 401, "UNAUTHORIZED", waiting.humans[0])
    rest.refused("POST", f"/v1/matches/{waiting.match_id}/cancel", 403, "NOT_CREATOR", waiting.humans[1])
    rest.refused("POST", f"/v1/matches/{waiting.match_id}/cancel", 401, "UNAUTHORIZED")
    rest.ok("POST", f"/v1/matches/{waiting.match_id}/cancel", "MatchCancelled", token=waiting.host)
    assert rest.match(waiting.match_id)["endReason"] == "CANCELLED"
    rest.refused("POST", f"/v1/matches/{waiting.match_id}/cancel", 409, "MATCH_STARTED", waiting.host)
    rest.refused("POST", "/v1/matches/0123456789abcdef/resign", 404, "MATCH_NOT_FOUND", waiting.host)

    s = rest.create(3, 2409)
    rest.join(s, "ann")
    rest.bot(s, "random")
    rest.bot(s, "random")
    rest.refused("POST", f"/v1/matches/{s.match_id}/leave", 409, "MATCH_STARTED", s.humans[0])
    rest.refused("POST", f"/v1/matches/{s.match_id}/resign", 401, "UNAUTHORIZED", s.host)
    rest.refused("POST", f"/v1/matches/{s.match_id}/reclaim", 409, "NOT_TAKEN_OVER", s.humans[0])
    done = rest.ok("POST", f"/v1/matches/{s.match_id}/resign", "Resignation", token=s.humans[0])
    assert done["matchEnded"] and done["match"]["result"]["resigned"] == [0], done
    problem = rest.refused("POST", f"/v1/matches/{s.match_id}/resign", 409, "MATCH_OVER", s.humans[0])
    assert problem["version"] == done["version"]


# ----- take-over at bot speed, reclaim, per-move time ---------------------------------------------------------

def run_to_end(c: Client, s: h.Setup, what: str, deadline: float = 300) -> float:
    """Seconds from the match's start (its last seat taken) to its end."""
    started = time.monotonic()
    h.wait_for(lambda: read(c, s.match_id)["status"] == "OVER", what, deadline=deadline, pause=0.2)
    return time.monotonic() - started


def test_a_quiet_person_s_match_ends_at_bot_speed(c: Client, redis: Redis) -> None:
    """A 3-seat match of one person who never acts and two bots, 5 s clock: once the clock runs out the takeover
    bot plays the seat as fast as a bot seat, so the match ends within 90 s of its start (it took over 300 s
    when each taken-over decision waited a delay and a tick). And a 4-seat match of a quiet person and three bots
    ends about as fast as one where the fourth seat is a bot of the takeover level."""
    s = clocked(c, 2410, 3, 1, BOT_LEVELS, {"initialSeconds": 5})
    three = run_to_end(c, s, "the 3-seat match with a quiet person to end", deadline=90)
    m = read(c, s.match_id)
    assert m["endReason"] == "FINISHED" and m["seats"][0]["takenOver"], m
    quiet = clocked(c, 2411, 4, 1, ["random", "greedy", "random"], {"initialSeconds": 5})
    with_quiet = run_to_end(c, quiet, "the 4-seat match with a quiet person to end")
    bots = clocked(c, 2411, 4, 0, ["greedy", "random", "greedy", "random"], {"initialSeconds": 5})
    all_bots = run_to_end(c, bots, "the 4-bot match to end")
    print(f"\n3 seats, a quiet person and two bots, 5 s clock: {three:.1f} s; 4 seats: a quiet person and three "
          f"bots {with_quiet:.1f} s, four bots {all_bots:.1f} s")
    assert with_quiet <= all_bots * 2 + 5 + 15, (with_quiet, all_bots)  # the 5 s clock, then bot speed
    h.check_replay(redis, s)


def test_reclaim_is_refused_unless_taken_over_and_per_move_time_leads_to_the_same_take_over(
        c: Client, redis: Redis) -> None:
    """A per-move limit (correspondence time) alone: a person who lets it run out is taken over; acting is then
    SEAT_TAKEN_OVER naming reclaimSeat; reclaimSeat gives the seat back with a fresh per-move limit."""
    s = clocked(c, 2412, 3, 1, ["random", "random"], {"perMoveSeconds": 2})
    token = s.humans[0]
    m = read(c, s.match_id, token)
    assert m["clock"]["initialSeconds"] is None and m["clock"]["perMoveSeconds"] == 2, m["clock"]
    h.wait_for(lambda: read(c, s.match_id)["seats"][0]["takenOver"], "seat 0 to be taken over", pause=0.05)
    refused = h.act(c, s.match_id, token, {"type": "anything"}, read(c, s.match_id)["version"])
    assert refused["__typename"] == "SeatTakenOver" and "reclaimSeat" in refused["message"], refused
    back = call(c, RECLAIM, "reclaimSeat", s.match_id, token)
    if back["__typename"] == "MatchOver":
        pytest.skip("the bots ended the match before the reclaim")  # not seen: a match lasts far longer
    assert back["__typename"] == "SeatReclaimed", back
    m = read(c, s.match_id, token)
    assert not m["seats"][0]["takenOver"] and m["clock"]["seats"][0]["secondsLeft"] <= 2, m
    assert call(c, RECLAIM, "reclaimSeat", s.match_id, token)["__typename"] == "NotTakenOver"
    run_to_end(c, s, "the match to end")
    events = [e["type"] for row in h.all_events(c, s.match_id, None) for e in row["events"]
              if e["type"] in h.SERVICE_EVENT_TYPES]
    assert events[:3] == ["clockExpired", "seatTakenOver", "seatReturned"], events
    h.check_replay(redis, s)


# ----- faults ---------------------------------------------------------------------------------------------------

def test_a_worker_killed_during_a_take_over_leaves_nothing_half_done(
        redis_url: str, redis: Redis, tmp_path_factory: pytest.TempPathFactory) -> None:
    """kill -9 the only worker while it plays a taken-over seat: nothing is half-applied (every stored step
    replays), and a new worker's reconciler finishes the match."""
    folder = tmp_path_factory.mktemp("seatlife-kill")
    with h.private_service(redis_url, folder, "firebreak-seatlife-kill", api=True,
                           FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="1") as svc:
        assert svc.base is not None
        kc = Client(svc.base)
        try:
            s = clocked(kc, 2413, 3, 1, ["greedy", "greedy"], {"initialSeconds": 1})
            h.wait_for(lambda: read(kc, s.match_id)["seats"][0]["takenOver"], "seat 0 to be taken over",
                       pause=0.02)
            time.sleep(0.05)  # the worker is playing the taken-over seat and the bots at bot speed
            svc.kill_workers()
            frozen = h.stored(redis, s.match_id)
            assert frozen["meta"]["status"] == "active", "the match ended before the kill"
            h.check_replay(redis, s)
            svc.start_worker()
            run_to_end(kc, s, "the match to end after the kill")
            final = read(kc, s.match_id)
            assert final["endReason"] == "FINISHED", final
            h.check_replay(redis, s)
        finally:
            kc.http.close()


def test_settings_no_longer_know_a_take_over_delay() -> None:
    assert not hasattr(Settings(), "takeover_delay")


def test_a_player_resigns_with_the_access_token_that_seated_it_and_a_stranger_cannot(c: Client) -> None:
    """A seat bound to a player is resigned with the player's credential (no seat token needed); another
    player's credential and a forged one change nothing (typed Unauthorized / Unauthenticated)."""
    ann, bob = guest(c, "ann"), guest(c, "bob")
    s = h.create(c, 3, 2417)
    for who in (ann, bob):
        joined = c.gql(JOIN, {"input": {"matchId": s.match_id}}, token=who.access)["joinMatch"]
        assert joined["__typename"] == "SeatJoined", joined
    h.add_bot(c, s, "random")
    stranger = guest(c, "eve")
    refused = call(c, RESIGN, "resign", s.match_id, stranger.access)
    assert refused["__typename"] == "Unauthorized", refused
    assert refused["message"] == NO_SEAT  # says what is missing: a seat here, not "a seat token, not the host token"
    over_rest = players_support.rest(c.base, "POST", f"/v1/matches/{s.match_id}/resign", stranger.access)
    assert over_rest.status_code == 401 and over_rest.json()["detail"] == NO_SEAT, over_rest.text
    forged = call(c, RESIGN, "resign", s.match_id, ann.access[:-4] + "AAAA")
    assert forged["__typename"] == "Unauthenticated", forged
    done = call(c, RESIGN, "resign", s.match_id, ann.access)
    assert done["__typename"] == "Resignation" and done["matchEnded"] is True, done  # one person left: it ends
    assert done["match"]["endReason"] == "RESIGNED"
    again = call(c, RESIGN, "resign", s.match_id, bob.access)
    assert again["__typename"] == "MatchOver", again
