"""bench/state_writes.py plays its matches to the version asked, writes them as the service stores them, and
prints each way's time a write for each title."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import orjson

from bench import state_writes
from firebreak.domain import titles
from firebreak.matches.pipeline import saved

ROOT = Path(__file__).resolve().parents[1]


def test_the_matches_are_played_to_the_version_and_written_as_stored() -> None:
    for title in ("greatfire", "london"):
        matches = state_writes.played(title, 2, 30, seed=3)
        assert [match.version for match in matches] == [30, 30]
        assert saved(matches[0]) != saved(matches[1]), "two seeds, two matches"
        again = titles.get(title).match_from_dict(orjson.loads(saved(matches[0])))
        assert again.version == 30 and saved(again) == saved(matches[0])


def test_the_evictor_writes_every_line_of_its_memory() -> None:
    touch = state_writes.evictor(1)
    (other,) = [cell.cell_contents for cell in touch.__closure__ or () if isinstance(cell.cell_contents, bytearray)]
    for mark in (1, 0):
        touch()
        assert set(other[::state_writes.LINE]) == {mark}


def test_the_bench_prints_each_way_for_each_title() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.state_writes", "--matches", "3", "--version", "20",
                           "--rounds", "2", "--writes", "8", "--evict-mb", "1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    for title in ("greatfire", "london"):
        assert re.search(rf"^{title}: 3 matches at version 20, the state [\d,]+ bytes of JSON$", done.stdout,
                         re.MULTILINE), done.stdout
    for way in ("one match, warm", "3 matches in turn", "after touching 1 MiB"):
        assert len(re.findall(rf"^  {way} +\d+\.\d µs a write \(median of 2 rounds, [\d.]+-[\d.]+\)$", done.stdout,
                              re.MULTILINE)) == 2, done.stdout
