#!/usr/bin/env bash
# The run command: the service on port 8000 (GraphQL at /graphql), one RQ worker, and an embedded Redis
# (data in var/redis, append-only file on) unless REDIS_URL points at one.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec .venv/bin/python scripts/serve.py "$@"
