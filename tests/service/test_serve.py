"""scripts/serve.py as a real process: a killed worker and a killed embedded Redis are restarted (the Redis on
the same port, with its data), the service goes on playing, and SIGTERM stops everything. A taken API or Redis
port stops the start at once, naming the port; a second run on the same data folder refuses, naming the folder and
the first one's pid; after a kill -9 of the first (its children go with it) a restart on the folder succeeds."""

from __future__ import annotations

import contextlib
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

from firebreak.matches.embedded import LOCK_FILE, FolderLock, bound_socket, free_port, port_taken
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


def serve_env() -> dict[str, str]:
    """serve.py's environment: no REDIS_URL (so it embeds a Redis), no FIREBREAK_DATA_DIR (so it chooses)."""
    env = {k: v for k, v in h.service_env("").items() if k not in ("REDIS_URL", "FIREBREAK_DATA_DIR")}
    env["FIREBREAK_QUEUE"] = QUEUE
    return env


def launch(port: int, redis_port: int, data: Path, log: Path) -> subprocess.Popen[bytes]:
    """serve.py on these ports and data folder, its output into a log file."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "scripts/serve.py", "--port", str(port), "--redis-port", str(redis_port),
             "--data", str(data), "--workers", "1"],
            cwd=h.ROOT, env=serve_env(), stdout=out, stderr=subprocess.STDOUT)


def refused(*options: str) -> subprocess.CompletedProcess[str]:
    """Run serve.py with these options, expecting it to stop by itself (a refusal) within a minute."""
    return subprocess.run([sys.executable, "scripts/serve.py", "--workers", "1", *options], cwd=h.ROOT,
                          env=serve_env(), timeout=60, capture_output=True, text=True)


@contextlib.contextmanager
def serving(port: int, redis_port: int, data: Path, log: Path) -> Iterator[Served]:
    """serve.py running until the block ends (then killed if still running)."""
    process = launch(port, redis_port, data, log)
    redis = Redis(port=redis_port, socket_connect_timeout=1)
    base = f"http://127.0.0.1:{port}"
    try:
        # its line "Firebreak on" comes once it holds the port (so no API of an earlier run answers for it)
        h.wait_for(lambda: "Firebreak on" in log.read_text() or process.poll() is not None, "serve.py to start",
                   pause=0.1)
        h.wait_for(lambda: up(base) or process.poll() is not None, "serve.py's API to answer", pause=0.2)
        assert process.poll() is None, log.read_text()
        yield Served(process, base, redis, log)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        redis.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(free_port(), free_port(), tmp_path / "redis", tmp_path / "serve.log") as service:
        yield service


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


def test_serve_stops_at_once_naming_a_taken_api_port_and_starts_nothing(tmp_path: Path) -> None:
    port, redis_port = free_port(), free_port()
    with bound_socket("127.0.0.1", port) as holder:
        holder.listen()
        done = refused("--port", str(port), "--redis-port", str(redis_port), "--data", str(tmp_path / "redis"))
    assert done.returncode == 1, done
    assert f"serve: the API's port {port} on 127.0.0.1 is taken" in done.stderr, done.stderr
    assert "restarting" not in done.stdout + done.stderr
    assert not port_taken(redis_port), "no embedded Redis was started"
    FolderLock(tmp_path / "redis").acquire(leftovers=0).release()  # and the folder is free again


def test_serve_stops_at_once_naming_a_taken_redis_port(tmp_path: Path) -> None:
    port, redis_port = free_port(), free_port()
    with bound_socket("127.0.0.1", redis_port) as holder:
        holder.listen()
        done = refused("--port", str(port), "--redis-port", str(redis_port), "--data", str(tmp_path / "redis"))
    assert done.returncode == 1, done
    assert f"serve: the embedded Redis's port {redis_port} is taken" in done.stderr, done.stderr
    assert not port_taken(port), "the API's port was let go"
    assert not (tmp_path / "redis" / "appendonlydir").exists(), "no Redis ran on the folder"


def test_a_second_run_on_one_data_folder_refuses_naming_it_and_the_holder(served: Served, tmp_path: Path) -> None:
    data = tmp_path / "redis"
    redis_pid = served.redis_pid()
    done = refused("--port", str(free_port()), "--redis-port", str(free_port()), "--data", str(data))
    assert done.returncode == 1, done
    assert (f"serve: the data folder {data.resolve()} is in use by another Firebreak (pid {served.process.pid})"
            in done.stderr), done.stderr
    assert up(served.base) and served.redis_pid() == redis_pid, "the first run goes on, its Redis untouched"
    assert (data / LOCK_FILE).read_text().strip() == str(served.process.pid)


def test_after_a_kill_9_of_the_run_command_a_restart_on_its_folder_succeeds(tmp_path: Path) -> None:
    """kill -9 serve.py itself, and start it again on the same folder and ports straight away: its children (API,
    worker, Redis) go with it, the OS drops the folder's lock once they are gone (the new run waits for that, not
    for a timeout), and the new run serves what the first one stored; the archive's SQLite file sits next to the
    Redis data."""
    port, redis_port, data = free_port(), free_port(), tmp_path / "redis"
    with serving(port, redis_port, data, tmp_path / "first.log") as first:
        c = h.Client(first.base)
        try:
            finished = bot_match_ends(c, 911)
        finally:
            c.http.close()
        (worker,) = h.wait_for(first.worker_pids, "the worker to register")
        children = {worker, first.redis_pid() or 0}
        first.process.kill()
        first.process.wait()
    with serving(port, redis_port, data, tmp_path / "second.log") as second:
        assert not any(alive(pid) for pid in children), "the killed run's children followed it"
        c = h.Client(second.base)
        try:
            assert h.state(c, finished["id"], None)["version"] == finished["version"], "the data outlived the kill"
            bot_match_ends(c, 912)
        finally:
            c.http.close()
        assert (data / LOCK_FILE).read_text().strip() == str(second.process.pid)
    assert (tmp_path / "archive.sqlite3").exists(), "the archive is kept next to the Redis data"


PARENT = """
import os, subprocess, sys
child = subprocess.Popen([sys.executable, "-m", "firebreak.workers.main", "--supervisor", str(os.getpid())],
                         env=dict(os.environ), stdout=open(sys.argv[1], "ab"), stderr=subprocess.STDOUT)
print(child.pid, flush=True)
child.wait()
"""


def test_a_worker_whose_supervisor_died_exits_even_while_redis_is_away(tmp_path: Path) -> None:
    """A worker started by a supervisor (firebreak serve passes --supervisor) exits once the supervisor is gone,
    even when Redis is away and its loops wait on it: a worker left over would keep the data folder locked (a
    clean-clone run once saw one still retrying Redis a minute after serve.py was killed). No SIGTERM comes here
    (the parent sets no PR_SET_PDEATHSIG): the watch alone ends it."""
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "FIREBREAK_DATA_DIR": str(tmp_path)}
    env.pop("QUEUE_REDIS_URL", None)
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path / "worker.log")], env=env,
                              stdout=subprocess.PIPE)
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    h.wait_for(lambda: (tmp_path / "worker.log").exists() and (tmp_path / "worker.log").stat().st_size > 0,
               "the worker to start")
    parent.kill()
    parent.wait()
    parent.stdout.close()

    def gone() -> bool:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return True
        with contextlib.suppress(ChildProcessError):
            os.waitpid(worker, os.WNOHANG)  # (reaped by init: not our child)
        return False

    h.wait_for(gone, "the orphaned worker to exit", deadline=30)
    assert "the worker exits" in (tmp_path / "worker.log").read_text()
