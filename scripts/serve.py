"""Run the service: the API on port 8000, RQ worker(s), and an embedded Redis when REDIS_URL is not set.

    .venv/bin/python scripts/serve.py [--port 8000] [--host 127.0.0.1] [--workers 1] [--data var/redis]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.embedded import EmbeddedRedis  # noqa: E402


def main() -> int:
    """Start everything, wait for Ctrl-C (or SIGTERM), stop everything."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1, help="RQ worker processes")
    parser.add_argument("--data", default=str(ROOT / "var" / "redis"), help="embedded Redis data folder")
    args = parser.parse_args()
    env = dict(os.environ)
    embedded = None
    if not env.get("REDIS_URL"):
        embedded = EmbeddedRedis(args.data, appendonly=True, prefer_bundled=True)
        env["REDIS_URL"] = embedded.start()
        print(f"embedded Redis ({embedded.binary}) on {env['REDIS_URL']}, data in {args.data}", flush=True)
    children = [subprocess.Popen([sys.executable, "-m", "workers.main"], cwd=ROOT, env=env)
                for _ in range(args.workers)]
    children.append(subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "api.app:create_app", "--factory", "--host", args.host,
         "--port", str(args.port), "--no-access-log"], cwd=ROOT, env=env))
    print(f"Firebreak on http://{args.host}:{args.port}/graphql (GraphiQL in a browser); Ctrl-C stops", flush=True)
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while not stopping and all(child.poll() is None for child in children):
            time.sleep(0.2)
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        if embedded is not None:
            embedded.stop()
    return 0 if stopping else 1


if __name__ == "__main__":
    sys.exit(main())
