#!/usr/bin/env bash
# The run command, `firebreak serve` from the checkout's .venv: the service on port 8000 (GraphQL at /graphql),
# one RQ worker, and an embedded Redis (data in var/redis, append-only file on, FIREBREAK_APPENDFSYNC: always or
# everysec) unless REDIS_URL points at one. A child that dies (API, worker, embedded Redis) is restarted with backoff; Ctrl-C stops everything.
# A taken port, or a data folder another run holds (an OS lock), stops the start at once (status 1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec .venv/bin/firebreak serve "$@"  # firebreak/serve.py (scripts/serve.py runs the same)
