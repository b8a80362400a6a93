"""What the service benches share: the service under test (a private Redis, the API as `firebreak api` starts it
and a worker, on loopback), the GraphQL documents they send, HTTP clients, CPU accounting and the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import IO, Any
from urllib.parse import urlsplit

import httpx

from bench.layouts import ClusterRedises
from firebreak.matches.embedded import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parent.parent
QUEUE = "firebreak-bench"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
DRAIN_SECONDS = 15.0         # how long in-flight requests may take to finish after the window
AOF_FOLDER = ROOT / "var" / "bench"  # append-only files go to the project's disk, where var/redis lives
# Every request comes from this one address, at 300+ acts/s: the per-client mutation limit (200/s by default)
# would refuse the load it measures, so the bench's own service runs without it (per-token limits stay on).
# Against --url, give that service FIREBREAK_RATE_CLIENT_PER_SECOND=0 (or enough) yourself.
BENCH_SETTINGS = {"FIREBREAK_RATE_CLIENT_PER_SECOND": "0"}

CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) {
  __typename ... on MatchCreated { matchId } ... on Problem { code message } } }"""
JOIN = """mutation($input: JoinMatchInput!) { joinMatch(input: $input) {
  __typename ... on SeatJoined { seat token } ... on Problem { code message } } }"""
READ = """query($id: ID!) { match(id: $id) { status version toAct you legalActions } }"""
ACT = """mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { version events } ... on StaleVersion { currentVersion } ... on Problem { code } } }"""


class BenchError(RuntimeError):
    """The bench cannot go on (the service would not start, or answered what it must not)."""


# ---------------------------------------------------------------------------------------------------------
# The service under test


def loopback(url: str, what: str) -> str:
    """The URL without a trailing slash; BenchError unless it names a loopback host."""
    host = urlsplit(url).hostname
    if host not in LOOPBACK:
        raise BenchError(f"{what} must be a loopback address (127.0.0.1, localhost, ::1), not {host!r}")
    return url.rstrip("/")


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


