"""A real local HTTP server standing in for the operator's push service: good, failing (500), slow, hanging and
holding endpoints by path, recording every request it gets."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from tests.service.http_peer import QuietHandler, http_peer

SLOW_SECONDS = 0.5


@dataclass(frozen=True)
class Received:
    """One request as the receiver got it."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """The server's base URL, what it got, and the switches of its holding path."""

    base: str = ""
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    held: threading.Event = field(default_factory=threading.Event)      # set when /hold got its first request
    release: threading.Event = field(default_factory=threading.Event)   # set to let it answer
    stopping: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        """The URL of one of its paths (/good/<name>, /fail, /slow, /hang, /hold)."""
        return f"{self.base}{path}"

    def at(self, path: str) -> list[Received]:
        """The requests one path got, in order."""
        with self.lock:
            return [r for r in self.received if r.path == path]


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(QuietHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            with receiver.lock:
                first_hold = self.path == "/hold" and not any(r.path == "/hold" for r in receiver.received)
                receiver.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            if self.path == "/fail":
                self._answer(500)
            elif self.path == "/slow":
                time.sleep(SLOW_SECONDS)
                self._answer(200)
            elif self.path == "/hang":
                receiver.stopping.wait(120)
                self._answer(200)
            elif self.path == "/hold" and first_hold:
                receiver.held.set()
                receiver.release.wait(120)
                self._answer(200)
            else:
                self._answer(200)

        def _answer(self, status: int) -> None:
            with contextlib.suppress(OSError):  # the sender may have given up (timeout) or died
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

    return Handler


@contextlib.contextmanager
def receiver() -> Iterator[Receiver]:
    """A receiver on a free local port, stopped after the block."""
    state = Receiver()

    def release() -> None:
        state.stopping.set()
        state.release.set()

    with http_peer(_handler(state), release) as base:
        state.base = base
        yield state
