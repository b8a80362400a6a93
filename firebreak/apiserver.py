"""Serve the API (uvicorn) on a listening socket bound by `firebreak serve` or `firebreak api`.

    python -m firebreak.apiserver --fd N [--workers 1]

Both commands bind the API's port themselves, so that a taken port stops the start with a message naming it, and
hand the bound socket to uvicorn. uvicorn's own `--fd` wraps a descriptor as an AF_UNIX socket whatever it is, and
asyncio sets TCP_NODELAY only on connections accepted from a socket it knows to be TCP: every answer (headers and body
written apart) then waited for the client's delayed ACK, about 40 ms a request on a keep-alive connection. Here the
descriptor becomes a socket of its real family (`socket.socket(fileno=...)` asks the kernel), so each accepted
connection gets TCP_NODELAY as under `uvicorn --port`; with --workers N the same socket goes to each process, and
each process dies with the one that started it (even after a kill -9 of that one).
"""

from __future__ import annotations

import argparse
import os
import socket
import sys

import uvicorn
from uvicorn.supervisors import multiprocess

from firebreak.matches.embedded import die_with_parent

APP = "firebreak.api.app:create_app"


def served_socket(fd: int) -> socket.socket:
    """A socket object of the descriptor's real family and type (AF_INET, AF_INET6 or AF_UNIX), on a copy of it."""
    return socket.socket(fileno=os.dup(fd))


class _ServerProcess(multiprocess.Process):
    """One of uvicorn's server processes (--workers N) that dies with the process supervising it: killed with
    kill -9, `firebreak api --workers N` would otherwise leave its server processes serving the port, orphaned."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]) -> None:
        self.supervisor = os.getpid()  # made in the supervisor; the object travels to the child with its target
        super().__init__(config, sockets)

    def target(self, sockets: list[socket.socket] | None = None) -> None:
        """Arm the parent-death signal, then serve as uvicorn's process does."""
        arm = die_with_parent(parent=self.supervisor)
        if arm is not None:
            arm()
        super().target(sockets)


def run(sock: socket.socket, workers: int = 1) -> None:
    """Serve the API on the listening socket until stopped (SIGTERM, Ctrl-C); workers > 1: that many processes."""
    config = uvicorn.Config(APP, factory=True, workers=workers, access_log=False)
    if workers > 1:
        multiprocess.Process = _ServerProcess  # type: ignore[misc]  # what Multiprocess starts (this process only)
        multiprocess.Multiprocess(config, sockets=[sock]).run()  # each process serves a copy of the socket
    else:
        uvicorn.Server(config).run(sockets=[sock])


def main(argv: list[str] | None = None) -> int:
    """Serve the API on the listening socket whose descriptor --fd names."""
    parser = argparse.ArgumentParser(prog="python -m firebreak.apiserver", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fd", type=int, required=True, help="a bound, listening socket's file descriptor")
    parser.add_argument("--workers", type=int, default=1, help="API processes sharing the socket")
    args = parser.parse_args(argv)
    run(served_socket(args.fd), args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
