"""Run the service: the API on port 8000, RQ worker(s), and an embedded Redis when REDIS_URL is not set.

    firebreak serve [--port 8000] [--host 127.0.0.1] [--workers 1] [--api-workers 1]
                    [--data var/redis] [--redis-port N] [--appendfsync everysec|always]

(scripts/serve.py and scripts/run.sh run the same from a checkout.) At start, before anything runs: every setting is
read and checked (one message names every bad variable; exit status 2); the embedded Redis's data folder is locked
(an OS lock on its firebreak.lock, held by this process and its children, dropped by the OS when they are gone, even
after kill -9), so a second run on the same folder stops at once, naming the folder and the pid that holds it; the
API's port is bound here (and handed to each API process, so a restart never loses it), so a taken port stops the
start with a message naming it; so does a taken --redis-port. Each of these exits with status 1. The data folder is
relative to the working directory; the archive's SQLite file goes in FIREBREAK_DATA_DIR, by default the folder that
holds the Redis data folder (var/).

A child (the API, a worker) that dies is restarted after a pause that doubles from 0.5 s up to 30 s (back to
0.5 s once it has run for a minute); so is the embedded Redis, on the same port with the same data folder and
its append-only file. A child that exits with status 2 (it refused its settings and said why) stops everything.
Ctrl-C or SIGTERM stops everything; on Linux the children get SIGTERM if this process is killed.
"""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import MutableMapping
from pathlib import Path

from firebreak.matches.config import Settings
from firebreak.matches.embedded import (
    FSYNC_POLICIES,
    EmbeddedRedis,
    FolderBusy,
    FolderLock,
    bound_socket,
    die_with_parent,
    free_port,
    port_taken,
)
from firebreak.matches.envsettings import SettingsError, read_all
from firebreak.settings_reference import ALL_SETTINGS  # every model: the API's and the workers' settings

FIRST_PAUSE = 0.5     # seconds before the first restart of something that died
MAX_PAUSE = 30.0      # the pause doubles up to this
STEADY = 60.0         # seconds of running after which a death counts as the first again
BAD_SETTINGS = 2      # exit status of a child that refuses its settings: restarting cannot help
IN_USE = 1            # exit status when a port or the data folder is taken at start
BACKLOG = 2048        # the API socket's listen backlog (uvicorn's default)


def say(message: str) -> None:
    """One line on stdout, with the time."""
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} serve: {message}", flush=True)


class Backoff:
    """When something that died may be started again."""

    def __init__(self) -> None:
        self.pause = FIRST_PAUSE
        self.started = time.monotonic()
        self.due: float | None = None

    def died(self) -> float:
        """Note a death; return the pause before the restart."""
        now = time.monotonic()
        if now - self.started >= STEADY:
            self.pause = FIRST_PAUSE
        pause = self.pause
        self.due = now + pause
        self.pause = min(self.pause * 2, MAX_PAUSE)
        return pause

    def ready(self) -> bool:
        """Whether the pause after a death is over (then the restart is counted as a start)."""
        if self.due is None or time.monotonic() < self.due:
            return False
        self.due = None
        self.started = time.monotonic()
        return True


class Child:
    """A supervised child process."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], keep: tuple[int, ...] = ()) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.keep = keep  # file descriptors the child inherits (the API socket, the data folder's lock)
        self.backoff = Backoff()
        self.process = self._spawn()

    def _spawn(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(self.argv, env=self.env, pass_fds=self.keep, preexec_fn=die_with_parent())

    def tend(self) -> int | None:
        """Restart the child if it died and its pause is over; return its exit status when it just died."""
        if self.backoff.due is not None:
            if self.backoff.ready():
                say(f"restarting {self.name}")
                self.process = self._spawn()
            return None
        code = self.process.poll()
        if code is None:
            return None
        pause = self.backoff.died()
        say(f"{self.name} (pid {self.process.pid}) exited with status {code}; restarting in {pause:.1f} s")
        return code

    def stop(self) -> None:
        """Ask the child to stop (SIGTERM)."""
        if self.process.poll() is None:
            self.process.terminate()

    def wait(self) -> None:
        """Wait for the child to stop; kill it after 10 s."""
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Redis:
    """The embedded Redis, restarted (same port, same data, append-only file on) when it dies."""

    def __init__(self, server: EmbeddedRedis) -> None:
        self.server = server
        self.backoff = Backoff()

    def tend(self) -> None:
        """Restart the server if it died and its pause is over."""
        if self.backoff.due is None:
            if not self.server.running():
                code = self.server.process.poll() if self.server.process else None
                say(f"embedded Redis exited with status {code}; restarting in {self.backoff.died():.1f} s")
            return
        if not self.backoff.ready():
            return
        try:
            self.server.start()
            say(f"embedded Redis restarted on {self.server.url}")
        except RuntimeError as exc:
            say(f"embedded Redis did not restart ({exc}); trying again in {self.backoff.died():.1f} s")


def refuse(message: str, who: str = "serve") -> int:
    """Say why the service cannot start (stderr) and return the exit status for it."""
    print(f"{who}: {message}", file=sys.stderr, flush=True)
    return IN_USE


def listen(host: str, port: int) -> socket.socket:
    """The API's listening socket, bound and listening here (each API process is handed it)."""
    sock = bound_socket(host, port)
    sock.listen(BACKLOG)
    return sock


