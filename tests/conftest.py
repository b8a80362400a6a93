"""Options every test directory may read."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

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
