#!/usr/bin/env bash
# The test command: install if needed, lint, type-check, then the whole pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --tests
.venv/bin/python -m ruff check firebreak domain matches players archive ratings notifications matchmaking api workers integrations bench scripts tests examples
.venv/bin/python -m mypy
.venv/bin/python -m mypy --strict examples/python/bot.py
.venv/bin/python -m pytest "$@"
