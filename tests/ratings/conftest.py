"""Fixtures of the ratings' tests: a private PostgreSQL server for the session, and a fresh database (SQLite
file, or an emptied PostgreSQL) per test."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from archive.database import Database, metadata
from tests.ratings import postgres


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server of the session's own (its folder under the system's temporary folder: the postgres
    user must reach it, and pytest's folders are private to the user running the tests)."""
    if not postgres.available():
        pytest.skip("PostgreSQL (initdb, pg_ctl) is not installed")
    folder = Path(tempfile.mkdtemp(prefix="firebreak-pg-"))
    try:
        with postgres.server(folder) as url:
            yield url
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """The archive database, empty: a SQLite file, or the session's PostgreSQL with its tables dropped first."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'archive.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url").replace("postgresql://", "postgresql+psycopg://")
    database = Database(url)
    with database.write() as conn:
        metadata.drop_all(conn)
    database.create()
    yield database
    database.close()