class LocalService:
    """A private redis-server, the API under uvicorn and one RQ worker, all on loopback, in a temp folder.

    appendfsync None: the system redis-server without an append-only file; else the embedded one with it on."""

    def __init__(self, api_processes: int, appendfsync: str | None = None, api_prefix: tuple[str, ...] = (),
                 settings: dict[str, str] | None = None) -> None:
        self.api_processes = api_processes
        self.settings = settings or {}  # more settings for the API and the worker (environment variables)
        self.api_prefix = api_prefix  # before the API's command line (callgrind's, to count its instructions)
        if appendfsync is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="firebreak-bench-")
            self.redis = EmbeddedRedis(Path(self.tmp.name) / "redis", appendonly=False, prefer_bundled=False)
        else:
            AOF_FOLDER.mkdir(parents=True, exist_ok=True)
            self.tmp = tempfile.TemporaryDirectory(prefix="firebreak-bench-", dir=AOF_FOLDER)
            self.redis = EmbeddedRedis(Path(self.tmp.name) / "redis", appendonly=True, appendfsync=appendfsync,
                                       prefer_bundled=True)
        self.folder = Path(self.tmp.name)
        self.port = free_port()
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: list[IO[bytes]] = []

    @property
    def base(self) -> str:
        """The API's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def pids(self) -> dict[str, int]:
        """Process ids by role (redis, api, worker), for CPU accounting."""
        out = {name: child.pid for name, child in self.children.items()}
        if self.redis.process is not None:
            out["redis"] = self.redis.process.pid
        return out

    def _spawn(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        log = (self.folder / f"{name}.log").open("wb")
        self.logs.append(log)
        # A session of their own: a Ctrl-C in the terminal reaches the bench, which stops them in order.
        self.children[name] = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                               start_new_session=True)

    @property
    def redis_url(self) -> str:
        """REDIS_URL of the service (the matches Redis)."""
        return self.redis.url

    @property
    def queue_redis_url(self) -> str | None:
        """QUEUE_REDIS_URL of the service (None: REDIS_URL's)."""
        return None

    def start_redis(self) -> dict[str, str]:
        """Start the Redis servers; return the settings that name them."""
        return {"REDIS_URL": self.redis.start()}

    def start(self, timeout: float = 30.0) -> None:
        """Start everything and wait until the API is ready (its /readyz reaches Redis)."""
        try:
            redis_env = self.start_redis()
        except RuntimeError as exc:
            raise BenchError(f"Redis did not start: {exc}") from None
        env = dict(os.environ)
        env.update({**redis_env, "FIREBREAK_QUEUE": QUEUE, "PYTHONPATH": str(ROOT)})
        env.update({**BENCH_SETTINGS, **self.settings})
        self._spawn("worker", [sys.executable, "-m", "firebreak.workers.main"], env)
        self._spawn("api", [*self.api_prefix, *api_command(self.port, self.api_processes)], env)
        self.wait_ready("/readyz", "api", timeout)

    def wait_ready(self, path: str, name: str, timeout: float) -> None:
        """Wait until GET path answers 200 on the port (the process named name serves it); BenchError when a
        child exits or the time runs out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for child_name, child in self.children.items():
                if child.poll() is not None:
                    raise BenchError(f"the {child_name} process exited at start:\n"
                                     f"{_tail(self.folder / f'{child_name}.log')}")
            try:
                if httpx.get(f"{self.base}{path}", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise BenchError(f"the {name} was not ready in {timeout:.0f} s:\n{_tail(self.folder / f'{name}.log')}")

    def stop_redis(self) -> None:
        """Stop the Redis servers."""
        self.redis.stop()

    def stop(self) -> None:
        """Stop the children and Redis, and remove the temp folder (safe to call twice)."""
        for child in self.children.values():
            if child.poll() is None:
                child.terminate()
        for child in self.children.values():
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=5)
        self.children.clear()
        self.stop_redis()
        for log in self.logs:
            log.close()
        self.logs.clear()
        self.tmp.cleanup()


class ClusterService(LocalService):
    """LocalService with match state on a 3-master Redis Cluster and RQ on a plain queue Redis."""

    def __init__(self, api_processes: int) -> None:
        super().__init__(api_processes)
        self.redises = ClusterRedises(self.folder)

    @property
    def redis_url(self) -> str:
        """REDIS_URL: the cluster's first node."""
        return self.redises.cluster.url

    @property
    def queue_redis_url(self) -> str | None:
        """QUEUE_REDIS_URL: the plain queue Redis."""
        return self.redises.queue.url

    def start_redis(self) -> dict[str, str]:
        """Start the cluster and the queue Redis."""
        return self.redises.start()

    def stop_redis(self) -> None:
        """Stop the cluster and the queue Redis."""
        self.redises.stop()

    def pids(self) -> dict[str, int]:
        """Process ids by role: the API, the worker, each cluster node, the queue Redis."""
        return {**{name: child.pid for name, child in self.children.items()}, **self.redises.pids()}


@contextlib.contextmanager
def local_service(api_processes: int, appendfsync: str | None = None, layout: str = "single",
                  api_prefix: tuple[str, ...] = (), timeout: float = 30.0,
                  settings: dict[str, str] | None = None) -> Iterator[LocalService]:
    """A started LocalService (layout "cluster": a ClusterService) that is stopped however the block ends (settings:
    more environment variables for the API and the worker, the single layout only)."""
    service = (ClusterService(api_processes) if layout == "cluster"
               else LocalService(api_processes, appendfsync, api_prefix, settings))
    try:
        service.start(timeout)
        yield service
    finally:
        service.stop()


def machine_cpu() -> tuple[float, float] | None:
    """CPU seconds the whole machine spent busy and stolen by the hypervisor, summed over cores (Linux)."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU seconds of a process and its descendants (Linux /proc; None elsewhere)."""
    split = cpu_split(pid)
    return None if split is None else split[0] + split[1]


def pin(pid: int, cores: set[int]) -> None:
    """Keep every thread of a process on these cores (Linux; threads it starts later inherit the setting)."""
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(int(task), cores)


SCHEDULING = ("voluntary switches", "involuntary switches", "read calls", "write calls", "minor faults")


def scheduling(pid: int) -> dict[str, int] | None:
    """What the kernel did for one process (every thread of it, not its children), counted since it started:
    context switches it asked for (waiting) and ones forced on it (preempted), read-like and write-like system calls,
    minor page faults; and its threads now ("threads"). The switches are summed over the threads alive now (a thread
    that ended takes its own with it). Linux /proc; None elsewhere or once it is gone."""
    try:
        counts = dict.fromkeys(SCHEDULING, 0)
        tasks = os.listdir(f"/proc/{pid}/task")
        for task in tasks:
            try:
                status = Path(f"/proc/{pid}/task/{task}/status").read_text()
            except OSError:
                continue  # a thread that ended meanwhile
            for line in status.splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    counts["voluntary switches"] += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches:"):
                    counts["involuntary switches"] += int(line.split()[1])
        io = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
        counts["read calls"], counts["write calls"] = int(io["syscr"]), int(io["syscw"])
        stat = Path(f"/proc/{pid}/stat").read_text()
        counts["minor faults"] = int(stat[stat.rindex(")") + 2:].split()[7])
        counts["threads"] = len(tasks)
    except (OSError, ValueError, KeyError):
        return None
    return counts


def cpu_split(pid: int) -> tuple[float, float] | None:
    """User and system (the kernel's, on the process's behalf) CPU seconds of a process and its descendants (Linux
    /proc; None elsewhere)."""
    try:
        tick = os.sysconf("SC_CLK_TCK")
        stats: dict[int, tuple[int, float, float]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2:].split()
            stats[int(entry)] = (int(fields[1]), int(fields[11]) / tick, int(fields[12]) / tick)
    except (OSError, ValueError):
        return None
    family, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, _, _) in stats.items():
            if ppid == parent and child not in family:
                family.add(child)
                frontier.append(child)
    if pid not in stats:
        return None
    return sum(stats[p][1] for p in family if p in stats), sum(stats[p][2] for p in family if p in stats)




