"""scripts/serve.py as a real process: a killed worker and a killed embedded Redis are restarted (the Redis on
the same port, with its data), the service goes on playing, and SIGTERM stops everything."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from rq import Queue, Worker

from matches.embedded import free_port
from tests.service import support as h

QUEUE = "firebreak-serve"


@dataclass
class Served:
    """serve.py running on free ports."""

    process: subprocess.Popen[bytes]
    base: str
    redis: Redis
    log: Path

    def worker_pids(self) -> set[int]:
        """The pids of the live workers registered on the queue."""
        workers = Worker.all(connection=self.redis, queue=Queue(QUEUE, connection=self.redis))
        return {w.pid for w in workers if w.pid and alive(w.pid)}

    def redis_pid(self) -> int | None:
        """The embedded Redis's pid, None while it does not answer."""
        try:
            return int(self.redis.info("server")["process_id"])
        except (RedisConnectionError, OSError):
            return None


def alive(pid: int) -> bool:
    """Whether a process runs with this pid (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    port, redis_port = free_port(), free_port()
    env = {k: v for k, v in h.service_env("").items() if k != "REDIS_URL"}
    env["FIREBREAK_QUEUE"] = QUEUE
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "scripts/serve.py", "--port", str(port), "--redis-port", str(redis_port),
             "--data", str(tmp_path / "redis"), "--workers", "1"],
            cwd=h.ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        redis = Redis(port=redis_port, socket_connect_timeout=1)
        base = f"http://127.0.0.1:{port}"
        try:
            h.wait_for(lambda: up(base), "serve.py's API to answer", pause=0.2)
            yield Served(process, base, redis, log)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            redis.close()


def up(base: str) -> bool:
    """Whether the API answers /readyz with 200."""
    try:
        return httpx.get(f"{base}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def bot_match_ends(c: h.Client, seed: int) -> dict[str, Any]:
    """Play an all-bot match to its end; return its final read."""
    s = h.new_match(c, 3, seed, humans=0, bots=["random", "greedy", "random"])
    final: dict[str, Any] = h.wait_for(lambda: (m := h.state(c, s.match_id, None))["status"] == "OVER" and m,
                                       "a bot match to end", pause=0.2)
    return final


def test_serve_restarts_a_killed_worker_and_a_killed_redis_and_stops_on_sigterm(served: Served) -> None:
    c = h.Client(served.base)
    try:
        first = bot_match_ends(c, 901)
        (worker,) = h.wait_for(served.worker_pids, "the worker to register")
        old_redis = served.redis_pid()
        assert old_redis is not None

        os.kill(worker, signal.SIGKILL)
        replacement = h.wait_for(lambda: served.worker_pids() - {worker}, "a new worker after kill -9")
        bot_match_ends(c, 902)

        os.kill(old_redis, signal.SIGKILL)
        new_redis = h.wait_for(lambda: (pid := served.redis_pid()) not in (None, old_redis) and pid,
                               "the embedded Redis to be restarted")
        assert h.state(c, first["id"], None)["version"] == first["version"], "the data outlived the Redis kill"
        bot_match_ends(c, 903)
        assert served.worker_pids() == replacement, "the worker waited Redis out instead of exiting"
    finally:
        c.http.close()

    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=60) == 0
    assert not any(alive(pid) for pid in (*replacement, new_redis)), "serve.py left a child running"
    assert not up(served.base)
    text = served.log.read_text()
    assert f"worker 1 (pid {worker}) exited with status -9; restarting" in text, text
    assert "embedded Redis exited with status -9; restarting" in text, text


def test_serve_refuses_an_unknown_fsync_policy_before_starting_anything(tmp_path: Path) -> None:
    env = {k: v for k, v in h.service_env("").items() if k != "REDIS_URL"}
    env["FIREBREAK_APPENDFSYNC"] = "sometimes"
    done = subprocess.run([sys.executable, "scripts/serve.py", "--port", str(free_port()), "--data",
                           str(tmp_path / "redis")], cwd=h.ROOT, env=env, timeout=60, capture_output=True, text=True)
    assert done.returncode == 2
    assert "FIREBREAK_APPENDFSYNC must be one of everysec, always, not 'sometimes'" in done.stderr
    assert not (tmp_path / "redis").exists(), "nothing was started"
