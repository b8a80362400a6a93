"""Options every test directory may read."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    """--conformance-seeds: seeded playouts per title and seat count in tests/conformance (default 2)."""
    parser.addoption("--conformance-seeds", type=int, default=None,
                     help="seeded random playouts per title and seat count in tests/conformance "
                          "(default: $FIREBREAK_CONFORMANCE_SEEDS, else 2)")
