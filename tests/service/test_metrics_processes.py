"""/metrics with several real API processes sharing PROMETHEUS_MULTIPROC_DIR (issue 27 section 4): any process's
scrape adds up every process's counters (a killed one's stay), the subscriber gauges count the open subscriptions
of the processes alive (a killed one's drop out), uvicorn --workers behind one port answers the same sums whichever
worker is asked; and the gauges read from Redis: matches by status and the RQ queue's depth."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from firebreak.matches.embedded import free_port
from tests.service import support as h
from tests.service.conftest import ROOT, Client, service_env
from tests.service.players_support import guest

PROTOCOL = Subprotocol("graphql-transport-ws")
QUEUE = "firebreak-metrics"  # no worker serves it: the jobs the API enqueues stay queued


@contextlib.contextmanager
def api(redis_url: str, log: Path, folder: Path | None,
        workers: int = 1) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """uvicorn on a free port (workers: its --workers), sharing the metrics folder; yields its URL and process."""
    port = free_port()
    env = {**service_env(redis_url), "FIREBREAK_QUEUE": QUEUE}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    if folder is not None:
        env["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "firebreak.api.app:create_app", "--factory", "--host",
                                 "127.0.0.1", "--port", str(port), "--no-access-log", "--workers", str(workers)],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            h.wait_for(lambda: proc.poll() is not None or _healthy(base), f"the API on {base} (see {log})")
            assert proc.poll() is None, log.read_text()
            yield base, proc
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=0.5).status_code == 200
    except httpx.HTTPError:
        return False


def scrape(base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """/metrics as {(sample name, sorted labels): value}."""
    text = httpx.get(f"{base}/metrics", timeout=10).text
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    """One sample's value (0 when absent)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def readyz(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> float:
    """The GET /readyz requests counted (200s)."""
    return value(samples, "firebreak_http_requests_total", method="GET", path="/readyz", status="200")


def subscribers(base: str, stream: str) -> float:
    """The open subscriptions to a stream /metrics counts."""
    return value(scrape(base), "firebreak_subscribers", stream=stream)


