"""bench/floor.py and bench/act_cost.py (api_load --floor): the floor's compare-and-set, and the bench's mirror of a
seeded match staying equal to what the service stores while acts go through GraphQL and REST."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from redis import Redis

from bench import act_cost, floor, harness
from bench.act_cost import Game, Play
from firebreak.matches import connections, keys


@pytest.fixture(scope="module")
def floor_base(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The floor app (python -m bench.floor) on the test Redis."""
    with act_cost.floor_process(redis_url, tmp_path_factory.mktemp("floor")) as (base, _pid):
        yield base


def _started_game(server: str, seed: int) -> Game:
    async def run() -> Game:
        async with httpx.AsyncClient(base_url=server, timeout=30) as c:
            return await act_cost.new_game(c, "greatfire", 4, seed)

    return asyncio.run(run())


def _copy(redis_url: str, match_id: str) -> int:
    async def run() -> int:
        client = connections.async_client(redis_url, decode_responses=True)
        try:
            return await floor.copy_state(client, match_id)
        finally:
            await client.aclose()

    return asyncio.run(run())


def test_the_floor_commits_at_the_expected_version_only(server: str, floor_base: str, redis_url: str,
                                                        redis: Redis) -> None:
    game = _started_game(server, seed=11)
    assert _copy(redis_url, game.match_id) == 0
    stored = redis.hgetall(keys.state(game.match_id))
    _, action = act_cost.next_move(game.mirror, random.Random(1))
    with httpx.Client(base_url=floor_base, timeout=30) as c:
        accepted = c.post("/act", json={"matchId": game.match_id, "expectedVersion": 0, "action": action})
        assert accepted.status_code == 200 and accepted.json() == {"version": 1}
        stale = c.post("/act", json={"matchId": game.match_id, "expectedVersion": 0, "action": action})
        assert stale.status_code == 409 and stale.json()["currentVersion"] == 1
        unknown = c.post("/act", json={"matchId": "nosuchmatch", "expectedVersion": 0, "action": action})
        assert unknown.status_code == 404
        # the lean floor does the same on the service's connection class
        lean = c.post("/act-lean", json={"matchId": game.match_id, "expectedVersion": 1, "action": action})
        assert lean.status_code == 200 and lean.json() == {"version": 2}
        stale = c.post("/act-lean", json={"matchId": game.match_id, "expectedVersion": 1, "action": action})
        assert stale.status_code == 409 and stale.json()["currentVersion"] == 2
    state = redis.hgetall(floor.state_key(game.match_id))
    assert state["v"] == "2" and json.loads(state["data"]) == json.loads(stored["data"])
    log = [json.loads(entry) for entry in redis.lrange(floor.log_key(game.match_id), 0, -1)]
    assert log == [{"action": action}] * 2
    stream = redis.xrange(floor.events_key(game.match_id))
    assert [entry_id for entry_id, _ in stream] == ["1-0", "2-0"]
    assert json.loads(stream[0][1]["events"])[0]["action"] == action
    # the service's own match is untouched
    assert redis.hgetall(keys.state(game.match_id)) == stored
    assert redis.llen(keys.log(game.match_id)) == 0


def test_a_copy_starts_the_floor_over_at_the_services_version(server: str, floor_base: str, redis_url: str,
                                                              redis: Redis) -> None:
    game = _started_game(server, seed=12)
    _copy(redis_url, game.match_id)
    _, action = act_cost.next_move(game.mirror, random.Random(2))
    with httpx.Client(base_url=floor_base, timeout=30) as c:
        assert c.post("/act", json={"matchId": game.match_id, "expectedVersion": 0, "action": action}).is_success
    assert _copy(redis_url, game.match_id) == 0
    assert redis.hget(floor.state_key(game.match_id), "v") == "0"
    assert redis.llen(floor.log_key(game.match_id)) == 0 and redis.xlen(floor.events_key(game.match_id)) == 0
    with pytest.raises(LookupError):
        _copy(redis_url, "nosuchmatch")


def test_the_mirror_stays_equal_to_the_stored_match_over_graphql_and_rest(server: str, redis: Redis) -> None:
    game = _started_game(server, seed=13)
    rng = random.Random(3)

    async def play(steps: int) -> None:
        async with httpx.AsyncClient(base_url=server, timeout=30) as c:
            p = Play(game, game.mirror, game.mirror.version)
            for step in range(steps):
                seat, action = act_cost.next_move(p.match, rng)
                submit = (act_cost.act_graphql, act_cost.act_rest, act_cost.act_rest_minimal)[step % 3]
                p.version = await submit(c, p, seat, action)
                p.match.apply(seat, action)
                assert p.version == p.match.version

    asyncio.run(play(12))
    stored = redis.hgetall(keys.state(game.match_id))
    assert int(stored["v"]) == game.mirror.version == 12
    assert json.loads(stored["data"]) == json.loads(json.dumps(game.mirror.to_dict()))


