"""Fixtures of the ratings' tests: a fresh database per test (a SQLite file, or the session's PostgreSQL emptied)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firebreak.archive.database import Database, metadata


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
