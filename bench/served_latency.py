"""Keep-alive latency of the service as users start it: `firebreak serve` (an embedded Redis, one worker), then
sequential requests on one kept-alive connection to cheap routes, p50 and p99 of each.

Run: python -m bench.served_latency [--requests 30] [--rounds 3] [--paths /healthz,/v1/titles] [--root DIR ...]

Guards issue 47's finding: served through uvicorn's own `--fd`, every keep-alive answer of `firebreak serve` waited
about 44 ms for the client's delayed ACK (TCP_NODELAY never set), where the same app under `uvicorn --port` answered
in 0.5 ms. --root runs the service from other checkouts as well (e.g. a `git worktree` of an older commit), round by
round interleaved with this one, each with its own data folder and port, so two trees compare in one run.
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


def timed(port: int, path: str, requests: int) -> list[float]:
    """Milliseconds of each of `requests` sequential GETs of path on one kept-alive connection (after one warm-up)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    connection.getresponse().read()
    out = []
    for _ in range(requests):
        began = time.perf_counter()
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        out.append((time.perf_counter() - began) * 1000)
        if answer.status != 200:
            raise SystemExit(f"GET {path} answered {answer.status}")
    connection.close()
    return out


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
    with tempfile.TemporaryDirectory(prefix="firebreak-served-latency-") as tmp:
        for round_ in range(args.rounds):
            for n, root in enumerate(roots):
                folder = Path(tmp) / f"{round_}-{n}"
                folder.mkdir()
                process, port = started(root, folder)
                try:
                    for path in args.paths:
                        values = timed(port, path, args.requests)
                        figures.setdefault((root, path), []).extend(values)
                        print(f"round {round_ + 1} {root.name:<16} {path:<12} p50 {statistics.median(values):7.2f} ms",
                              flush=True)
                finally:
                    process.terminate()
                    process.wait(timeout=20)
    print(f"over {args.rounds} rounds of {args.requests} keep-alive requests, `firebreak serve`:")
    for (root, path), values in figures.items():
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(f"  {root!s:<40} {path:<12} p50 {statistics.median(values):7.2f} ms  p99 {p99:7.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
