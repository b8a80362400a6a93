#!/usr/bin/env bash
# The test command: install if needed, lint, type-check, then the whole pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --tests
.venv/bin/python -m ruff check firebreak domain matches players archive ratings notifications push social chat moderation matchmaking api workers integrations bench scripts tests examples
.venv/bin/python -m mypy
.venv/bin/python -m mypy --strict examples/python/bot.py
# Two test processes (pytest-xdist), each given whole files, so a module's servers are started once: 11-13 minutes
# on 2 cores where one process took 20. FIREBREAK_TEST_PROCS sets the number (0: everything in this process, as a
# debugger wants); arguments after it still override (-n 0).
.venv/bin/python -m pytest -n "${FIREBREAK_TEST_PROCS:-2}" --dist loadfile "$@"
