"""Keep-alive latency of the service as users start it: `firebreak serve` (an embedded Redis, one worker), then
sequential requests on one kept-alive connection to cheap routes, p50 and p99 of each, and the API process's CPU
per request (read from /proc over each path's requests).

Run: python -m bench.served_latency [--requests 30] [--rounds 3] [--paths /healthz,/v1/titles] [--root DIR ...]

Guards issue 47's finding: served through uvicorn's own `--fd`, every keep-alive answer of `firebreak serve` waited
about 44 ms for the client's delayed ACK (TCP_NODELAY never set), where the same app under `uvicorn --port` answered
in 0.5 ms. --root runs the service from other checkouts as well (e.g. a `git worktree` of an older commit), round by
round interleaved with this one (each going first in turn), each with its own data folder and port, so two trees
compare in one run: the API's CPU per request of each against this tree's, as mean (min-max) of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.harness import cpu_seconds
from firebreak.matches.embedded import free_port

ROOT = Path(__file__).resolve().parent.parent


def started(root: Path, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    """`firebreak serve` from the checkout at root, its data in folder; the process and its port once it answers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "FIREBREAK_DATA_DIR")}
    env["PYTHONPATH"] = str(root)
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "firebreak.cli", "serve", "--port", str(port), "--data",
                                str(folder / "redis"), "--workers", "1"], cwd=root, env=env, stdout=log,
                               stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"firebreak serve from {root} exited:\n{(folder / 'serve.log').read_text()[-2000:]}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/readyz")
            if connection.getresponse().status == 200:
                return process, port
        except OSError:
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit(f"firebreak serve from {root} did not answer /readyz in 60 s")


def api_pid(serve: int) -> int | None:
    """The process id of the API (`firebreak.apiserver`) that `firebreak serve` (pid serve) started (Linux)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == serve and b"firebreak.apiserver" in argv:
            return int(entry)
    return None


def timed(port: int, path: str, requests: int, api: int | None = None) -> tuple[list[float], float | None]:
    """Milliseconds of each of `requests` sequential GETs of path on one kept-alive connection (after one warm-up),
    and the CPU µs per request of the process api (None when not known)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    connection.getresponse().read()
    before = cpu_seconds(api) if api else None
    out = []
    for _ in range(requests):
        began = time.perf_counter()
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        out.append((time.perf_counter() - began) * 1000)
        if answer.status != 200:
            raise SystemExit(f"GET {path} answered {answer.status}")
    after = cpu_seconds(api) if api else None
    connection.close()
    return out, None if before is None or after is None else (after - before) / requests * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=30, help="sequential requests per path and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--paths", type=lambda text: text.split(","), default=["/healthz", "/v1/titles"])
    parser.add_argument("--root", type=Path, action="append", default=[],
                        help="another checkout to serve from as well (repeatable)")
    args = parser.parse_args()
    roots = [ROOT, *[root.resolve() for root in args.root]]
    figures: dict[tuple[Path, str], list[float]] = {}
    cpu: dict[tuple[Path, str], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="firebreak-served-latency-") as tmp:
        for round_ in range(args.rounds):
            turn = round_ % len(roots)  # each tree goes first in turn: no tree always has the cooler machine
            for n, root in enumerate(roots[turn:] + roots[:turn]):
                folder = Path(tmp) / f"{round_}-{n}"
                folder.mkdir()
                process, port = started(root, folder)
                api = api_pid(process.pid)
                try:
                    for path in args.paths:
                        values, per_request = timed(port, path, args.requests, api)
                        figures.setdefault((root, path), []).extend(values)
                        if per_request is not None:
                            cpu.setdefault((root, path), []).append(per_request)
                        print(f"round {round_ + 1} {root.name:<16} {path:<12} p50 {statistics.median(values):7.2f} ms"
                              + ("" if per_request is None else f", the API {per_request:.0f} µs CPU per request"),
                              flush=True)
                finally:
                    process.terminate()
                    process.wait(timeout=20)
    print(f"over {args.rounds} rounds of {args.requests} keep-alive requests, `firebreak serve`:")
    for (root, path), values in figures.items():
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        spent = cpu.get((root, path))
        print(f"  {root!s:<40} {path:<12} p50 {statistics.median(values):7.2f} ms  p99 {p99:7.2f} ms"
              + (f"  the API {statistics.mean(spent):.0f} µs CPU per request ({min(spent):.0f}-{max(spent):.0f})"
                 if spent else ""))
    for other in roots[1:]:  # the API's CPU per request of each other tree against this one's, round by round
        for path in args.paths:
            pairs = list(zip(cpu.get((other, path), []), cpu.get((ROOT, path), []), strict=False))
            ratios = [theirs / ours for theirs, ours in pairs if ours > 0]
            if pairs:
                spread = (f"{statistics.mean(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})" if ratios
                          else "n/a (too few requests to count)")
                print(f"  {other.name} / {ROOT.name} {path:<12} the API's CPU per request {spread}, "
                      f"{statistics.mean(t - o for t, o in pairs):+.1f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
