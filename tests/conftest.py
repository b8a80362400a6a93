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

# The archive's SQLite file (archive/database.py) of every service this session starts, in process or not, goes to a
# folder of the session's own, never into the checkout (a test wanting its own database sets FIREBREAK_DATA_DIR or
# FIREBREAK_DATABASE_URL itself).
if "FIREBREAK_DATA_DIR" not in os.environ:
    _DATA = tempfile.mkdtemp(prefix="firebreak-test-data-")
    os.environ["FIREBREAK_DATA_DIR"] = _DATA
    atexit.register(shutil.rmtree, _DATA, True)


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
