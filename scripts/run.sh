#!/usr/bin/env bash
# The run command. Until the service lands: play a whole match between random bots in the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec .venv/bin/python -m domain.play "$@"
