"""Run the service from a checkout: what `firebreak serve` does (firebreak/serve.py), with the same options.

    .venv/bin/python scripts/serve.py [--port 8000] [--host 127.0.0.1] [--workers 1] [--api-workers 1]
                                      [--data var/redis] [--redis-port N] [--appendfsync everysec|always]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's firebreak package, installed or not

from firebreak.serve import main

if __name__ == "__main__":
    sys.exit(main())
