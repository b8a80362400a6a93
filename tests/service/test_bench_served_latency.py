"""bench/served_latency.py starts `firebreak serve` as users do and times keep-alive requests: it runs, each route
answers 200 (the bench stops otherwise) and it prints a p50 and the API's CPU per request per tree and route, and
with --root another tree's CPU against this one's. Nothing here is timed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.service.conftest import ROOT


def test_the_bench_serves_and_reports_each_route() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.served_latency", "--rounds", "1", "--requests", "3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.split("`firebreak serve`:")[1]
    assert "/healthz" in summary and "/v1/titles" in summary and summary.count("p50") == 2
    assert len(re.findall(r"the API \d+ µs CPU per request \(\d+-\d+\)", summary)) == 2, summary


def test_another_tree_is_served_interleaved_and_compared(tmp_path: Path) -> None:
    """--root: this commit's tree, unpacked elsewhere, served in the same round; its CPU per request against ours."""
    other = tmp_path / "other"
    other.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(other)], input=archive, check=True)
    done = subprocess.run([sys.executable, "-m", "bench.served_latency", "--rounds", "2", "--requests", "300",
                           "--paths", "/healthz", "--root", str(other)],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    order = re.findall(r"round (\d) (\S+) +/healthz", done.stdout)
    assert order == [("1", ROOT.name), ("1", "other"), ("2", "other"), ("2", ROOT.name)], done.stdout
    assert re.search(rf"other / {re.escape(ROOT.name)} /healthz +the API's CPU per request \d+\.\d+ "
                     r"\(\d+\.\d+-\d+\.\d+\), [+-]\d+\.\d µs", done.stdout), done.stdout
