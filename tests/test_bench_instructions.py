"""bench/instructions.py: callgrind counts the instructions of the blocks a bench counts, by label, and only those."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench import instructions

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("valgrind") is None or not Path("/usr/include/valgrind/callgrind.h").exists(),
                    reason="valgrind and its headers are not installed (scripts/bootstrap.sh --tests installs them)")
def test_counts_follow_the_work_counted_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    totals = instructions.under_callgrind(["tests.instruction_loop", "20000"])
    assert set(totals) == {"once", "twice", "nested"}
    # twice the loop, twice the instructions; the uncounted calls and the start-up are in no label
    assert 1.9 < totals["twice"] / totals["once"] < 2.1, totals
    assert 1.9 < totals["nested"] / totals["once"] < 2.1, totals
    assert totals["once"] > 20000 * 10, totals  # each of the loop's iterations runs tens of instructions


def test_the_dumps_are_read_by_label(tmp_path: Path) -> None:
    (tmp_path / "cg.out.1").write_text("version: 1\ndesc: Trigger: Client Request: rest\nsummary: 1200\n")
    (tmp_path / "cg.out.2").write_text("version: 1\ndesc: Trigger: Client Request: rest\ntotals: 300\n")
    (tmp_path / "cg.out.3").write_text("version: 1\ndesc: Trigger: Program termination\nsummary: 5\n")
    assert instructions.read_dumps(tmp_path) == {"rest": 1500}


def test_outside_callgrind_the_counter_says_how_to_run() -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    with pytest.raises(instructions.InstructionsError, match="under_callgrind"):
        instructions.Counter()
