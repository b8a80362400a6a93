"""A private PostgreSQL server for the tests, from the system's initdb and pg_ctl (as the tests start Redis): data in
a temporary folder the server's user can reach, on a free port, trust auth on localhost; run as the postgres user
(else nobody) when the tests run as root, since PostgreSQL refuses root. One per test session (tests/conftest.py's
postgres_url), shared by the archive's and the ratings' tests."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from firebreak.matches.embedded import free_port


def binary(name: str) -> str | None:
    """A PostgreSQL program: on the PATH, else in Debian's versioned folder (the newest)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def available() -> bool:
    """Whether initdb and pg_ctl are installed (scripts/bootstrap.sh --tests installs them)."""
    return binary("initdb") is not None and binary("pg_ctl") is not None


def _owner() -> str | None:
    """The user the server runs as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    return "postgres" if subprocess.run(["id", "postgres"], capture_output=True).returncode == 0 else "nobody"


@contextlib.contextmanager
def server(folder: Path) -> Iterator[str]:
    """Start a server with its data in `folder` (which it owns); yield its URL (database postgres); stop it after."""
    initdb, pg_ctl = binary("initdb"), binary("pg_ctl")
    assert initdb is not None and pg_ctl is not None, "PostgreSQL is not installed"
    owner = _owner()
    runs_as = [] if owner is None else ["runuser", "-u", owner, "--"]
    if owner is not None:
        shutil.chown(folder, owner)
    data, port = folder / "data", free_port()
    subprocess.run([*runs_as, initdb, "-D", str(data), "-U", "firebreak", "--auth=trust", "-E", "UTF8", "--no-sync"],
                   check=True, capture_output=True)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run([*runs_as, pg_ctl, "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start"],
                   check=True, capture_output=True)
    try:
        yield f"postgresql://firebreak@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*runs_as, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True)


def fresh_database(url: str, name: str) -> str:
    """A new empty database on the server of `url` (dropped first if a test left one of that name); its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"
