"""Health check of the workers on this host (docker compose runs it): python -m firebreak.workers.health.

Exits 0 when the queue Redis answers and a live RQ worker of this host is registered on the Firebreak queue; otherwise
prints why on stderr and exits 1.
"""

from __future__ import annotations

import socket
import sys

from rq import Queue, Worker

from firebreak.matches import connections
from firebreak.matches.config import Settings
from firebreak.matches.embedded import process_alive


def alive(pid: int | None) -> bool:
    """Whether a process with this id runs on this host (matches.embedded.process_alive; no id: no)."""
    return pid is not None and pid > 0 and process_alive(pid)


def problem(settings: Settings) -> str | None:
    """Why the workers of this host are not healthy, or None."""
    connection = connections.sync_client(settings.queue_url, socket_timeout=2)
    try:
        connection.ping()
        host = socket.gethostname()
        workers = Worker.all(connection=connection, queue=Queue(settings.queue, connection=connection))
        if not any(w.hostname == host and alive(w.pid) for w in workers):
            return f"no live worker of host {host} is registered on queue {settings.queue!r}"
    except connections.UNAVAILABLE as exc:
        return f"Redis unreachable ({type(exc).__name__})"
    finally:
        connection.close()
    return None


def main() -> int:
    """Print the problem, if any; return the exit status."""
    reason = problem(Settings.from_env())
    if reason is None:
        return 0
    print(f"workers.health: {reason}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
