"""Worker jobs: a duplicated or late advance job is a harmless no-op ("stale", nothing changes), and duplicates
racing the real job over a live bot match never apply a step twice."""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis
from rq import Queue
from rq.job import Job, JobStatus

from firebreak.matches import keys
from firebreak.matches.config import Settings
from firebreak.workers import jobs
from tests.service import support as h
from tests.service.conftest import ROOT, service_env


@pytest.fixture(scope="module")
def queue(redis_url: str) -> Iterator[Queue]:
    connection = Redis.from_url(redis_url)
    yield Queue(h.QUEUE, connection=connection)
    connection.close()


@pytest.fixture
def worker_env(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """workers.jobs.advance run in this process reads its settings from the environment."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("FIREBREAK_QUEUE", h.QUEUE)


def frozen(redis: Redis, match_id: str) -> Any:
    return (redis.hgetall(keys.state(match_id)), redis.lrange(keys.log(match_id), 0, -1),
            redis.xlen(keys.events(match_id)), redis.hgetall(keys.meta(match_id)), redis.get(keys.archive(match_id)))


def run_job(queue: Queue, match_id: str, version: int) -> Any:
    """Enqueue advance(match_id, version) with rq, as a duplicate would be, and wait for its outcome."""
    job = queue.enqueue("firebreak.workers.jobs.advance", match_id, version, result_ttl=600)
    end = time.monotonic() + h.DEADLINE
    while time.monotonic() < end:
        status = job.get_status(refresh=True)
        if status == JobStatus.FINISHED:
            return job.return_value()
        assert status != JobStatus.FAILED, f"the duplicate job failed: {Job.fetch(job.id, queue.connection).exc_info}"
        time.sleep(0.05)
    raise AssertionError(f"job advance({match_id}, {version}) did not finish")


def test_late_jobs_for_a_finished_match_are_stale_no_ops(server: str, redis: Redis, queue: Queue,
                                                         worker_env: None) -> None:
    with h.recording(server) as c:
        s = h.new_match(c, 3, 701, humans=0, bots=["random"] * 3)
        final = h.wait_for(lambda: (m := h.state(c, s.match_id, None))["status"] == "OVER" and m["version"],
                           "the bot match to finish", pause=0.1)
    before = frozen(redis, s.match_id)
    stale_before = int(redis.hget(keys.JOBS_COUNTER, "stale") or 0)
    for version in (0, 1, final // 2, final - 1, final):
        assert jobs.advance(s.match_id, version) == "stale", f"in-process advance at version {version}"
    for version in (0, final - 1, final):
        assert run_job(queue, s.match_id, version) == "stale", f"rq job at version {version}"
    assert frozen(redis, s.match_id) == before, "a late job changed the finished match"
    assert int(redis.hget(keys.JOBS_COUNTER, "stale") or 0) - stale_before == 8
    h.check_replay(redis, s)


def test_duplicate_jobs_for_a_match_awaiting_a_person_change_nothing(server: str, redis: Redis, queue: Queue,
                                                                      worker_env: None) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=702)
        for _ in range(3):
            _seat, token, m = h.to_act(c, s)
            assert h.act(c, s.match_id, token, m["legalActions"][0], m["version"])["__typename"] == "ActionAccepted"
        version = h.state(c, s.match_id, None)["version"]
    before = frozen(redis, s.match_id)
    for old in range(version):
        assert jobs.advance(s.match_id, old) == "stale"
        assert run_job(queue, s.match_id, old) == "stale"
    # a job for the current version finds a person to act: it waits and applies nothing
    assert jobs.advance(s.match_id, version) == "waiting"
    assert run_job(queue, s.match_id, version) == "waiting"
    assert frozen(redis, s.match_id) == before


def test_a_job_for_an_unknown_match_is_stale(redis: Redis, worker_env: None) -> None:
    assert jobs.advance("0123456789abcdef", 0) == "stale"
    assert jobs.advance("not-an-id", 3) == "stale"


def test_duplicates_racing_the_real_job_never_apply_a_step_twice(server: str, redis: Redis, queue: Queue,
                                                                 worker_env: None) -> None:
    """As soon as an all-bot match starts, several in-process advance calls and extra rq jobs chase the real
    job from version 0. Every commit is compare-and-set, so the stored log must still replay exactly."""
    with h.recording(server) as c:
        s = h.create(c, 4, 703)
        for level in ("random", "random", "greedy"):
            h.add_bot(c, s, level)
        outcomes: list[str] = []
        errors: list[BaseException] = []

        def chase() -> None:
            try:
                version = 0
                end = time.monotonic() + h.DEADLINE
                while time.monotonic() < end:
                    outcome = jobs.advance(s.match_id, version)
                    outcomes.append(outcome)
                    current = h.stored(redis, s.match_id)
                    if current["status"] == "over" or outcome == "over":
                        return
                    if outcome == "stale":
                        version = current["version"]
                raise AssertionError("a chaser never saw the match end")
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=chase, daemon=True) for _ in range(3)]
        h.add_bot(c, s, "random")  # the match starts: the scheduler enqueues the real job for version 0
        for t in threads:
            t.start()
        extra = [queue.enqueue("firebreak.workers.jobs.advance", s.match_id, 0, result_ttl=600) for _ in range(3)]
        for t in threads:
            t.join(h.DEADLINE)
        assert not errors, errors
        final = h.wait_for(lambda: (m := h.state(c, s.match_id, None))["status"] == "OVER" and m,
                           "the raced match to finish", pause=0.1)
        for job in extra:
            ran = functools.partial(lambda j: j.get_status(refresh=True) in (JobStatus.FINISHED, JobStatus.FAILED),
                                    job)
            h.wait_for(ran, "an extra job to run", pause=0.05)
            assert job.get_status() == JobStatus.FINISHED, job.exc_info
        assert "stale" in outcomes, f"the chasers never lost a race: {outcomes}"
        record = h.check_replay(redis, s)
        assert record["version"] == final["version"]
        h.check_event_log(c, s, final["version"])


def test_a_job_hands_on_after_its_time_slice(redis_url: str, redis: Redis) -> None:
    """With FIREBREAK_SECONDS_PER_JOB=0 every job runs one step, enqueues the next version's job at the back of
    the queue and returns "continued"; a real worker running jobs that way still plays the match to its end,
    each step applied once. (A private queue: the session's workers never see these jobs.)"""
    env = {**service_env(redis_url), "FIREBREAK_QUEUE": "firebreak-slices", "FIREBREAK_SECONDS_PER_JOB": "0"}
    settings = Settings(redis_url=redis_url, queue=env["FIREBREAK_QUEUE"])
    s = h.bot_match(settings, 704, seats=3, levels=("random",))
    queue = Queue(settings.queue, connection=Redis.from_url(redis_url))
    assert queue.job_ids == [f"advance-{s.match_id}-0"], "the match should start with one job, for version 0"
    subprocess.run([sys.executable, "-m", "firebreak.workers.main", "--burst"], cwd=ROOT, env=env, check=True,
                   timeout=h.DEADLINE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    record = h.check_replay(redis, s)
    assert record["status"] == "over"
    final = record["version"]
    outcomes = [Job.fetch(f"advance-{s.match_id}-{v}", connection=queue.connection).return_value()
                for v in range(final)]
    assert outcomes == ["continued"] * (final - 1) + ["over"]
    queue.connection.close()


@pytest.mark.parametrize(("name", "value", "message"), [
    ("FIREBREAK_SEARCH_SECONDS", "soon", "FIREBREAK_SEARCH_SECONDS must be a positive number, not 'soon'"),
    ("FIREBREAK_STALL_SECONDS", "-3", "FIREBREAK_STALL_SECONDS must be a positive number, not '-3'"),
])
def test_a_worker_refuses_to_start_with_an_unusable_setting(redis_url: str, name: str, value: str,
                                                             message: str) -> None:
    """A misconfigured worker stops at once with the variable named, instead of failing every search job (a bad
    search budget) or running no reconciler (a bad tick or stall)."""
    env = {**service_env(redis_url), name: value}
    done = subprocess.run([sys.executable, "-m", "firebreak.workers.main", "--burst"], cwd=ROOT, env=env, timeout=60,
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert message in done.stderr
