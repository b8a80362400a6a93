"""The connections the API accepts, as users start it (`firebreak serve`, `firebreak api`, `api --workers 2`), are TCP
connections with TCP_NODELAY set (issue 47): served through uvicorn's own `--fd`, each was an AF_UNIX socket to
asyncio, which then never set TCP_NODELAY, and every keep-alive answer waited about 40 ms for the client's delayed
ACK. Nothing here is timed: the test takes a copy of the API process's own end of a live keep-alive connection
(pidfd_getfd, Linux 5.6+) and reads its options, so it sees what the served process does, not an app built here."""

from __future__ import annotations

import ctypes
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from firebreak.apiserver import served_socket
from firebreak.matches.embedded import free_port
from tests.service import support as h
from tests.service.conftest import service_env
from tests.service.test_cli import running
from tests.service.test_serve import serve_env

PIDFD_GETFD = 438  # the same number on every Linux architecture (added in 5.6, after the tables were unified)


def descendants(pid: int) -> list[int]:
    """The process and every process under it (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def socket_inodes(pid: int) -> dict[int, int]:
    """The process's socket descriptors: inode -> descriptor number."""
    inodes: dict[int, int] = {}
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes[int(target[8:-1])] = int(fd.name)
    return inodes


def tcp_inode(local_port: int, remote_port: int) -> int | None:
    """The inode of the loopback TCP socket with this local and remote port (from /proc/net/tcp and tcp6)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], int(fields[9])
            if int(local.rsplit(":", 1)[1], 16) == local_port and int(remote.rsplit(":", 1)[1], 16) == remote_port:
                return inode
    return None


def copy_of(pid: int, fd: int) -> socket.socket:
    """A socket on a copy of another process's descriptor (pidfd_getfd); skips where the kernel refuses."""
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        got = libc.syscall(PIDFD_GETFD, pidfd, fd, 0)
        if got < 0:
            pytest.skip(f"pidfd_getfd refused: {os.strerror(ctypes.get_errno())}")
        return socket.socket(fileno=got)
    finally:
        os.close(pidfd)


def served_end(root: int, port: int, client: socket.socket) -> socket.socket:
    """The API's own end of the client's connection: a copy of the descriptor, from whichever process under `root`
    accepted it."""
    inode = tcp_inode(port, client.getsockname()[1])
    assert inode is not None, "the served end of the connection is not in /proc/net/tcp"
    for pid in descendants(root):
        try:
            fd = socket_inodes(pid).get(inode)
        except OSError:
            continue
        if fd is not None:
            return copy_of(pid, fd)
    raise AssertionError(f"no process under {root} holds the connection")


def keep_alive_request(client: socket.socket) -> bytes:
    """One GET /healthz on the open connection (kept alive); the answer's status line."""
    client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = client.recv(4096)
        assert chunk, "the API closed the connection"
        answer += chunk
    return answer.split(b"\r\n", 1)[0]


def check_connections(root: int, port: int, connections: int = 4) -> None:
    """Open keep-alive connections to the API and demand each served end be TCP with TCP_NODELAY on."""
    clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(connections)]
    try:
        for client in clients:
            assert keep_alive_request(client) == b"HTTP/1.1 200 OK"
            served = served_end(root, port, client)
            try:
                assert served.family == socket.AF_INET, served
                assert served.type == socket.SOCK_STREAM
                assert served.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1, "Nagle left on"
            finally:
                served.close()
    finally:
        for client in clients:
            client.close()


def test_firebreak_serve_sets_tcp_nodelay_on_every_connection(tmp_path: Path) -> None:
    port = free_port()
    args = ["serve", "--port", str(port), "--data", str(tmp_path / "redis"), "--workers", "1"]
    with running(args, serve_env(), tmp_path / "serve.log", f"http://127.0.0.1:{port}") as process:
        check_connections(process.pid, port)


@pytest.mark.parametrize("workers", [1, 2])
def test_firebreak_api_sets_tcp_nodelay_on_every_connection(redis_url: str, tmp_path: Path, workers: int) -> None:
    port = free_port()
    args = ["api", "--port", str(port), "--workers", str(workers)]
    with running(args, service_env(redis_url), tmp_path / "api.log", f"http://127.0.0.1:{port}") as process:
        check_connections(process.pid, port, connections=6)


@pytest.fixture
def listening() -> Iterator[socket.socket]:
    """A TCP socket bound and listening on a free loopback port."""
    sock = socket.create_server(("127.0.0.1", 0))
    yield sock
    sock.close()


def test_a_handed_over_descriptor_is_served_as_the_tcp_socket_it_is(listening: socket.socket) -> None:
    served = served_socket(listening.fileno())
    try:
        assert (served.family, served.type) == (socket.AF_INET, socket.SOCK_STREAM)
        assert served.getsockname() == listening.getsockname()
        assert served.fileno() != listening.fileno()  # a copy: closing one leaves the other
    finally:
        served.close()
    assert listening.getsockname()[1] > 0


def alive(pid: int) -> bool:
    """Whether a process runs with this pid (a zombie counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def test_the_server_processes_of_api_workers_die_with_it_even_after_kill_9(redis_url: str, tmp_path: Path) -> None:
    """Killed with kill -9, `firebreak api --workers 2` takes its server processes with it: they no longer serve the
    port (uvicorn's own processes were left running, orphaned, each serving the port)."""
    port = free_port()
    args = ["api", "--port", str(port), "--workers", "2"]
    with running(args, service_env(redis_url), tmp_path / "api.log", f"http://127.0.0.1:{port}") as process:
        servers = h.wait_for(lambda: [pid for pid in descendants(process.pid)[1:]
                                      if "multiprocessing.spawn" in Path(f"/proc/{pid}/cmdline").read_text()] or None,
                             "the two server processes", deadline=30)
        assert len(servers) == 2, servers
        process.kill()
        process.wait()
        h.wait_for(lambda: not any(alive(pid) for pid in servers), "the server processes to exit", deadline=30)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