def unbindable(host: str, port: int, exc: OSError) -> str:
    """Why the API's port could not be bound, in words naming it."""
    if exc.errno == errno.EADDRINUSE:
        return (f"the API's port {port} on {host} is taken (another process listens on it): stop that process, "
                "or choose another port with --port")
    return f"cannot bind the API to {host}:{port}: {exc.strerror or exc}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `firebreak serve` (and scripts/serve.py)."""
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1, help="RQ worker processes")
    parser.add_argument("--api-workers", type=int, default=1,
                        help="API processes behind the one port (uvicorn --workers); /metrics adds up all of them")
    parser.add_argument("--data", default=str(Path("var") / "redis"),
                        help="embedded Redis data folder (default: var/redis in the working directory; locked while "
                             "it runs; the archive goes in the one above unless FIREBREAK_DATA_DIR is set)")
    parser.add_argument("--redis-port", type=int, default=0, help="embedded Redis port (default: a free one)")
    parser.add_argument("--appendfsync", choices=FSYNC_POLICIES, default=None,
                        help="embedded Redis fsync policy (default: $FIREBREAK_APPENDFSYNC, else always)")


def main(argv: list[str] | None = None) -> int:
    """Start everything, tend it until Ctrl-C (or SIGTERM), stop everything."""
    parser = argparse.ArgumentParser(prog="serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """Start everything the parsed options say, tend it until Ctrl-C (or SIGTERM), stop everything."""
    try:
        settings = read_all(ALL_SETTINGS)[Settings]
    except SettingsError as exc:
        print(f"serve: {exc}", file=sys.stderr, flush=True)
        return BAD_SETTINGS
    env = dict(os.environ)
    data = Path(args.data).resolve()
    if not env.get("FIREBREAK_DATA_DIR", "").strip():
        env["FIREBREAK_DATA_DIR"] = str(data.parent)  # the archive's SQLite file, next to the Redis data
    lock: FolderLock | None = None
    api_socket: socket.socket | None = None
    redis: Redis | None = None
    try:
        if not env.get("REDIS_URL"):
            try:
                lock = FolderLock(data).acquire(notice=say)
            except FolderBusy as exc:
                return refuse(str(exc))
        try:
            api_socket = listen(args.host, args.port)
        except OSError as exc:
            return refuse(unbindable(args.host, args.port, exc))
        if lock is not None:
            if args.redis_port and port_taken(args.redis_port):
                return refuse(f"the embedded Redis's port {args.redis_port} is taken (another process listens on "
                              "it): stop it, or choose another with --redis-port (or leave it out for a free one)")
            server = EmbeddedRedis(data, args.redis_port or free_port(), appendonly=True,
                                   appendfsync=args.appendfsync or settings.appendfsync, prefer_bundled=True,
                                   lock=lock, supervised=True)
            try:
                env["REDIS_URL"] = server.start()
            except RuntimeError as exc:
                taken = " (its port is taken)" if port_taken(server.port) else ""
                return refuse(f"the embedded Redis on port {server.port} did not start{taken}: {exc}")
            redis = Redis(server)
            say(f"embedded Redis ({server.binary}) on {server.url}, data in {data} (locked), "
                f"appendfsync {server.appendfsync}")
        metrics = metrics_folder(env)
        try:
            return supervise(args, env, api_socket, lock, redis)
        finally:
            if metrics is not None:
                shutil.rmtree(metrics, ignore_errors=True)
    finally:
        if redis is not None:
            redis.server.stop()
        if api_socket is not None:
            api_socket.close()
        if lock is not None:
            lock.release()


def supervise(args: argparse.Namespace, env: dict[str, str], api_socket: socket.socket, lock: FolderLock | None,
              redis: Redis | None) -> int:
    """Run the workers and the API (on the socket bound here) and tend them and the Redis until stopped."""
    held = (lock.fd,) if lock is not None and lock.fd is not None else ()
    children = [Child(f"worker {n + 1}", [sys.executable, "-m", "firebreak.workers.main", "--supervisor",
                                          str(os.getpid())], env, held)
                for n in range(args.workers)]
    # not uvicorn's own --fd, which serves a TCP socket as AF_UNIX, without TCP_NODELAY (firebreak/apiserver.py)
    children.append(Child("api", [sys.executable, "-m", "firebreak.apiserver", "--fd", str(api_socket.fileno()),
                                  "--workers", str(args.api_workers)],
                          env,
                          (api_socket.fileno(), *held)))
    say(f"Firebreak on http://{args.host}:{args.port}/graphql (GraphiQL in a browser); Ctrl-C stops")
    stopping: list[str] = []

    def stop(signum: int, _: object) -> None:
        stopping.append(signal.Signals(signum).name)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    status = 0
    try:
        while not stopping:
            if redis is not None:
                redis.tend()
            for child in children:
                if child.tend() == BAD_SETTINGS:
                    say(f"{child.name} refused its settings (status {BAD_SETTINGS}); stopping everything")
                    stopping.append("bad settings")
                    status = 1
            time.sleep(0.2)
    finally:
        for child in children:
            child.stop()
        for child in children:
            child.wait()
    return status


def metrics_folder(env: MutableMapping[str, str]) -> str | None:
    """Give the API processes one metrics folder (prometheus-client's multiprocess mode), so that /metrics adds
    up every process's counters and an API restarted after a crash keeps counting on: PROMETHEUS_MULTIPROC_DIR as
    set (its old files removed), else a fresh folder made here and removed at the end (returned)."""
    given = env.get("PROMETHEUS_MULTIPROC_DIR")
    if given:
        Path(given).mkdir(parents=True, exist_ok=True)
        for old in Path(given).glob("*.db"):
            old.unlink()
        return None
    made = tempfile.mkdtemp(prefix="firebreak-metrics-")
    env["PROMETHEUS_MULTIPROC_DIR"] = made
    return made


if __name__ == "__main__":
    sys.exit(main())
