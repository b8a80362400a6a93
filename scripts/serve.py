"""Run the service: the API on port 8000, RQ worker(s), and an embedded Redis when REDIS_URL is not set.

    .venv/bin/python scripts/serve.py [--port 8000] [--host 127.0.0.1] [--workers 1] [--api-workers 1]
                                      [--data var/redis] [--redis-port N] [--appendfsync everysec|always]

A child (the API, a worker) that dies is restarted after a pause that doubles from 0.5 s up to 30 s (back to
0.5 s once it has run for a minute); so is the embedded Redis, on the same port with the same data folder and
its append-only file. A child that exits with status 2 (it refused its settings and said why) stops everything.
Ctrl-C or SIGTERM stops everything.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.config import Settings  # noqa: E402
from matches.embedded import FSYNC_POLICIES, EmbeddedRedis, free_port  # noqa: E402

FIRST_PAUSE = 0.5     # seconds before the first restart of something that died
MAX_PAUSE = 30.0      # the pause doubles up to this
STEADY = 60.0         # seconds of running after which a death counts as the first again
BAD_SETTINGS = 2      # exit status of a child that refuses its settings: restarting cannot help


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

    def __init__(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.backoff = Backoff()
        self.process = self._spawn()

    def _spawn(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(self.argv, cwd=ROOT, env=self.env)

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


def main() -> int:
    """Start everything, tend it until Ctrl-C (or SIGTERM), stop everything."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1, help="RQ worker processes")
    parser.add_argument("--api-workers", type=int, default=1,
                        help="API processes behind the one port (uvicorn --workers); /metrics adds up all of them")
    parser.add_argument("--data", default=str(ROOT / "var" / "redis"), help="embedded Redis data folder")
    parser.add_argument("--redis-port", type=int, default=0, help="embedded Redis port (default: a free one)")
    parser.add_argument("--appendfsync", choices=FSYNC_POLICIES, default=None,
                        help="embedded Redis fsync policy (default: $FIREBREAK_APPENDFSYNC, else always)")
    args = parser.parse_args()
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        parser.exit(BAD_SETTINGS, f"serve: {exc}\n")
    env = dict(os.environ)
    redis = None
    if not env.get("REDIS_URL"):
        server = EmbeddedRedis(args.data, args.redis_port or free_port(), appendonly=True,
                               appendfsync=args.appendfsync or settings.appendfsync, prefer_bundled=True)
        env["REDIS_URL"] = server.start()
        redis = Redis(server)
        say(f"embedded Redis ({server.binary}) on {server.url}, data in {args.data}, "
            f"appendfsync {server.appendfsync}")
    metrics = metrics_folder(env)
    children = [Child(f"worker {n + 1}", [sys.executable, "-m", "workers.main"], env) for n in range(args.workers)]
    children.append(Child("api", [sys.executable, "-m", "uvicorn", "api.app:create_app", "--factory", "--host",
                                  args.host, "--port", str(args.port), "--no-access-log",
                                  "--workers", str(args.api_workers)], env))
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
        if redis is not None:
            redis.server.stop()
        if metrics is not None:
            shutil.rmtree(metrics, ignore_errors=True)
    return status


def metrics_folder(env: dict[str, str]) -> str | None:
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
