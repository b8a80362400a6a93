"""Firebreak against boardgame.io on tic-tac-toe: the service's own overhead per move beside a peer's (issue 15).

Starts boardgame.io's server (Node, in-memory storage, server.mjs) and a Firebreak service (a private Redis, the
API, one RQ worker: bench.api_load's LocalService, with FIREBREAK_TITLES registering tests/titles/tictactoe.py
and no per-client rate limit), then runs interleaved rounds: bgio, firebreak, bgio, firebreak... In each round
driver.mjs plays --matches concurrent matches for --seconds (after a --warmup) against one server: boardgame.io's
lobby REST API and its own client over socket.io, or Firebreak's REST /v1 (keep-alive fetch); the same driver,
the same concurrency, random legal moves to the end and a new match in the slot. Per round and as mean and
spread: moves/s, round-trip p50/p99, the servers' CPU per move (from /proc: bgio's node process; Firebreak's
API, Redis and worker) and the machine's busy share; then firebreak / bgio moves/s against the target (at least
1.2, issue 28; issue 15 asked 1.0). --api-processes 1 2 adds a Firebreak service with two API processes as a
further target in each round. --floor adds floor.py (a hand-written tic-tac-toe endpoint on Starlette and redis-py,
the same REST surface, one process, its own Redis, no worker) to each round: what the fixed shape costs by itself,
reported against boardgame.io and Firebreak against it.

Run: python -m bench.peer_bgio [--matches 50] [--seconds 15] [--warmup 2] [--rounds 3] [--api-processes 1 [2]]
     [--floor]
Needs node and npm (`npm ci` runs here first if node_modules is missing). Not run by the tests.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.harness import ROOT, BenchError, LocalService, cpu_seconds, interrupt, machine_cpu
from firebreak.matches.embedded import free_port

FOLDER = Path(__file__).resolve().parent
TITLES = "tests.titles.tictactoe:TITLE"
BGIO = "bgio"
FLOOR = "floor"
TARGET_RATIO = 1.2  # Firebreak's moves/s over boardgame.io's, at the same concurrency (issue 28)
START_SECONDS = 30.0


def ensure_node_modules() -> None:
    """Install the pinned Node packages (npm ci) unless they are there."""
    if (FOLDER / "node_modules" / "boardgame.io").is_dir():
        return
    print("npm ci (first run)...", file=sys.stderr)
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=FOLDER, capture_output=True, text=True)
    if done.returncode:
        raise BenchError(f"npm ci failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


class BgioServer:
    """boardgame.io's server (server.mjs) on a free loopback port, with NODE_ENV=production (no per-move log)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None

    @property
    def base(self) -> str:
        """The server's base URL (lobby API and socket.io)."""
        return f"http://127.0.0.1:{self.port}"

    def pids(self) -> dict[str, int]:
        """The node process, for CPU accounting."""
        return {"node": self.process.pid} if self.process else {}

    def start(self) -> None:
        """Start the server and wait for its "ready" line."""
        env = {**os.environ, "NODE_ENV": "production"}
        self.process = subprocess.Popen(["node", "server.mjs", str(self.port)], cwd=FOLDER, env=env, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()  # "ready", or the error that stopped it
        if line != "ready":
            rest = self.process.stdout.read() if self.process.poll() is not None else ""
            raise BenchError(f"boardgame.io's server did not start: {line}\n{rest[-2000:]}")
        self.process.stdout.close()  # nothing more is printed in production mode

    def stop(self) -> None:
        """Stop the server (safe to call twice)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


class FloorService(LocalService):
    """The floor (floor.py: a hand-written tic-tac-toe endpoint, one uvicorn process) on a private Redis."""

    def __init__(self) -> None:
        super().__init__(1)

    def start(self, timeout: float = 30.0) -> None:
        """Start Redis and the floor process; wait until it answers /healthz."""
        try:
            redis_url = self.start_redis()["REDIS_URL"]
        except RuntimeError as exc:
            raise BenchError(f"Redis did not start: {exc}") from None
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self._spawn(FLOOR, [sys.executable, "-m", "bench.peer_bgio.floor", "--port", str(self.port),
                            "--redis-url", redis_url], env)
        self.wait_ready("/healthz", FLOOR, timeout)


@dataclass(frozen=True)
class Server:
    """A started server the driver can load: its label, driver target, base URL and process ids by role."""

    label: str
    target: str
    base: str
    pids: dict[str, int]


@dataclass(frozen=True)
class Round:
    """What one driver run against one server measured."""

    label: str
    moves: int
    rate: float           # moves/s in the window
    p50_ms: float
    p99_ms: float
    cpu_ms: dict[str, float]  # server CPU ms per move, by role
    driver_ms: float      # the driver's own CPU ms per move (it shares the machine with the servers)
    busy: float | None    # the machine's busy share of its cores in the window (0-1)
    errors: int

    def line(self, width: int) -> str:
        """The round's figures on one line."""
        roles = ", ".join(f"{role} {ms:.2f}" for role, ms in self.cpu_ms.items())
        busy = "" if self.busy is None else f"  machine busy {self.busy:.0%}"
        errors = f"  ({self.errors} failed matches)" if self.errors else ""
        return (f"{self.label:<{width}}  {self.rate:7.1f} moves/s  p50 {self.p50_ms:6.1f} ms  p99 {self.p99_ms:6.1f} ms"
                f"  server CPU {sum(self.cpu_ms.values()):.2f} ms/move ({roles})"
                f"  driver CPU {self.driver_ms:.2f} ms/move{busy}{errors}")


def _cpu(pids: dict[str, int]) -> dict[str, float]:
    return {role: cpu_seconds(pid) or 0.0 for role, pid in pids.items()}


def drive(server: Server, args: argparse.Namespace) -> Round:
    """Run driver.mjs against the server; read the servers' CPU as its window opens and closes."""
    argv = ["node", "driver.mjs", "--target", server.target, "--url", server.base, "--matches", str(args.matches),
            "--seconds", str(args.seconds), "--warmup", str(args.warmup), "--seed", str(args.seed)]
    before: dict[str, float] = {}
    after: dict[str, float] = {}
    machine: list[tuple[float, float] | None] = []
    figures: dict[str, object] = {}
    with subprocess.Popen(argv, cwd=FOLDER, text=True, stdout=subprocess.PIPE) as driver:
        assert driver.stdout is not None
        pids = {**server.pids, "driver": driver.pid}
        for raw in driver.stdout:
            line = raw.strip()
            if line == "window open":
                before, machine = _cpu(pids), [machine_cpu()]
            elif line == "window closed":
                after = _cpu(pids)
                machine.append(machine_cpu())
            elif line.startswith("{"):
                figures = json.loads(line)
    if driver.returncode or not figures or not after:
        raise BenchError(f"the driver failed against {server.label} (status {driver.returncode})")
    moves = int(str(figures["moves"]))
    if not moves:
        raise BenchError(f"no move was completed against {server.label} in the window")
    busy = None
    if len(machine) == 2 and machine[0] is not None and machine[1] is not None:
        busy = (machine[1][0] - machine[0][0]) / (args.seconds * (os.cpu_count() or 1))
    return Round(server.label, moves, moves / args.seconds, float(str(figures["p50Ms"])),
                 float(str(figures["p99Ms"])),
                 {role: (after[role] - before[role]) * 1000 / moves for role in server.pids},
                 (after["driver"] - before["driver"]) * 1000 / moves, busy, int(str(figures["errors"])))


@contextlib.contextmanager
def servers(args: argparse.Namespace) -> Iterator[list[Server]]:
    """boardgame.io's server and one Firebreak service per --api-processes count, all stopped however it ends."""
    bgio = BgioServer()
    # LocalService hands its own environment to the API and worker it starts
    os.environ["FIREBREAK_TITLES"] = TITLES
    services = [LocalService(count) for count in args.api_processes]
    floor = FloorService() if args.floor else None
    try:
        bgio.start()
        started = [Server(BGIO, "bgio", bgio.base, bgio.pids())]
        if floor is not None:
            floor.start(START_SECONDS)
            started.append(Server(FLOOR, "firebreak", floor.base, floor.pids()))
        for count, service in zip(args.api_processes, services, strict=True):
            service.start(START_SECONDS)
            label = "firebreak" if count == 1 else f"firebreak {count} API processes"
            started.append(Server(label, "firebreak", service.base, service.pids()))
        yield started
    finally:
        bgio.stop()
        if floor is not None:
            floor.stop()
        for service in services:
            service.stop()


def _ratio(label: str, base: str, rates: dict[str, list[float]], target: bool) -> str:
    """label's moves/s over base's: of the means, and round by round (target: against TARGET_RATIO too)."""
    pairs = [f / b for f, b in zip(rates[label], rates[base], strict=True)]
    ratio = statistics.mean(rates[label]) / statistics.mean(rates[base])
    verdict = f"; target >= {TARGET_RATIO:.1f}: {'met' if ratio >= TARGET_RATIO else 'MISSED'}" if target else ""
    return (f"ratio {label} / {base} moves/s: {ratio:.2f} of the means (paired rounds "
            f"{', '.join(f'{p:.2f}' for p in pairs)}, by round){verdict}")


def summary(rounds: list[list[Round]], command: str) -> str:
    """Every round, each target's mean and spread, and Firebreak's moves/s over boardgame.io's."""
    width = max(len(r.label) for one in rounds for r in one)
    lines = []
    for n, one in enumerate(rounds, 1):
        lines += [f"round {n}  {r.line(width)}" for r in one]
    labels = [r.label for r in rounds[0]]
    rates = {label: [one[k].rate for one in rounds] for k, label in enumerate(labels)}
    for k, label in enumerate(labels):
        mine = [one[k] for one in rounds]
        cpu = statistics.mean(sum(r.cpu_ms.values()) for r in mine)
        lines.append(f"mean     {label:<{width}}  {statistics.mean(rates[label]):7.1f} moves/s "
                     f"(rounds {min(rates[label]):.1f}-{max(rates[label]):.1f})  "
                     f"p50 {statistics.mean(r.p50_ms for r in mine):6.1f} ms  "
                     f"p99 {statistics.mean(r.p99_ms for r in mine):6.1f} ms  server CPU {cpu:.2f} ms/move")
    for label in labels[1:]:
        # each round against the bgio round of the same round: a drifting machine load shifts both alike
        lines.append(_ratio(label, BGIO, rates, target=label != FLOOR))
    if FLOOR in labels:
        lines += [_ratio(label, FLOOR, rates, target=False) for label in labels[1:] if label != FLOOR]
    lines.append(f"command  {command}")
    return "\n".join(lines)


def main() -> int:
    """Parse the options, start the servers, run the interleaved rounds, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=50, help="concurrent matches, the same for both servers")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds per round and server")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of load before each window opens")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (each loads every server once, bgio first)")
    parser.add_argument("--api-processes", type=int, nargs="+", default=[1],
                        help="a Firebreak service per count of API processes (uvicorn --workers)")
    parser.add_argument("--floor", action="store_true",
                        help="add the floor (floor.py: a hand-written tic-tac-toe endpoint on Redis) to each round")
    parser.add_argument("--seed", type=int, default=1, help="seeds the driver's random moves")
    args = parser.parse_args()
    if args.matches < 1 or args.seconds <= 0 or args.warmup < 0 or args.rounds < 1 or min(args.api_processes) < 1:
        parser.error("--matches, --rounds and --api-processes must be >= 1, --seconds > 0, --warmup >= 0")
    command = shlex.join([Path(sys.executable).name, "-m", "bench.peer_bgio", *sys.argv[1:]])
    signal.signal(signal.SIGTERM, interrupt)
    rounds: list[list[Round]] = []
    try:
        ensure_node_modules()
        with servers(args) as started:
            for n in range(args.rounds):
                rounds.append([])
                for server in started:
                    rounds[-1].append(drive(server, args))
                    print(f"round {n + 1}: {rounds[-1][-1].line(len(server.label))}", file=sys.stderr)
                    time.sleep(1.0)  # let the last round's connections close before the next server is loaded
    except KeyboardInterrupt:
        print("interrupted; the servers the bench started are stopped", file=sys.stderr)
        return 130
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(summary(rounds, command))
    return 0
