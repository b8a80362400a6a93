"""A private PostgreSQL server for tests, from the system's initdb and pg_ctl (as the tests start Redis): run as
the postgres user when the tests run as root (PostgreSQL refuses root), on a free port, trust auth on localhost."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from matches.embedded import free_port


def available() -> bool:
    """Whether initdb and pg_ctl are installed."""
    return shutil.which("initdb") is not None and shutil.which("pg_ctl") is not None


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@contextlib.contextmanager
def server(folder: Path) -> Iterator[str]:
    """Start a PostgreSQL server with its data in `folder`; yield its SQLAlchemy URL (database postgres); stop it
    after."""
    data = folder / "pgdata"
    data.mkdir(parents=True)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(data, "postgres")
    port = free_port()
    subprocess.run(_as_owner(["initdb", "-D", str(data), "-U", "firebreak", "--auth=trust", "-E", "UTF8"]),
                   check=True, capture_output=True)
    log = folder / "postgres.log"
    subprocess.run(_as_owner(["pg_ctl", "-D", str(data), "-l", str(log), "-w", "-o",
                              f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
                              " -c max_connections=200", "start"]), check=True, capture_output=True)
    try:
        yield f"postgresql://firebreak@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_owner(["pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop"]),
                       capture_output=True)
