"""The reconciler: whatever died (a worker mid-job, the API between its commit and its enqueue, the enqueue
itself, a job that failed), every match the service owes a step reaches its end, each step applied once.

Each test runs workers of its own (real processes, each with its reconciler thread) on a private queue with a
short tick and stall, and drives the lobby and the pipeline in-process where it needs to crash at one line.
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from rq import Queue
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry

from firebreak.matches import keys
from firebreak.matches.config import Settings
from firebreak.matches.embedded import EmbeddedRedis
from firebreak.matches.lobby import Lobby
from firebreak.matches.outcomes import OutcomeKind
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.reconciler import Reconciler
from firebreak.matches.scheduler import Scheduler, job_id
from firebreak.matches.store import engine
from tests.service import support as h

TICK = "0.2"
STALL = "2"
FAST = {"FIREBREAK_TICK_SECONDS": TICK, "FIREBREAK_STALL_SECONDS": STALL}
BOUND = float(TICK) + float(STALL)  # how long a stranded match waits at most for its job to be enqueued again
WAITS: dict[str, list[tuple[float, float]]] = {}  # test -> (re-enqueued after, moved after) per stranded match


class Crash(Exception):
    """The process died here (simulated: nothing after this line runs)."""


class CrashBeforeEnqueue(Scheduler):
    """A scheduler that dies right after the commit, before it enqueues anything."""

    async def enqueue(self, match_id: str, version: int) -> bool:
        raise Crash(f"crashed before enqueueing {match_id} at version {version}")


class FailingEnqueue(Scheduler):
    """A scheduler whose job, under the real job id and guard, fails in the worker (RQ marks it failed)."""

    async def enqueue(self, match_id: str, version: int) -> bool:
        job = job_id(match_id, version)
        await self.redis.set(keys.job_guard(match_id, version), job)
        self.queue.enqueue("firebreak.workers.jobs.no_such_job", match_id, version, job_id=job, failure_ttl=600)
        return True


def forget(redis: Redis, queue: str, match_ids: list[str]) -> None:
    """Delete matches no worker will ever play (so that other tests' lobby listings do not see them)."""
    for match_id in match_ids:
        redis.delete(*keys.all_of(match_id))
        redis.zrem(keys.lobby("active"), match_id)
        redis.zrem(keys.due(queue), match_id)


def version_of(redis: Redis, match_id: str) -> tuple[str, int]:
    status, version = redis.hmget(keys.meta(match_id), ["status", "version"])
    if status is None and redis.exists(keys.archive(match_id)):  # finished, and archived
        return "over", int(h.stored(redis, match_id)["version"])
    return str(status), int(version or 0)


def wait_until_moved(redis: Redis, stranded: list[tuple[str, int]], since: float) -> None:
    """Wait until a reconciler has enqueued a job for each stranded (match, version), or the match moved on,
    within BOUND of `since` (+ a second for this poll on a loaded machine), then until each commits past it
    (its new job waits its turn in the queue like any other); record both times."""
    enqueued: dict[str, float] = {}
    moved: dict[str, float] = {}
    end = since + h.DEADLINE
    while len(moved) < len(stranded):
        assert time.monotonic() < end, f"stranded matches did not move on: {set(dict(stranded)) - set(moved)}"
        for match_id, version in stranded:
            guard = redis.get(keys.job_guard(match_id, version))
            now = time.monotonic() - since
            if version_of(redis, match_id)[1] > version:
                enqueued.setdefault(match_id, now)
                moved.setdefault(match_id, now)
            elif guard is not None and "-r" in str(guard):
                enqueued.setdefault(match_id, now)
        time.sleep(0.02)
    assert max(enqueued.values()) <= BOUND + 1.0, f"re-enqueued after {enqueued}, bound {BOUND} s"
    test = os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[-1].split(" ")[0]
    WAITS.setdefault(test, []).extend((enqueued[m], moved[m]) for m, _ in stranded)


def wait_over(redis: Redis, match_id: str) -> None:
    h.wait_for(lambda: version_of(redis, match_id)[0] == "over", f"match {match_id} to end", pause=0.1)


@pytest.fixture(scope="module", autouse=True)
def report_waits() -> Any:
    yield
    for test, waits in WAITS.items():
        print(f"\n{test}: {len(waits)} stranded; longest until re-enqueued {max(w[0] for w in waits):.2f} s "
              f"(bound {BOUND:.1f} s), until it moved again {max(w[1] for w in waits):.2f} s")


def test_worker_killed_mid_job_every_bot_match_still_ends(redis_url: str, redis: Redis, tmp_path: Path) -> None:
    """kill -9 both workers three times while they hold started jobs, during eight bot matches: new workers'
    reconcilers re-enqueue the stranded versions, every match ends, and its log replays step by step."""
    with h.private_service(redis_url, tmp_path, "firebreak-kill", workers=2, FIREBREAK_SECONDS_PER_JOB="2",
                           **FAST) as svc:
        queue = Queue(svc.settings.queue, connection=Redis.from_url(redis_url))
        started = StartedJobRegistry(queue=queue)
        matches = [h.bot_match(svc.settings, 900 + n, seats=3 + n % 3, levels=("greedy", "search", "random"))
                   for n in range(8)]
        kills = 0
        for _ in range(3):
            if all(version_of(redis, s.match_id)[0] == "over" for s in matches):
                break
            h.wait_for(lambda: started.get_job_ids(), "a worker to hold a started job", pause=0.01)
            svc.kill_workers()
            kills += 1
            stranded = [(s, version_of(redis, s.match_id)) for s in matches]
            stranded = [(s, v) for s, (status, v) in stranded if status == "active"]
            held = set(started.get_job_ids())
            assert held, "no job was left started by the killed workers"
            svc.start_worker()
            svc.start_worker()
            svc.wait_reconciling()
            restarted = time.monotonic()  # a reconciler runs again from here
            # the matches whose job died with a worker
            dead = [(s.match_id, version) for s, version in stranded
                    if any(j.startswith(f"advance-{s.match_id}-") for j in held)]
            wait_until_moved(redis, dead, restarted)
        assert kills >= 1
        for s in matches:
            wait_over(redis, s.match_id)
            record = h.check_replay(redis, s)
            assert record["status"] == "over"
            assert redis.zscore(keys.due(svc.settings.queue), s.match_id) is None, "an ended match is still due"
        queue.connection.close()


def test_a_crash_between_the_fill_and_the_enqueue(redis_url: str, redis: Redis, tmp_path: Path) -> None:
    """The last addBot fills the match and the API dies before it enqueues the first job: the match is still
    due, and a reconciler enqueues it within the bound."""
    with h.private_service(redis_url, tmp_path, "firebreak-crash-fill", **FAST) as svc:
        before = time.monotonic()
        with pytest.raises(Crash):
            h.bot_match(svc.settings, 910, scheduler=CrashBeforeEnqueue)
        (match_id,) = [m for m in redis.zrange(keys.due(svc.settings.queue), 0, -1)
                       if version_of(redis, m) == ("active", 0)]
        assert redis.get(keys.job_guard(match_id, 0)) is None, "nothing was enqueued"
        wait_until_moved(redis, [(match_id, 0)], before)
        wait_over(redis, match_id)


def test_a_crash_between_an_act_and_the_enqueue(redis_url: str, redis: Redis, tmp_path: Path) -> None:
    """A person's act commits and the API dies before it enqueues the bot's job. The client's retry with
    the same idempotency key is answered from the record (and enqueues nothing); the reconciler does, and
    the bots move on."""
    with h.private_service(redis_url, tmp_path, "firebreak-crash-act", **FAST) as svc:
        async def setup(lobby: Lobby, pipeline: Pipeline) -> tuple[h.Setup, str]:
            created = await lobby.create("greatfire", 3, None, 911)
            s = h.Setup(created.match_id, created.host_token, 3, 911, {})
            seated = await lobby.join(created.match_id, 0, "ann")
            assert seated.token is not None
            s.humans[0] = seated.token
            for _ in range(2):
                s.bots[(await lobby.add_bot(created.match_id, None, "random", created.host_token)).seat] = "random"
            return s, seated.token

        s, token = h.run(svc.settings, setup)
        rng = random.Random(1)

        async def my_turn(lobby: Lobby, pipeline: Pipeline) -> tuple[int, Any] | None:
            loaded = await pipeline.store.load(s.match_id)
            assert loaded is not None
            match = engine(loaded)
            if 0 not in match.to_act():
                return None
            return loaded.version, rng.choice(match.legal_actions(0))

        # play the person's decisions until one hands the turn to a bot
        while True:
            turn = h.wait_for(lambda: h.run(svc.settings, my_turn), "seat 0's turn", pause=0.05)
            version, action = turn

            async def act(_: Lobby, pipeline: Pipeline, v: int = version, a: Any = action) -> Any:
                return await pipeline.act(s.match_id, token, a, v, f"key-{v}")

            try:
                outcome, _after = h.run(svc.settings, act, CrashBeforeEnqueue)
            except Crash:
                break  # committed, the bot's job never enqueued
            assert outcome.kind is OutcomeKind.ACCEPTED
        crashed_at = time.monotonic()
        assert version_of(redis, s.match_id) == ("active", version + 1)
        retried, _ = h.run(svc.settings, act)
        assert retried.kind is OutcomeKind.ACCEPTED and retried.version == version + 1, \
            "the retry is answered from the record"
        assert redis.get(keys.job_guard(s.match_id, version + 1)) is None, "the retry enqueued a job"
        wait_until_moved(redis, [(s.match_id, version + 1)], crashed_at)
        h.check_replay(redis, s)


def test_a_lost_enqueue_and_its_leftover_guard(redis_url: str, redis: Redis, tmp_path: Path) -> None:
    """Redis loses the job (as a restart losing its last second of writes would) but keeps the guard key:
    the guard does not block the reconciler's fresh job."""
    with h.private_service(redis_url, tmp_path, "firebreak-lost", workers=0, **FAST) as svc:
        s = h.bot_match(svc.settings, 912)
        queue = Queue(svc.settings.queue, connection=Redis.from_url(redis_url))
        first = job_id(s.match_id, 0)
        assert queue.job_ids == [first] and redis.get(keys.job_guard(s.match_id, 0)) == first
        lost_at = time.monotonic()
        queue.remove(first)
        Job.fetch(first, connection=queue.connection).delete()
        svc.start_worker()
        wait_until_moved(redis, [(s.match_id, 0)], lost_at)
        wait_over(redis, s.match_id)
        h.check_replay(redis, s)
        queue.connection.close()


def test_a_failed_job_is_retried(redis_url: str, redis: Redis, tmp_path: Path) -> None:
    """The first job of a match fails in the worker (RQ marks it failed): a reconciler enqueues another."""
    with h.private_service(redis_url, tmp_path, "firebreak-failed", **FAST) as svc:
        enqueued = int(redis.hget(keys.RECONCILER_COUNTER, "enqueued") or 0)
        failed_at = time.monotonic()
        s = h.bot_match(svc.settings, 913, scheduler=FailingEnqueue)
        queue = Queue(svc.settings.queue, connection=Redis.from_url(redis_url))
        first = Job.fetch(job_id(s.match_id, 0), connection=queue.connection)
        h.wait_for(lambda: first.get_status(refresh=True) == JobStatus.FAILED, "the first job to fail", pause=0.05)
        wait_until_moved(redis, [(s.match_id, 0)], failed_at)
        assert int(redis.hget(keys.RECONCILER_COUNTER, "enqueued") or 0) > enqueued, "the metric missed it"
        wait_over(redis, s.match_id)
        h.check_replay(redis, s)
        queue.connection.close()


def test_redis_killed_and_restarted_mid_match(tmp_path: Path) -> None:
    """kill -9 a Redis of its own (append-only file on) while its workers play bot matches, and the workers
    with it; after Redis and the workers restart, every match still ends and replays step by step."""
    server = EmbeddedRedis(tmp_path / "redis", appendonly=True, prefer_bundled=False)
    url = server.start()
    redis = Redis.from_url(url, decode_responses=True)
    try:
        with h.private_service(url, tmp_path, "firebreak-redis-restart", workers=2,
                               FIREBREAK_SECONDS_PER_JOB="2", **FAST) as svc:
            matches = [h.bot_match(svc.settings, 920 + n, levels=("greedy", "random")) for n in range(4)]
            h.wait_for(lambda: sum(version_of(redis, s.match_id)[1] for s in matches) > 40, "some progress",
                       pause=0.05)
            assert server.process is not None
            server.process.kill()
            server.process.wait()
            svc.kill_workers()
            restarted = EmbeddedRedis(tmp_path / "redis", port=server.port, appendonly=True, prefer_bundled=False)
            restarted.start()
            server = restarted
            versions = {s.match_id: version_of(redis, s.match_id) for s in matches}
            assert all(status in ("active", "over") for status, _ in versions.values()), versions
            svc.start_worker()
            svc.start_worker()
            svc.wait_reconciling()
            since = time.monotonic()
            wait_until_moved(redis, [(m, v) for m, (status, v) in versions.items() if status == "active"], since)
            for s in matches:
                wait_over(redis, s.match_id)
                h.check_replay(redis, s)
    finally:
        redis.close()
        server.stop()


def test_reconcilers_running_at_once_never_take_one_entry_twice(redis_url: str, redis: Redis,
                                                                tmp_path: Path) -> None:
    """Four reconcilers tick together over forty due matches (no worker runs their jobs): each match gets
    exactly one job, and a second round, once the claims' stall time has passed too, enqueues nothing while
    those jobs wait in the queue. (Ticks are given a later "now" rather than waiting for it.)"""
    settings = Settings.from_env({**h.service_env(redis_url), "FIREBREAK_QUEUE": "firebreak-race", **FAST})
    ids = [h.bot_match(settings, 930 + n).match_id for n in range(40)]
    queue = Queue(settings.queue, connection=Redis.from_url(redis_url))
    queue.empty()  # the fills' own jobs: as if their enqueues were lost
    reconcilers = [Reconciler(Redis.from_url(redis_url), settings) for _ in range(4)]
    with ThreadPoolExecutor(len(reconcilers)) as pool:
        later = time.time() + settings.stall_seconds + 1
        # (the players' outboxes are shared by every queue: other tests' matches may be handed on here too)
        first = [job for jobs in pool.map(lambda r: r.tick(later), reconcilers) for job in jobs
                 if job.split("-")[1] in ids]
        assert sorted(j.split("-")[1] for j in first) == sorted(ids), "a match got no job, or two"
        later += settings.stall_seconds + 1
        again = [job for jobs in pool.map(lambda r: r.tick(later), reconcilers) for job in jobs
                 if job.split("-")[1] in ids]
        assert again == [], "a job still waiting in the queue was enqueued again"
    assert sorted(j for j in queue.job_ids if j.split("-")[1] in ids) == sorted(first)
    queue.empty()
    forget(redis, settings.queue, ids)
    for reconciler in reconcilers:
        reconciler.redis.close()
    queue.connection.close()


def test_matches_from_before_the_due_set_are_adopted(redis_url: str, redis: Redis) -> None:
    """An active match stored by the previous version (no "at" in its meta, no due entry) is made due by a
    reconciler's start; a current match, whose due entry its own start wrote, is left alone."""
    settings = Settings.from_env({**h.service_env(redis_url), "FIREBREAK_QUEUE": "firebreak-adopt", **FAST})
    legacy, current = (h.bot_match(settings, 940 + n).match_id for n in range(2))
    due = keys.due(settings.queue)
    redis.hdel(keys.meta(legacy), "at", "lastHuman")
    redis.zrem(due, legacy, current)
    reconciler = Reconciler(Redis.from_url(redis_url), settings)
    assert reconciler.adopt() >= 1
    assert redis.zscore(due, legacy) is not None and redis.zscore(due, current) is None
    assert reconciler.adopt() == 0, "adopting twice added entries"
    Queue(settings.queue, connection=reconciler.redis).empty()
    reconciler.redis.close()
    forget(redis, settings.queue, [legacy, current])
