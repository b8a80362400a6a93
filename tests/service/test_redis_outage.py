"""Redis killed (kill -9) and restarted under a live service: the API answers 503 SERVICE_UNAVAILABLE while it is
down and succeeds from the first request after it returns; workers stay alive and every bot match still ends,
each step applied exactly once. A private Redis with its append-only file on, on its own port."""

from __future__ import annotations

import asyncio
import functools
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from subprocess import Popen
from typing import Any

import httpx
import pytest
from redis import Redis

from firebreak.matches import keys
from firebreak.matches.embedded import EmbeddedRedis
from tests.service import support as h
from tests.service.conftest import QUEUE, service_env, worker_processes
from tests.service.test_subscription import Received, subscribe

OUTAGE_CODE = "SERVICE_UNAVAILABLE"
READ = """query($id: ID!) { match(id: $id) { id version status } }"""


@dataclass
class Service:
    """A service over a Redis that the tests may kill."""

    redis: EmbeddedRedis
    base: str
    workers: list[Popen[bytes]]
    logs: Path
    store: Redis

    def kill_redis(self) -> None:
        """kill -9 the Redis server."""
        assert self.redis.process is not None
        self.redis.process.kill()
        self.redis.process.wait()

    def restart_redis(self) -> None:
        """Start Redis again on its port with its data (it answers once its append-only file is loaded)."""
        self.redis.start()

    def log_lines(self, name: str, text: str) -> int:
        """How many lines of the named log file(s) (a glob) contain a text."""
        return sum(text in line for path in self.logs.rglob(name) for line in path.read_text().splitlines())


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """Redis (AOF on, appendfsync always: the default), two workers and an API process over it."""
    logs = tmp_path_factory.mktemp("outage")
    redis = EmbeddedRedis(logs / "redis", appendonly=True, prefer_bundled=False)
    url = redis.start()
    store = Redis.from_url(url, decode_responses=True)
    try:
        with worker_processes(url, logs) as workers, h.api_process(url, logs / "api.log") as base:
            yield Service(redis, base, workers, logs, store)
    finally:
        store.close()
        redis.stop()


def concurrently(base: str, n: int, query: str, variables: dict[str, Any]) -> list[httpx.Response]:
    """n requests at once, each on its own connection (so that the API's Redis pool grows to about n)."""
    async def run() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=base, timeout=30,
                                     limits=httpx.Limits(max_connections=n, max_keepalive_connections=0)) as c:
            return list(await asyncio.gather(*(c.post("/graphql", json={"query": query, "variables": variables})
                                               for _ in range(n))))
    return asyncio.run(run())


def assert_unavailable(response: httpx.Response) -> None:
    """The documented answer while Redis is down."""
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "2"
    body = response.json()
    assert set(body) == {"errors"}, body
    assert [e["extensions"]["code"] for e in body["errors"]] == [OUTAGE_CODE], body
    assert "Internal error" not in response.text


def test_requests_get_503_while_redis_is_down_and_succeed_as_soon_as_it_is_back(service: Service) -> None:
    c = h.Client(service.base)
    try:
        s = h.all_human_match(c, seats=3, seed=811)
        seat, token, m = h.to_act(c, s)
        action = m["legalActions"][0]
        warm = concurrently(service.base, 20, READ, {"id": s.match_id})  # a pool of connections to go stale
        assert all(r.status_code == 200 and "errors" not in r.json() for r in warm)
        unreachable_before = service.log_lines("api.log", "Redis unreachable")

        service.kill_redis()
        assert_unavailable(c.post(READ, {"id": s.match_id}))
        assert_unavailable(c.post(h.CREATE, {"input": {"title": "greatfire", "seats": 3}}))
        act = {"input": {"matchId": s.match_id, "action": action, "expectedVersion": m["version"],
                         "idempotencyKey": "during-the-outage"}}
        assert_unavailable(c.post(h.ACT, act, token))
        ready = c.http.get("/readyz")
        assert ready.status_code == 503 and ready.json()["status"] == "unavailable"
        assert c.http.get("/healthz").status_code == 200, "the process itself is alive"

        service.restart_redis()
        after = concurrently(service.base, 20, READ, {"id": s.match_id})
        assert [r.status_code for r in after] == [200] * 20, [r.text for r in after if r.status_code != 200]
        assert all(r.json()["data"]["match"]["version"] == m["version"] for r in after)
        # the act that met the outage was not applied: the client retries it with the same key
        retried = c.gql(h.ACT, act, token)["act"]
        assert retried["__typename"] == "ActionAccepted" and retried["version"] == m["version"] + 1, retried
        again = c.gql(h.ACT, act, token)["act"]
        assert again == retried, "the idempotency record answers a second retry"
        assert c.http.get("/readyz").status_code == 200
        assert h.check_replay(service.store, s)["version"] == m["version"] + 1
        assert seat in s.humans
    finally:
        c.http.close()
    assert service.log_lines("api.log", "Redis unreachable") == unreachable_before + 1, "one line per outage"
    assert service.log_lines("api.log", "Internal error") == 0