async def http_clients(stack: contextlib.AsyncExitStack, base: str, matches: int,
                       pool: str) -> list[httpx.AsyncClient]:
    """The bench's HTTP clients for that many concurrent matches: one per match (two connections each), or one
    shared by all ("shared"); closed with the stack."""
    count, size = (1, matches + 10) if pool == "shared" else (matches, 2)
    limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
    return [await stack.enter_async_context(httpx.AsyncClient(base_url=base, limits=limits, timeout=30.0))
            for _ in range(count)]



def event_loop() -> asyncio.Runner:
    """An event loop for the client side: uvloop's when installed (uvicorn[standard] brings it), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.Runner()
    return asyncio.Runner(loop_factory=uvloop.new_event_loop)


def interrupt(signum: int, _frame: FrameType | None) -> None:
    """A signal handler that stops a bench as Ctrl-C does (its started services are stopped)."""
    raise KeyboardInterrupt(f"signal {signum}")




async def graphql(client: httpx.AsyncClient, query: str, variables: dict[str, Any],
                  token: str | None = None) -> dict[str, Any]:
    """POST a GraphQL request that must succeed; its data."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    response = await client.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    if response.status_code != 200:
        raise BenchError(f"GraphQL answered HTTP {response.status_code}: {response.text[:200]}")
    body = response.json()
    if body.get("errors"):
        raise BenchError(f"GraphQL errors: {body['errors']}")
    data: dict[str, Any] = body["data"]
    return data


def api_command(port: int, processes: int = 1) -> list[str]:
    """The API as users start it (`firebreak api`: the port bound first, then served by uvicorn on that socket, in
    `processes` processes), on loopback: what every bench that reports a figure of the service runs."""
    return [sys.executable, "-m", "firebreak.cli", "api", "--host", "127.0.0.1", "--port", str(port),
            "--workers", str(processes)]


def in_process_app(redis_url: str, **settings: str) -> tuple[Any, list[Any]]:
    """The real app (api.app.create_app) built in this process over a Redis, with the benches' settings
    (BENCH_SETTINGS) and these in the environment; and the list that receives the Services it connects at start
    (its lobby, pipeline, store), for the in-process benches (httpx's ASGI transport: no sockets, no uvicorn)."""
    os.environ["REDIS_URL"] = redis_url
    os.environ.update({**BENCH_SETTINGS, **settings})
    from firebreak.api import app as app_module  # read after the settings above are in the environment
    from firebreak.api.services import Services

    built: list[Services] = []
    connect = Services.connect

    def keep(*a: Any, **k: Any) -> Services:
        services = connect(*a, **k)
        built.append(services)
        return services

    Services.connect = keep  # type: ignore[method-assign]
    try:
        app = app_module.create_app()
    finally:
        Services.connect = connect  # type: ignore[method-assign]
    return app, built
