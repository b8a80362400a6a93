"""scripts/serve.py --api-workers 2: the API processes behind its one port share a metrics folder that serve.py
empties at the start (an earlier run's counts never leak in), so any of them answers /metrics with the sums."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from firebreak.matches.embedded import free_port
from tests.service import support as h
from tests.service.conftest import ROOT, service_env
from tests.service.test_metrics_processes import readyz, scrape

STALE = """from prometheus_client import Counter
Counter("firebreak_http_requests", "", ["method", "path", "status"]).labels("GET", "/readyz", "200").inc(1000)"""


def test_serve_shares_one_emptied_metrics_folder_between_its_api_processes(redis_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    folder.mkdir()
    env = {**service_env(redis_url), "FIREBREAK_QUEUE": "firebreak-serve-metrics",
           "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    # an earlier run's counter file, as a process of it would have left it
    subprocess.run([sys.executable, "-c", STALE], env=env, check=True, timeout=60)
    assert list(folder.glob("counter_*.db"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("wb") as log:
        process = subprocess.Popen([sys.executable, "scripts/serve.py", "--port", str(port), "--workers", "0",
                                    "--api-workers", "2"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            sent = 0

            def both_served() -> bool:
                nonlocal sent
                try:
                    # a fresh connection each time; waited for to the end: the port is bound before the API starts,
                    # so a request given up on while it started would still be answered (and counted) later
                    answer = httpx.get(f"{base}/readyz", timeout=60)
                except httpx.HTTPError:
                    return False
                sent += answer.status_code == 200
                return len(list(folder.glob("counter_*.db"))) == 2

            h.wait_for(both_served, "both API processes to have answered /readyz", pause=0.1)
            for _ in range(8):
                assert readyz(scrape(base)) == sent
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert process.returncode == 0
