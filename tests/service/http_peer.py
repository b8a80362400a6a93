"""The threaded local HTTP server the tests' peers run on (the webhook receiver, the push service, the FCM peer)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from firebreak.matches.embedded import free_port


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def http_peer(handler: type[BaseHTTPRequestHandler], on_stop: Callable[[], None] | None = None) -> Iterator[str]:
    """A server on a free local port answering with handler, a thread per request; yields its base URL. After the
    block, on_stop is called (to release the requests still held), then the server is stopped."""
    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        if on_stop is not None:
            on_stop()
        server.shutdown()
        server.server_close()