def test_a_subscriber_gets_a_typed_error_when_redis_goes_away(service: Service) -> None:
    c = h.Client(service.base)
    try:
        s = h.all_human_match(c, seats=3, seed=812)
        _seat, token, _m = h.to_act(c, s)

        async def run() -> Received:
            got = Received()
            task = asyncio.create_task(subscribe(service.base, s.match_id, 0, token, out=got))
            await asyncio.sleep(1.0)  # subscribed and blocked in its stream read
            await asyncio.to_thread(service.kill_redis)
            try:
                return await asyncio.wait_for(task, h.DEADLINE)
            finally:
                await asyncio.to_thread(service.restart_redis)

        got = asyncio.run(run())
    finally:
        c.http.close()
    assert [e["extensions"]["code"] for e in got.errors] == [OUTAGE_CODE], got.raw
    assert got.completed, "the subscription ends after its error: the client subscribes again from its last version"


def over(c: h.Client, match_id: str) -> bool:
    """Whether the match has ended."""
    return bool(h.state(c, match_id, None)["status"] == "OVER")


def test_workers_survive_redis_kills_and_every_bot_match_ends_with_each_step_applied_once(service: Service) -> None:
    kills = 3
    unreachable = [service.log_lines(f"worker{n}.log", "Redis unreachable") for n in range(len(service.workers))]
    c = h.Client(service.base)
    try:
        matches = [h.new_match(c, 4, 820 + n, humans=0, bots=["random", "greedy", "random", "search"])
                   for n in range(6)]
        rng = random.Random(8)
        playing = []
        for _ in range(kills):
            time.sleep(rng.uniform(0.3, 1.0))
            playing.append(sum(service.store.hget(keys.meta(s.match_id), "status") == "active" for s in matches))
            service.kill_redis()
            time.sleep(rng.uniform(0.5, 2.0))
            service.restart_redis()
        assert playing[0] > 0, "no match was being played when Redis was killed"
        for s in matches:
            h.wait_for(functools.partial(over, c, s.match_id), f"bot match {s.match_id} to end after the Redis kills",
                       pause=0.2)
            h.check_replay(service.store, s)
            h.check_event_log(c, s, h.state(c, s.match_id, None)["version"])
    finally:
        c.http.close()
    assert [w.poll() for w in service.workers] == [None] * len(service.workers), "a worker exited"
    for n, before in enumerate(unreachable):
        # one line per outage the worker ran into (a worker thinking through a whole outage never sees it)
        logged = service.log_lines(f"worker{n}.log", "Redis unreachable") - before
        assert 1 <= logged <= kills, f"worker {n} logged {logged} outages for {kills} Redis kills"
        assert service.log_lines(f"worker{n}.log", "Redis reachable again") == before + logged, "an outage never ended"


def health(service: Service, queue: str = QUEUE) -> subprocess.CompletedProcess[str]:
    """Run the workers' health check (docker compose runs it in a worker's container) against the service."""
    env = {**service_env(service.redis.url), "FIREBREAK_QUEUE": queue}
    return subprocess.run([sys.executable, "-m", "firebreak.workers.health"], cwd=h.ROOT, env=env, timeout=60,
                          capture_output=True, text=True)


def test_the_worker_health_check_needs_redis_and_a_live_registered_worker(service: Service) -> None:
    assert health(service).returncode == 0
    nobody = health(service, "a-queue-without-workers")
    assert nobody.returncode == 1
    assert "no live worker of host" in nobody.stderr and "a-queue-without-workers" in nobody.stderr
    service.kill_redis()
    try:
        down = health(service)
    finally:
        service.restart_redis()
    assert down.returncode == 1 and "Redis unreachable (ConnectionError)" in down.stderr, down.stderr
    assert health(service).returncode == 0


def test_every_acknowledged_action_survives_a_redis_kill(service: Service) -> None:
    """appendfsync always (the default): Redis writes and fsyncs its append-only file before it answers, so
    kill -9 right after the last acknowledgement loses nothing. (Under everysec a loaded disk can make Redis
    hold writes back for up to 2 s after replying: this test then lost 2 of 40 acknowledged actions.)"""
    c = h.Client(service.base)
    try:
        s = h.all_human_match(c, seats=3, seed=813)
        acknowledged = 0
        for n in range(40):
            _seat, token, m = h.to_act(c, s)
            result = h.act(c, s.match_id, token, m["legalActions"][0], m["version"], key=f"ack-{n}")
            assert result["__typename"] == "ActionAccepted", result
            acknowledged = result["version"]
        service.kill_redis()
        service.restart_redis()
        assert h.check_replay(service.store, s)["version"] == acknowledged
        assert h.state(c, s.match_id, None)["version"] == acknowledged
    finally:
        c.http.close()


def test_sigterm_stops_a_worker_that_is_waiting_for_redis(service: Service) -> None:
    log = service.logs / "stopping-worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen([sys.executable, "-m", "firebreak.workers.main"], cwd=h.ROOT,
                                  env={**service_env(service.redis.url), "FIREBREAK_QUEUE": "firebreak-stopping"},
                                  stdout=out, stderr=subprocess.STDOUT)
        try:
            h.wait_for(lambda: "Listening on" in log.read_text(), "the worker to listen", pause=0.1)
            service.kill_redis()
            h.wait_for(lambda: "Redis unreachable" in log.read_text(), "the worker to notice the outage", pause=0.1)
            worker.terminate()
            assert worker.wait(timeout=30) == 0
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
            service.restart_redis()