def test_of_concurrent_acts_at_one_version_the_floor_accepts_one(server: str, floor_base: str, redis_url: str,
                                                                  redis: Redis) -> None:
    game = _started_game(server, seed=14)
    _copy(redis_url, game.match_id)
    _, action = act_cost.next_move(game.mirror, random.Random(4))

    async def race() -> list[int]:
        async with httpx.AsyncClient(base_url=floor_base, timeout=30) as c:
            answers = await asyncio.gather(*(
                c.post("/act", json={"matchId": game.match_id, "expectedVersion": 0, "action": action})
                for _ in range(20)))
        return sorted(a.status_code for a in answers)

    assert asyncio.run(race()) == [200] + [409] * 19
    assert redis.hget(floor.state_key(game.match_id), "v") == "1"
    assert redis.llen(floor.log_key(game.match_id)) == 1 and redis.xlen(floor.events_key(game.match_id)) == 1


def test_the_rules_floor_plays_the_engine_on_its_copy(server: str, floor_base: str, redis_url: str,
                                                      redis: Redis) -> None:
    game = _started_game(server, seed=15)
    _copy(redis_url, game.match_id)
    stored = redis.hgetall(keys.state(game.match_id))
    mirror = game.mirror.clone()
    rng = random.Random(5)

    async def play(steps: int) -> None:
        async with httpx.AsyncClient(base_url=floor_base, timeout=30) as c:
            p = Play(game, mirror, 0)
            for _ in range(steps):
                seat, action = act_cost.next_move(p.match, rng)
                p.version = await act_cost.act_rules(c, p, seat, action)
                p.match.apply(seat, action)
                assert p.version == p.match.version

    asyncio.run(play(8))
    state = redis.hgetall(floor.state_key(game.match_id))
    assert state["v"] == "8" and json.loads(state["data"]) == json.loads(json.dumps(mirror.to_dict()))
    assert redis.llen(floor.log_key(game.match_id)) == 8
    seat = mirror.to_act()[0]
    with httpx.Client(base_url=floor_base, timeout=30) as c:
        refused = c.post("/act-rules", json={"matchId": game.match_id, "expectedVersion": 8, "seat": seat,
                                             "action": {"type": "noSuchAction"}})
        assert refused.status_code == 422 and refused.json()["code"]
        other = (seat + 1) % 4
        assert c.post("/act-rules", json={"matchId": game.match_id, "expectedVersion": 8, "seat": other,
                                          "action": mirror.legal_actions(seat)[0]}).status_code == 422
    assert redis.hget(floor.state_key(game.match_id), "v") == "8"  # refusals changed nothing
    assert redis.hgetall(keys.state(game.match_id)) == stored  # nor the service's own match


def test_the_report_gives_ratios_to_the_floor_and_to_the_rules_floor() -> None:
    # CPU seconds for 1000 acts in each window
    cpu = {"floor": 1.0, "floor-lean": 0.8, "rules": 1.5, "graphql": 3.0, "rest": 2.0, "rest-minimal": 1.2}
    rounds = [act_cost.Round(1, target, 10.0, 1000, seconds, 0.1, 6000, 0.5, 0) for target, seconds in cpu.items()]
    args = argparse.Namespace(matches=50, seats=4, client_pool=10, warmup=2.0, seconds=10.0, title="greatfire",
                              targets=act_cost.TARGETS)
    report = act_cost.render(rounds, args, "python -m bench.api_load --floor")
    to_floor, rest = report.split("ratios to the floor (each round")[1].split("ratios to the floor on the service's")
    to_lean, to_rules = rest.split("ratios to the rules floor")
    assert "rules        CPU per act 1.50 (1.50-1.50)x the floor's;" in to_floor
    assert "graphql      CPU per act 3.00 (3.00-3.00)x the floor's (target <= 1.8x: MISSED)" in to_floor
    assert "rest         CPU per act 2.00 (2.00-2.00)x the floor's (target <= 1.8x: MISSED)" in to_floor
    assert "rest-minimal CPU per act 1.20 (1.20-1.20)x the floor's (target <= 1.3x: met)" in to_floor
    assert "graphql      CPU per act 2.00 (2.00-2.00)x the rules floor's;" in to_rules
    assert "rest         CPU per act 1.33 (1.33-1.33)x the rules floor's;" in to_rules
    assert "rest-minimal CPU per act 0.80 (0.80-0.80)x the rules floor's;" in to_rules
    assert "floor-lean   CPU per act 0.80 (0.80-0.80)x the floor's;" in to_floor
    assert "graphql      CPU per act 3.75 (3.75-3.75)x the lean floor's;" in to_lean


