#!/usr/bin/env bash
# Install what the project needs into .venv, from nothing (Python 3.11 and pip are enough): the locked versions of
# requirements/ (hash-checked; scripts/lock.sh writes them), then the project itself without dependencies.
# Re-running is cheap: it reinstalls only when pyproject.toml or a lock file changed.
#   bash scripts/bootstrap.sh          what running the service needs (scripts/run.sh)
#   bash scripts/bootstrap.sh --tests  also the browser of the end-to-end tests (scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
hash=$(cat pyproject.toml requirements/service.txt requirements/dev.txt | sha256sum | cut -c1-16)
if [ "${1:-}" = "--tests" ]; then
  lock=requirements/dev.txt stamp=.venv/.installed-$hash-dev  # dev and rl extras (rl: the tests of tests/rl)
else
  lock=requirements/service.txt stamp=.venv/.installed-$hash
fi
# The dev install holds everything the plain one does.
if [ ! -f "$stamp" ] && [ ! -f ".venv/.installed-$hash-dev" ]; then
  .venv/bin/python -m pip install --quiet --require-hashes --no-deps -r "$lock"
  .venv/bin/python -m pip install --quiet --no-deps -e .
  .venv/bin/python -m pip check >/dev/null || { .venv/bin/python -m pip check; exit 1; }  # the lock is whole
  rm -f .venv/.installed-*
  touch "$stamp"
fi
# Only the tests need these system packages: Debian's chromium for the web client's end-to-end tests (tests/web;
# driven by the playwright package with this system binary, Playwright never downloads a browser here), Node.js
# with npm for the TypeScript SDK and the Node example bot (clients/typescript, examples/node,
# tests/service/test_typescript_client.py, tests/service/test_examples.py), and Debian's postgresql for the
# archive's tests (tests/service/archive_support.py starts a private server from its initdb and pg_ctl), and
# valgrind for the instruction counts of the benches (bench/instructions.py, tests/test_bench_instructions.py).
if [ "${1:-}" = "--tests" ]; then
  wanted=()
  [ -x /usr/bin/chromium ] || wanted+=(chromium)
  command -v node >/dev/null 2>&1 || wanted+=(nodejs)
  command -v npm >/dev/null 2>&1 || wanted+=(npm)
  # PostgreSQL's server binaries: the archive's tests start a private PostgreSQL with initdb and pg_ctl
  command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || wanted+=(postgresql)
  [ -f /usr/include/valgrind/callgrind.h ] && command -v valgrind >/dev/null 2>&1 || wanted+=(valgrind)
  if [ ${#wanted[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        as_root=(sudo -n)
      else
        echo "bootstrap: cannot install ${wanted[*]} without root; the tests that need them will skip" >&2
      fi
    fi
    if [ "$(id -u)" -eq 0 ] || [ ${#as_root[@]} -gt 0 ]; then
      "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
      "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}" >/dev/null
    fi
  fi
  if command -v npm >/dev/null 2>&1; then
    # The TypeScript SDK (clients/typescript, tests/service/test_typescript_client.py): its dev dependencies from
    # its lock file, then its build (dist/), which the Node example bot uses through a file: dependency.
    if [ ! -d clients/typescript/node_modules/openapi-typescript ]; then
      npm ci --prefix clients/typescript --no-audit --no-fund --loglevel=error
    fi
    npm run --prefix clients/typescript --silent build
    if [ ! -d examples/node/node_modules/graphql-ws ] || [ ! -e examples/node/node_modules/@firebreak/client ]; then
      npm ci --prefix examples/node --no-audit --no-fund --loglevel=error
    fi
  fi
fi
