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
