"""The archive's database: one SQLAlchemy engine over SQLite (embedded, a file in the data folder: the default) or
PostgreSQL (FIREBREAK_DATABASE_URL), and the one MetaData every archive table is declared on.

SQLite is shared by the API and worker processes through one file in WAL mode: readers never wait for a writer,
and a writing transaction takes the write lock at its start (BEGIN IMMEDIATE), so two writers queue (up to
BUSY_SECONDS) instead of failing on a lock upgrade. PostgreSQL runs both kinds on one pooled engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import anyio.to_thread
from pydantic import field_validator
from sqlalchemy import Connection, Engine, MetaData, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from firebreak.matches.envsettings import EnvSettings, env

T = TypeVar("T")

BUSY_SECONDS = 30.0  # how long a SQLite writer waits for another's lock
metadata = MetaData()  # every archive table (archive/, ratings/) is declared on this


class DatabaseSettings(EnvSettings):
    """Where the archive lives: FIREBREAK_DATABASE_URL (any SQLAlchemy URL; postgresql:// uses psycopg), else a
    SQLite file in FIREBREAK_DATA_DIR (default: ./var)."""

    section: ClassVar[str] = "Archive: finished matches and ratings"

    url: str = env("FIREBREAK_DATABASE_URL", "",
                   "The archive's database, any SQLAlchemy URL (postgresql:// uses psycopg); empty: a SQLite file, "
                   "archive.sqlite3, in FIREBREAK_DATA_DIR.", secret=True)
    data_dir: str = env("FIREBREAK_DATA_DIR", "var",
                        "The folder of the archive's SQLite file (`firebreak serve` sets it to the folder above its "
                        "--data when unset), relative to the working directory.")

    @field_validator("url", "data_dir", mode="after")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @field_validator("url", mode="after")
    @classmethod
    def _parsable(cls, value: str) -> str:
        if value:
            try:
                make_url(value)
            except ArgumentError:
                raise ValueError("FIREBREAK_DATABASE_URL must be a SQLAlchemy database URL such as "
                                 "postgresql://user:password@host/database") from None
        return value

    @property
    def resolved_url(self) -> str:
        """The URL to connect to (the SQLite file's when none is set; a bare postgresql:// gets psycopg)."""
        if not self.url:
            return f"sqlite:///{Path(self.data_dir or 'var').resolve() / 'archive.sqlite3'}"
        url = make_url(self.url)
        if url.drivername in ("postgresql", "postgres"):
            url = url.set(drivername="postgresql+psycopg")
        return url.render_as_string(hide_password=False)


class Database:
    """The archive's engines: `writer` for transactions that write, `reader` for reads (one engine but on
    SQLite)."""

    def __init__(self, url: str) -> None:
        self.url = url
        parsed = make_url(url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        if self.sqlite:
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            self.writer = _sqlite_engine(url, immediate=True)
            self.reader = _sqlite_engine(url, immediate=False)
        else:
            self.writer = self.reader = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)

    @classmethod
    def from_settings(cls, settings: DatabaseSettings | None = None) -> Database:
        """The database the settings (default: the environment's) name, its tables created if missing."""
        db = cls((settings or DatabaseSettings.from_env()).resolved_url)
        db.create()
        return db

    def create(self) -> None:
        """Create the tables that do not exist yet (idempotent; safe from several processes at once)."""
        with self.writer.begin() as conn:
            metadata.create_all(conn, checkfirst=True)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A transaction that may write: committed at the end of the block, rolled back on an error."""
        with self.writer.begin() as conn:
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reads."""
        with self.reader.connect() as conn:
            yield conn

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """Run blocking database work in a thread (the API's event loop never waits on the database)."""
        return await anyio.to_thread.run_sync(lambda: work(*args))

    def close(self) -> None:
        """Close every pooled connection."""
        self.writer.dispose()
        if self.reader is not self.writer:
            self.reader.dispose()


def _sqlite_engine(url: str, immediate: bool) -> Engine:
    engine = create_engine(url, connect_args={"timeout": BUSY_SECONDS, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy's begin (below) opens the transactions
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine
