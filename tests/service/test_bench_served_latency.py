"""bench/served_latency.py starts `firebreak serve` as users do and times keep-alive requests: it runs, each route
answers 200 (the bench stops otherwise) and it prints a p50 per tree and route. Nothing here is timed."""

from __future__ import annotations

import subprocess
import sys

from tests.service.conftest import ROOT


def test_the_bench_serves_and_reports_each_route() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.served_latency", "--rounds", "1", "--requests", "3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.split("`firebreak serve`:")[1]
    assert "/healthz" in summary and "/v1/titles" in summary and summary.count("p50") == 2
