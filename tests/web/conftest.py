"""Browser tests: the service fixtures (a redis-server, RQ workers, the API in uvicorn) and a headless Chromium.

The browser is Debian's chromium (installed by scripts/bootstrap.sh), driven by the playwright package with
the system binary: Playwright never downloads a browser here. Each launch gets a fresh temporary profile
(Playwright passes its own --user-data-dir, removed at close), and each test opens its own contexts.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service.conftest import client, redis_url, server, workers

__all__ = ["browser", "client", "redis_url", "screenshots", "server", "workers"]

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("FIREBREAK_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _unavailable(reason: str) -> None:
    """Skip, saying why; in CI (CI=true), where scripts/bootstrap.sh installs the browser, fail instead."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} (in CI the browser must be there)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (the system binary); the tests skip, saying why, only when it cannot be had.

    Module-scoped: Playwright's sync API runs an event loop in this thread while it is open, which would
    break the asyncio.run() of tests collected after these ones."""
    if not CHROMIUM.exists():
        _unavailable(f"no Chromium at {CHROMIUM}: scripts/bootstrap.sh installs Debian's chromium package")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is missing: pip install -e '.[dev]' (scripts/bootstrap.sh does)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where screenshots go: $FIREBREAK_SCREENSHOTS, else tests/web/screenshots/ (git-ignored)."""
    folder = Path(os.environ.get("FIREBREAK_SCREENSHOTS", ROOT / "tests" / "web" / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
