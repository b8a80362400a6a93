"""A process killed in the middle of a rematch or a resignation leaves no half-done state (issue 24, section 6): real
Redis, real API processes over HTTP (kill -9 at random moments of a burst of calls), real RQ workers whose reconcilers
finish a stranded rematch with nobody asking again. (A worker killed while it plays a taken-over seat:
test_seat_life.test_a_worker_killed_during_a_take_over_leaves_nothing_half_done.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis

from firebreak.matches import keys
from firebreak.matches.embedded import free_port
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.rematch import Rematches, carried
from tests.service import support as h
from tests.service.conftest import ROOT, Client
from tests.service.test_rematch_invites import OLD, REMATCH, _finished, accepted_by_all
from tests.service.test_seat_life import RESIGN

ROUNDS = 3  # kills per test, each at another moment


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """A steady API and a worker of their own, whose reconciler ticks every 0.1 s with a one-second stall window."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("rematch-faults"), "firebreak-rematch-faults",
                           api=True, workers=1, FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="1") as service:
        service.wait_reconciling()
        yield service


@pytest.fixture()
def c(svc: h.Private) -> Iterator[Client]:
    with svc.client() as client:
        yield client


@contextlib.contextmanager
def doomed_api(svc: h.Private, log_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """One more API process with the service's settings, for the test to kill; yields its base URL and process."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with log_path.open("wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "firebreak.api.app:create_app", "--factory", "--host",
                                 "127.0.0.1", "--port", str(port), "--no-access-log"], cwd=ROOT, env=svc.env,
                                stdout=log, stderr=subprocess.STDOUT)
    try:
        def up() -> bool:
            assert proc.poll() is None, f"the API died at start; see {log_path}"
            try:
                return httpx.get(f"{base}/healthz", timeout=0.5).status_code == 200
            except httpx.HTTPError:
                return False

        h.wait_for(up, "the doomed API to start", deadline=30, pause=0.1)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def burst_then_kill(proc: subprocess.Popen[bytes], calls: list[tuple[str, dict[str, Any], str]], base: str,
                    began: Callable[[], bool], delay: float) -> list[dict[str, Any] | None]:
    """Send GraphQL calls (document, variables, token) at once to base; once began() holds (a call is under way),
    wait `delay` seconds and kill -9 the process. Returns each call's data (None: cut off by the kill)."""
    results: list[dict[str, Any] | None] = [None] * len(calls)

    async def send() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            async def one(n: int, document: str, variables: dict[str, Any], token: str) -> None:
                with contextlib.suppress(httpx.HTTPError, ValueError):
                    response = await client.post("/graphql", json={"query": document, "variables": variables},
                                                 headers={"authorization": f"Bearer {token}"})
                    results[n] = response.json()["data"]

            await asyncio.gather(*(one(n, *call) for n, call in enumerate(calls)))

    sender = threading.Thread(target=lambda: asyncio.run(send()))
    sender.start()
    end = time.monotonic() + 30
    while not began() and sender.is_alive() and time.monotonic() < end:
        time.sleep(0.0005)
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    sender.join(timeout=60)
    assert not sender.is_alive(), "calls to a killed API did not end"
    return results


def rematches_of(redis: Redis, match_id: str) -> list[str]:
    """Every stored match created as a rematch of match_id."""
    found = []
    for key in redis.scan_iter("match:*:meta", count=1000):
        if redis.hget(key, "rematchOf") == match_id:
            found.append(key.split("{", 1)[1].split("}", 1)[0])
    return found


def check_rematch_finished(c: Client, redis: Redis, old_id: str, ann_player: str) -> str:
    """Wait until the old match shows its rematch, started with every occupant carried (seat i at i + 1), with no
    rematch call; check it is the only one and the outbox holds nothing for it. Returns its id."""
    shown = h.wait_for(lambda: c.gql(OLD, {"id": old_id})["match"]["rematch"], "the old match to show its rematch")
    new_id = shown["id"]
    h.wait_for(lambda: h.state(c, new_id, None)["status"] == "ACTIVE", "the rematch to start")
    assert redis.get(keys.rematch(old_id)) == new_id
    assert rematches_of(redis, old_id) == [new_id], "not exactly one rematch"
    seats = c.gql("""query($id: ID!) { match(id: $id) { seats { seat kind level player name } } }""",
                  {"id": new_id})["match"]["seats"]
    assert seats[0] == {"seat": 0, "kind": "bot", "level": "random", "player": None, "name": "random bot"}
    assert seats[1]["player"] == ann_player and seats[1]["kind"] == "human"
    assert seats[2] == {"seat": 2, "kind": "human", "level": None, "player": None, "name": "bob"}
    h.wait_for(lambda: redis.zscore(keys.REMATCH_PENDING, old_id) is None, "the outbox entry to be dropped")
    return str(new_id)


def test_a_rematch_stranded_after_its_claim_or_half_seated_is_finished_by_the_reconciler(
        svc: h.Private, c: Client, redis: Redis) -> None:
    """The caller dies right after the last acceptance, or after creating the match and one seat: with nobody
    answering again, a worker's reconciler creates, seats and starts it."""
    s, ann, _ = _finished(c, 2601)

    async def claim_only(lobby: Lobby, _: Pipeline) -> str | None:  # killed right after the last acceptance
        rematches = Rematches(lobby)
        await rematches.mark(s.match_id)
        claimed = await rematches.claim(s.match_id)
        old = await lobby.store.load(s.match_id)
        assert old is not None
        await accepted_by_all(lobby, old)
        return claimed

    claimed = h.run(svc.settings, claim_only)
    assert check_rematch_finished(c, redis, s.match_id, ann.player) == claimed

    t, bea, _ = _finished(c, 2602)

    async def half_seated(lobby: Lobby, _: Pipeline) -> str:
        rematches = Rematches(lobby)
        await rematches.mark(t.match_id)
        new_id = await rematches.claim(t.match_id)
        old = await lobby.store.load(t.match_id)
        assert new_id is not None and old is not None
        await accepted_by_all(lobby, old)
        await rematches._create(old, new_id)
        created = await lobby.store.load(new_id)
        assert created is not None
        await lobby.seat(created, 1, carried(old.seats[0]))
        return new_id

    half = h.run(svc.settings, half_seated)
    assert check_rematch_finished(c, redis, t.match_id, bea.player) == half


def test_an_api_killed_during_a_burst_of_rematch_calls_leaves_one_rematch_the_reconciler_starts(
        svc: h.Private, c: Client, redis: Redis, tmp_path: Path) -> None:
    """kill -9 an API process at a random moment of ten concurrent rematch calls (offers and acceptances of both
    persons), several times: each time exactly one rematch exists, with every occupant, started (by the reconciler
    when the kill came after the last acceptance), and every call answered before the kill names it."""
    rng = random.Random(2610)
    stranded = 0
    for n in range(ROUNDS):
        s, ann, anonymous = _finished(c, 2611 + n)
        with doomed_api(svc, tmp_path / f"api{n}.log") as (base, proc):
            tokens = [ann.access if k % 2 else anonymous for k in range(10)]
            calls = [(REMATCH, {"id": s.match_id}, token) for token in tokens]

            def began(old: str = s.match_id) -> bool:
                return bool(redis.exists(keys.rematch(old)) or redis.zscore(keys.REMATCH_PENDING, old) is not None)

            answers = burst_then_kill(proc, calls, base, began, rng.uniform(0, 0.02))
        if redis.hget(keys.rematch_offer(s.match_id), "status") != "accepted":  # killed before both agreed
            for token in (ann.access, anonymous):  # answered again on the steady API
                assert c.gql(REMATCH, {"id": s.match_id}, token)["rematch"]["__typename"] == "Rematched"
        new_id = redis.get(keys.rematch(s.match_id))
        status = None if new_id is None else redis.hget(keys.meta(new_id), "status")
        stranded += status != "active"
        finished = check_rematch_finished(c, redis, s.match_id, ann.player)
        for answer in answers:
            if answer is not None:
                assert answer["rematch"]["matchId"] == finished, answer
    print(f"{stranded} of {ROUNDS} kills left a rematch half-done")


def test_an_api_killed_during_a_burst_of_resigns_and_acts_leaves_a_consistent_match_that_ends(
        svc: h.Private, c: Client, redis: Redis, tmp_path: Path) -> None:
    """kill -9 an API process at a random moment of concurrent resignations of one seat and acts of the seat to
    act, several times: the resignation is applied once or not at all (its log entry iff its seat record), every
    stored step replays, and the match still reaches its end."""
    rng = random.Random(2620)
    resigned = 0
    for n in range(ROUNDS):
        s = h.all_human_match(c, 3, 2621 + n)
        first = h.wait_for(lambda s=s: h.state(c, s.match_id, None)["toAct"], "someone to act")[0]
        quitter = (first + 1) % 3
        m = h.state(c, s.match_id, s.humans[first])
        version = m["version"]
        acts = [(h.ACT, {"input": {"matchId": s.match_id, "action": rng.choice(m["legalActions"]),
                                   "expectedVersion": version}}, s.humans[first]) for _ in range(5)]
        resigns = [(RESIGN, {"input": {"matchId": s.match_id}}, s.humans[quitter]) for _ in range(5)]
        calls = [call for pair in zip(acts, resigns, strict=True) for call in pair]
        with doomed_api(svc, tmp_path / f"api-resign{n}.log") as (base, proc):
            def began(match_id: str = s.match_id, at: int = version) -> bool:
                return int(redis.hget(keys.state(match_id), "v") or 0) > at

            answers = burst_then_kill(proc, calls, base, began, rng.uniform(0, 0.01))
        record = h.check_replay(redis, s)
        resignations = [e for e in record["log"] if e.get("service") == "resigned"]
        assert len(resignations) <= 1 and all(e["seat"] == quitter for e in resignations), resignations
        seat = json.loads(redis.hget(keys.seats(s.match_id), str(quitter)) or "{}")
        assert (seat.get("control") == "resigned") == bool(resignations), (seat, resignations)
        # a person's acts: the workers may already have played the resigned seat (its entries carry "bot")
        acted = [e for e in record["log"] if "service" not in e and not e.get("system") and not e.get("bot")]
        assert len(acted) <= 1, f"one act at version {version} applied {len(acted)} times"
        accepted = [a for a in answers if a is not None and a.get("resign", {}).get("__typename") == "Resignation"]
        assert len(accepted) <= 1 and (not accepted or resignations), accepted
        if resignations:
            resigned += 1
            del s.humans[quitter]
        play_people_to_end(c, s, rng)
        final = h.check_replay(redis, s)
        assert final["status"] == "over"
    print(f"the resignation was applied before {resigned} of {ROUNDS} kills")


def play_people_to_end(c: Client, s: h.Setup, rng: random.Random) -> None:
    """Act at random for the people left until the match is over (the service plays a resigned seat)."""
    end = time.monotonic() + h.DEADLINE
    while time.monotonic() < end:
        for token in s.humans.values():
            m = h.state(c, s.match_id, token)
            if m["status"] == "OVER":
                return
            if m["legalActions"]:
                h.act(c, s.match_id, token, rng.choice(m["legalActions"]), m["version"])
        time.sleep(0.005)
    raise AssertionError(f"match {s.match_id} did not end")