def test_a_report_of_some_targets_leaves_the_others_out() -> None:
    rounds = [act_cost.Round(1, target, 10.0, 1000, seconds, 0.1, 6000, 0.5, 0)
              for target, seconds in {"floor": 1.0, "graphql": 2.0}.items()]
    args = argparse.Namespace(matches=5, seats=3, client_pool=10, warmup=2.0, seconds=10.0, title="london",
                              targets=("floor", "graphql"))
    report = act_cost.render(rounds, args, "python -m bench.api_load --floor --title london --targets floor,graphql")
    assert "5 concurrent london matches (3 seats)" in report
    assert "graphql      CPU per act 2.00 (2.00-2.00)x the floor's (target <= 1.8x: MISSED)" in report
    assert "rest" not in report.split("ratios to the floor")[1] and "rules floor" not in report


def test_the_collectors_pauses_are_read_from_the_metrics() -> None:
    def exposition(gen0: tuple[int, int, int], gen2: tuple[int, int, int], seconds: float) -> str:
        lines = []
        for generation, counts in (("0", gen0), ("2", gen2)):
            for bound, n in zip(("0.0001", "0.001", "+Inf"), counts, strict=True):
                lines.append(f'firebreak_gc_pause_seconds_bucket{{generation="{generation}",le="{bound}"}} {n}.0')
            lines.append(f'firebreak_gc_pause_seconds_count{{generation="{generation}"}} {counts[-1]}.0')
            lines.append(f'firebreak_gc_pause_seconds_sum{{generation="{generation}"}} {seconds}')
        return "\n".join(["# HELP firebreak_gc_pause_seconds x", *lines, "firebreak_actions_total 3.0"])

    before = act_cost.GcPauses.scraped(exposition((10, 10, 10), (0, 0, 0), 0.001))
    after = act_cost.GcPauses.scraped(exposition((200, 210, 210), (0, 0, 2), 0.05))
    window = after.since(before)
    assert (window.count, round(window.seconds, 6)) == (202.0, 0.098)
    assert window.buckets == ((0.0001, 190.0), (0.001, 200.0), (float("inf"), 202.0))
    assert window.quantile(0.5) == 0.0001 and window.quantile(0.99) == 0.001 and window.quantile(0.995) == float("inf")
    assert act_cost.GcPauses(0.0, 0.0, ()).quantile(0.99) is None


def test_each_round_starts_one_target_further_on_so_every_target_takes_every_place() -> None:
    targets = ("floor", "rules", "graphql", "rest", "rest-minimal")
    orders = [act_cost.rotated(targets, n) for n in range(len(targets))]
    assert all(sorted(order) == sorted(targets) for order in orders)
    for place in range(len(targets)):
        assert sorted(order[place] for order in orders) == sorted(targets)
    assert act_cost.rotated(targets, len(targets)) == targets


def test_the_kernel_counts_of_a_process_follow_what_it_does() -> None:
    before = harness.scheduling(os.getpid())
    assert before is not None and before["threads"] >= 1
    with open(os.devnull, "wb") as sink:
        for _ in range(200):
            sink.write(b"x")
            sink.flush()
    for _ in range(20):
        time.sleep(0.001)  # each sleep gives the core up: a voluntary switch
    after = harness.scheduling(os.getpid())
    assert after is not None
    assert after["write calls"] - before["write calls"] >= 200
    assert after["voluntary switches"] - before["voluntary switches"] >= 20
    assert harness.scheduling(2**22 + 12345) is None  # no such process


def test_the_report_gives_each_targets_kernel_counts_per_act() -> None:
    kernel = {"voluntary switches": 500, "involuntary switches": 1500, "read calls": 4000, "write calls": 4100,
              "minor faults": 0, "threads": 5}
    rounds = [act_cost.Round(1, target, 10.0, 1000, 1.0, 0.1, 6000, 0.5, 0, kernel=kernel)
              for target in ("floor", "rest")]
    args = argparse.Namespace(matches=5, seats=4, client_pool=10, warmup=2.0, seconds=10.0, title="greatfire",
                              targets=("floor", "rest"))
    report = act_cost.render(rounds, args, "python -m bench.api_load --floor --targets floor,rest")
    assert ("rest         voluntary switches 0.50 (0.50-0.50), involuntary switches 1.50 (1.50-1.50), read calls "
            "4.00 (4.00-4.00), write calls 4.10 (4.10-4.10), minor faults 0.00 (0.00-0.00); threads 5") in report


def test_pinning_keeps_every_thread_of_a_process_on_the_cores_given() -> None:
    cores = sorted(os.sched_getaffinity(0))
    child = subprocess.Popen([sys.executable, "-c", "import threading, time\n"
                              "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
                              "time.sleep(30)"])
    try:
        deadline = time.monotonic() + 10
        while len(os.listdir(f"/proc/{child.pid}/task")) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        harness.pin(child.pid, {cores[-1]})
        tasks = [int(task) for task in os.listdir(f"/proc/{child.pid}/task")]
        assert len(tasks) == 2 and all(os.sched_getaffinity(task) == {cores[-1]} for task in tasks)
    finally:
        child.kill()
        child.wait()
