#!/usr/bin/env bash
# The lock files in requirements/: every package the service (service.txt) and the tests (dev.txt: the dev and rl
# extras too) install, each pinned with its hashes, for CPython 3.11 on Linux (the tests' for 3.11.5 or later: the
# documentation site's pymdown-extensions asks that much). scripts/bootstrap.sh (so CI and a
# newcomer) and the Dockerfile install from them, so everyone runs the versions the suite passed on.
#   bash scripts/lock.sh            move to the newest versions pyproject.toml allows, then run the whole suite on
#                                   them (commit requirements/ if it passes: a deliberate, tested move)
#   bash scripts/lock.sh --freeze   write the lock files from what .venv has installed now (no move, no suite run)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-upgrade}
if [ ! -x .venv/bin/uv ]; then
  bash scripts/bootstrap.sh --tests  # uv is in the dev extra
fi
compile=(.venv/bin/uv pip compile pyproject.toml --quiet --generate-hashes --python-platform linux --no-header
         --no-annotate)
if [ "$mode" = "--freeze" ]; then
  pins=$(mktemp)
  trap 'rm -f "$pins"' EXIT
  .venv/bin/python -m pip freeze --exclude-editable --all | grep -v -i '^firebreak[= ]' > "$pins"
  compile+=(--constraint "$pins")
else
  compile+=(--upgrade)
fi
"${compile[@]}" --python-version 3.11 --output-file requirements/service.txt
"${compile[@]}" --python-version 3.11.5 --extra dev --extra rl --output-file requirements/dev.txt
echo "lock: wrote requirements/service.txt and requirements/dev.txt"
if [ "$mode" != "--freeze" ]; then
  bash scripts/test.sh  # bootstrap.sh sees the lock changed and installs it first
fi