async def watch(base: str, match_id: str) -> ClientConnection:
    """Subscribe to a match's events as a spectator over graphql-transport-ws; the open socket."""
    ws = await connect(f"ws://{urlparse(base).netloc}/graphql", subprotocols=[PROTOCOL], open_timeout=10)
    await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "connection_ack"
    await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
        "query": "subscription($id: ID!) { matchEvents(matchId: $id) { version } }", "variables": {"id": match_id}}}))
    return ws


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An empty metrics folder."""
    path = tmp_path / "metrics"
    path.mkdir()
    return path


def test_two_api_processes_add_up_their_counters_and_gauges(redis_url: str, tmp_path: Path, folder: Path) -> None:
    with api(redis_url, tmp_path / "a.log", folder) as (first, _), \
            api(redis_url, tmp_path / "b.log", folder) as (second, doomed):
        for _ in range(7):
            assert httpx.get(f"{first}/readyz", timeout=10).status_code == 200
        for _ in range(5):
            assert httpx.get(f"{second}/readyz", timeout=10).status_code == 200
        for base in (first, second):  # either process answers for both
            samples = scrape(base)
            assert readyz(samples) == 12
            assert value(samples, "firebreak_http_request_seconds_count", path="/readyz") == 12
        created = httpx.post(f"{first}/v1/matches", json={"title": "greatfire", "seats": 2}, timeout=10).json()
        client = Client(second)
        try:
            signed = guest(client)
        finally:
            client.http.close()

        async def body() -> None:
            sockets = [await watch(first, created["matchId"]), await watch(second, created["matchId"]),
                       await watch(second, created["matchId"])]
            try:
                async with httpx.AsyncClient(timeout=30) as http, http.stream(
                        "GET", f"{second}/v1/me/events", headers={"authorization": f"Bearer {signed.access}",
                                                                   "accept": "text/event-stream"}) as stream:
                    assert stream.status_code == 200
                    await asyncio.to_thread(h.wait_for, lambda: subscribers(first, "match") == 3 and
                                            subscribers(first, "player") == 1, "3 match and 1 player subscribers")
                    assert subscribers(second, "match") == 3
                    os.kill(doomed.pid, signal.SIGKILL)  # the second process dies with 2 + 1 subscriptions open
                    doomed.wait()
                    samples = scrape(first)
                    assert value(samples, "firebreak_subscribers", stream="match") == 1
                    assert value(samples, "firebreak_subscribers", stream="player") == 0
                    assert readyz(samples) == 12  # a dead process's counts stay: a counter never goes back
            finally:
                for ws in sockets:
                    with contextlib.suppress(Exception):
                        await ws.close()

        asyncio.run(body())
        h.wait_for(lambda: subscribers(first, "match") == 0, "the last subscription to end")


def test_uvicorn_workers_behind_one_port_answer_the_same_sums(redis_url: str, tmp_path: Path, folder: Path) -> None:
    with api(redis_url, tmp_path / "api.log", folder, workers=2) as (base, _):
        sent = 0

        def both_served() -> bool:
            nonlocal sent
            assert httpx.get(f"{base}/readyz", timeout=10).status_code == 200  # a fresh connection each time
            sent += 1
            return len(list(folder.glob("counter_*.db"))) == 2  # a worker's counter file: it counted a request

        h.wait_for(both_served, "both workers to have answered /readyz")
        pids = {int(path.stem.rsplit("_", 1)[1]) for path in folder.glob("counter_*.db")}
        assert len(pids) == 2
        for _ in range(8):  # fresh connections, spread over the workers: each answers for both
            assert readyz(scrape(base)) == sent


def test_one_process_alone_keeps_its_counters_in_memory(redis_url: str, tmp_path: Path) -> None:
    with api(redis_url, tmp_path / "api.log", None) as (base, _):
        for _ in range(3):
            httpx.get(f"{base}/readyz", timeout=10)
        assert readyz(scrape(base)) == 3


def test_a_missing_metrics_folder_stops_the_start_with_its_name(redis_url: str, tmp_path: Path) -> None:
    env = {**service_env(redis_url), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "absent")}
    started = subprocess.run([sys.executable, "-m", "uvicorn", "firebreak.api.app:create_app", "--factory",
                              "--port", "0"],
                             cwd=ROOT, env=env, capture_output=True, timeout=60)
    assert started.returncode != 0
    assert b"PROMETHEUS_MULTIPROC_DIR must name an existing folder" in started.stderr


def test_matches_by_status_and_the_queue_depth(redis_url: str, tmp_path: Path) -> None:
    with api(redis_url, tmp_path / "api.log", None) as (base, _):
        before = scrape(base)
        created = httpx.post(f"{base}/v1/matches", json={"title": "greatfire", "seats": 2, "seed": 3},
                             timeout=10).json()
        waiting = scrape(base)
        assert value(waiting, "firebreak_matches", status="waiting") == \
            value(before, "firebreak_matches", status="waiting") + 1
        bots = f"{base}/v1/matches/{created['matchId']}/bots"
        for level in ("random", "greedy"):  # every seat a bot's: the match starts, its first decision is a job
            added = httpx.post(bots, json={"level": level}, timeout=10,
                               headers={"authorization": f"Bearer {created['hostToken']}"})
            assert added.status_code == 201, added.text
        after = scrape(base)
        assert value(after, "firebreak_matches", status="waiting") == value(before, "firebreak_matches",
                                                                            status="waiting")
        assert value(after, "firebreak_matches", status="active") == \
            value(before, "firebreak_matches", status="active") + 1
        assert value(after, "firebreak_jobs_queued") == value(before, "firebreak_jobs_queued") + 1
        assert value(after, "firebreak_jobs_running") == 0  # no worker serves this queue


def test_the_gauges_read_from_redis_are_counted_once_whichever_process_answers(redis_url: str, tmp_path: Path,
                                                                               folder: Path) -> None:
    """Live matches and the queue's depth are read from Redis at scrape time by the process asked (never kept in
    the shared folder), so two processes answer the same figures and neither adds the other's."""
    with api(redis_url, tmp_path / "a.log", folder) as (first, _), \
            api(redis_url, tmp_path / "b.log", folder) as (second, _):
        before = scrape(first)
        created = httpx.post(f"{second}/v1/matches", json={"title": "greatfire", "seats": 2, "seed": 5},
                             timeout=10).json()
        for level in ("random", "greedy"):  # every seat a bot's: the match is live, its first decision a job
            added = httpx.post(f"{second}/v1/matches/{created['matchId']}/bots", json={"level": level}, timeout=10,
                               headers={"authorization": f"Bearer {created['hostToken']}"})
            assert added.status_code == 201, added.text
        answers = [scrape(first), scrape(second)]
        for samples in answers:
            assert value(samples, "firebreak_matches", status="active") == \
                value(before, "firebreak_matches", status="active") + 1
            assert value(samples, "firebreak_jobs_queued") == value(before, "firebreak_jobs_queued") + 1
        assert list(folder.glob("gauge_*")) == [] or all("live" in p.name for p in folder.glob("gauge_*")), \
            "only the subscribers' live gauges are kept per process"
