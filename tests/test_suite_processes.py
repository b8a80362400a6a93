"""The suite in several processes (scripts/test.sh: pytest-xdist): each process has an archive folder of its own
unless one is set, and the quick subset leaves out the tests that start the service (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import MADE_HERE

ROOT = Path(__file__).resolve().parents[1]
REPORT = '''import os
from pathlib import Path


def test_report() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "-")
    Path(os.environ["REPORTS"], worker + "-" + __name__).write_text(os.environ["FIREBREAK_DATA_DIR"])
'''


def run_two_processes(tmp_path: Path, **env: str) -> dict[str, str]:
    """A pytest run in two processes over two files that each report their FIREBREAK_DATA_DIR, under
    tests/conftest.py; the folder each reported, by worker and file."""
    suite, reports = tmp_path / "suite", tmp_path / "reports"
    suite.mkdir()
    reports.mkdir()
    (suite / "conftest.py").write_text('pytest_plugins = ["tests.conftest"]\n')
    for name in ("test_one.py", "test_two.py"):
        (suite / name).write_text(REPORT)
    base = {k: v for k, v in os.environ.items() if k not in ("FIREBREAK_DATA_DIR", MADE_HERE)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadfile", "-p",
                           "no:cacheprovider", "--rootdir", str(suite), str(suite)],
                          env={**base, "PYTHONPATH": str(ROOT), "REPORTS": str(reports), **env}, cwd=suite,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return {path.name: path.read_text() for path in reports.iterdir()}


def test_each_test_process_makes_an_archive_folder_of_its_own(tmp_path: Path) -> None:
    reported = run_two_processes(tmp_path)
    workers = {name.split("-")[0] for name in reported}
    assert workers == {"gw0", "gw1"}, reported  # one file each: the two processes really ran
    assert len(set(reported.values())) == 2, reported
    assert not any(Path(folder).exists() for folder in reported.values()), "each is removed when its process ends"


def test_a_folder_set_from_outside_is_every_process_s(tmp_path: Path) -> None:
    reported = run_two_processes(tmp_path, FIREBREAK_DATA_DIR=str(tmp_path / "mine"))
    assert len(reported) == 2 and set(reported.values()) == {str(tmp_path / "mine")}, reported


def test_the_quick_subset_leaves_out_the_tests_that_start_the_service() -> None:
    files = ["tests/service/test_smoke.py", "tests/web/test_serving.py", "tests/test_rng.py"]
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "not service", *files],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    selected = [line for line in done.stdout.splitlines() if "::" in line]
    assert selected and all(line.startswith("tests/test_rng.py::") for line in selected), done.stdout
    assert "deselected" in done.stdout, done.stdout
