"""Options every test directory may read."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import postgres

TESTS = Path(__file__).parent

# The archive's SQLite file (archive/database.py) of every service this session starts, in process or not, goes to a
# folder of the session's own, never into the checkout (a test wanting its own database sets FIREBREAK_DATA_DIR or
# FIREBREAK_DATABASE_URL itself). Each pytest-xdist worker is a session of its own: it inherits the folder the
# controlling process made (marked by MADE_HERE) and makes its own instead, so two workers never share an archive.
MADE_HERE = "FIREBREAK_TEST_DATA_DIR"
if os.environ.get("FIREBREAK_DATA_DIR", "") in ("", os.environ.get(MADE_HERE)):
    _DATA = tempfile.mkdtemp(prefix="firebreak-test-data-")
    os.environ["FIREBREAK_DATA_DIR"] = os.environ[MADE_HERE] = _DATA
    atexit.register(shutil.rmtree, _DATA, True)


SERVICE_FOLDERS = ("service", "web")  # tests/service and tests/web start the API, workers, a browser...


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of tests/service and tests/web `service`: `-m "not service"` is the quick subset (the rules,
    the bots, the players' and ratings' stores), which runs in about a sixth of the suite's time."""
    for item in items:
        if any(item.path.is_relative_to(TESTS / folder) for folder in SERVICE_FOLDERS):
            item.add_marker(pytest.mark.service)


def pytest_addoption(parser: pytest.Parser) -> None:
    """--conformance-seeds: seeded playouts per title and seat count in tests/conformance (default 2)."""
    parser.addoption("--conformance-seeds", type=int, default=None,
                     help="seeded random playouts per title and seat count in tests/conformance "
                          "(default: $FIREBREAK_CONFORMANCE_SEEDS, else 2)")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The session's private PostgreSQL server (tests/postgres.py), started at its first use; its URL."""
    if not postgres.available():
        pytest.skip("PostgreSQL's initdb/pg_ctl are not installed (scripts/bootstrap.sh --tests installs them)")
    folder = Path(tempfile.mkdtemp(prefix="firebreak-pg-"))  # not pytest's: the server's user must reach it
    try:
        with postgres.server(folder) as url:
            yield url
    finally:
        shutil.rmtree(folder, ignore_errors=True)
