#!/usr/bin/env bash
# Build the release image (Dockerfile) and run docker-compose.yml's services from it with podman, on this machine,
# then play a match of each title through them over HTTP and check the health checks, the user and the shared
# archive volume (scripts/container_check.py; docs/deployment-containers.md says what it stands in for).
#   bash scripts/container-check.sh          the check: a few minutes (the first run also makes the stand-in bases)
#   bash scripts/container-check.sh --clean  remove all it made, the cached stand-in images included
# It installs podman, runc and debootstrap with apt-get when missing. Exit status: 0 passed, 1 failed, 124 took
# longer than FIREBREAK_CONTAINER_CHECK_SECONDS (1200), 77 cannot run here (the reason is the last line of stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
cannot() { echo "container-check: cannot run here: $*" >&2; exit 77; }
[ "$(uname -s)" = Linux ] || cannot "podman containers need Linux"
[ "$(id -u)" -eq 0 ] || cannot "not root (the check runs rootful podman with runc and cgroupfs, and a network namespace)"
[ -x .venv/bin/python ] || cannot "no .venv (bash scripts/bootstrap.sh)"
wanted=()
command -v podman >/dev/null 2>&1 || wanted+=(podman)
command -v runc >/dev/null 2>&1 || wanted+=(runc)
command -v debootstrap >/dev/null 2>&1 || wanted+=(debootstrap)
command -v ip >/dev/null 2>&1 || wanted+=(iproute2)
if [ ${#wanted[@]} -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || cannot "no apt-get to install ${wanted[*]}"
  echo "container-check: installing ${wanted[*]} (Debian's packages)"
  if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq \
         && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}" >/dev/null; }; then
    cannot "apt-get could not install ${wanted[*]}"
  fi
fi
probe=$(CONTAINERS_CONF=/dev/null podman info --format '{{.Host.OCIRuntime.Name}}' 2>&1) \
  || cannot "podman does not start here: ${probe##*$'\n'}"
exec timeout --kill-after=60 "${FIREBREAK_CONTAINER_CHECK_SECONDS:-1200}" .venv/bin/python scripts/container_check.py "$@"
