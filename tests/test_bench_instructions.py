"""bench/instructions.py: callgrind counts the instructions of the blocks a bench counts, by label, and only those."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
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


def _ask(port: int, n: int) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=120) as conn:
        conn.sendall(str(n).encode())
        conn.shutdown(socket.SHUT_WR)
        return int(conn.recv(64))


@pytest.mark.service
@pytest.mark.skipif(shutil.which("callgrind_control") is None, reason="valgrind is not installed")
def test_a_served_process_is_counted_from_outside_between_zero_and_dump(tmp_path: Path) -> None:
    """Served counts a whole process that waits in accept() between requests: twice the work, twice the count; no
    request, next to nothing."""
    out = tmp_path / "cg.out"
    with subprocess.Popen([*instructions.callgrind_command(out), sys.executable, "-m", "tests.served_loop"],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as server:
        try:
            _count(server, out)
        finally:
            server.kill()


def _count(server: subprocess.Popen[str], out: Path) -> None:
    assert server.stdout is not None
    port = int(server.stdout.readline())
    served = instructions.Served(server.pid, out)
    _ask(port, 10)  # the first request's imports and caches stay out of the counts
    served.zero()
    assert _ask(port, 20000) == sum(range(20000))
    once = served.dump("once")
    _ask(port, 20000)
    _ask(port, 20000)
    twice = served.dump("twice")
    idle = served.dump("idle")
    assert once > 20000 * 10, once
    assert 1.8 < twice / once < 2.2, (once, twice)
    assert idle < once / 20, (idle, once)


@pytest.mark.service
@pytest.mark.skipif(shutil.which("callgrind_control") is None, reason="valgrind is not installed")
def test_the_served_act_count_plays_each_target_and_gives_its_ratio_to_the_floor() -> None:
    """api_load --floor --instructions (bench/act_count.py): the API and the floor served under callgrind, a few acts
    counted each, a count per act of the size an act has (a million instructions or so), and the ratio."""
    done = subprocess.run([sys.executable, "-m", "bench.api_load", "--floor", "--instructions", "--matches", "2",
                           "--rounds", "1", "--acts", "6", "--warmup-acts", "2", "--targets", "floor,rest-minimal"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) == 7 and parts[0] == "1":
            rows[parts[1]] = (int(parts[2]), float(parts[3].replace(",", "")), float(parts[4].replace(",", "")))
    assert set(rows) == {"floor", "rest-minimal"}, done.stdout
    for target, (accepted, per_act, busy) in rows.items():
        assert accepted >= 6, (target, accepted)
        assert 300_000 < busy <= per_act < 20_000_000, (target, per_act, busy)
    assert rows["rest-minimal"][1] > rows["floor"][1], rows  # the service does more than the floor
    assert "rest-minimal 1." in done.stdout.split("ratios to the floor")[1], done.stdout
