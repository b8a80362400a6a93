"""bench/act_path.py runs every path (floors too) on both titles and prints each round's CPU and collector figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("title", ["greatfire", "london"])
def test_the_bench_plays_every_path(title: str) -> None:
    done = subprocess.run([sys.executable, "-m", "bench.act_path", "--acts", "5", "--rounds", "1", "--title", title,
                           "--gc-young", "900"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    for path in ("pipeline", "graphql", "rest", "rest-minimal", "floor", "rules"):
        assert re.search(rf"round 1 {path} +\d+ µs CPU per act, the app \d+; collector: \d+ per 1000 acts, "
                         r".*\(threshold 900\)", done.stdout), done.stdout
        assert re.search(rf"  {path} +\d+ µs \(\d+-\d+\), the app \d+ µs \(\d+-\d+\)", done.stdout), done.stdout


def test_the_bench_compares_subscribed_seats_with_none_on_the_served_service() -> None:
    """--push-subscribed (issue 48): the API as `firebreak api` starts it, a worker and a loopback push service; the
    subscribed table's acts make pushes that reach the push service, the other table's none, rounds interleaved,
    and a ratio per process."""
    done = subprocess.run([sys.executable, "-m", "bench.act_path", "--push-subscribed", "--acts", "30", "--rounds",
                           "2", "--paths", "rest", "--settle", "0.2"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    rows = re.findall(r"round (\d) rest +(none|push) +the API +-?\d+ µs CPU per act, the worker -?\d+ µs, Redis -?\d+ "
                      r"µs; (\d+\.\d\d) pushes per act", done.stdout)
    assert [(r[0], r[1]) for r in rows] == [("1", "none"), ("1", "push"), ("2", "push"), ("2", "none")], done.stdout
    assert all(float(pushes) == 0 for _, mode, pushes in rows if mode == "none"), done.stdout
    assert sum(float(pushes) for _, mode, pushes in rows if mode == "push") > 0, done.stdout
    assert re.search(r"push/none, mean \(min-max\) over 2 rounds of 30 acts .*:\n  rest +api (n/a|[\d.]+ \([\d.]+-"
                     r"[\d.]+\)), worker .*, redis .*, all .*; the worker -?\d+ µs per push", done.stdout), done.stdout
