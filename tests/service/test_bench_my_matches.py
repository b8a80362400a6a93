"""bench/my_matches.py runs against the real app and prints its figures (no figure is judged: tests never assert
on time). It broke silently once when a field it selects was renamed; this run catches that."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_my_matches_bench_runs_and_prints_its_ratios() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.my_matches", "--matches", "30", "--requests", "2",
                           "--rounds", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "page-1000 / match" in done.stdout and "page-1000-10 / page-10" in done.stdout, done.stdout
