"""The web client's copy of the TypeScript SDK (web/vendor/firebreak-client/) is what `npm run vendor` builds from
the SDK's current sources: the package is installed from its lock file (npm ci) in a copy, built and vendored into
a temporary folder, and every file must match the checked-in one byte for byte (none missing, none extra). So a
change to clients/typescript/src that is not vendored again fails here, like the drift check of the SDK's types
(tests/service/test_typescript_client.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "typescript"
VENDORED = ROOT / "web" / "vendor" / "firebreak-client"
DEADLINE = 600  # seconds: a bound on a step that must end, not a measure


def _run(cwd: Path, *command: str) -> None:
    done = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, timeout=DEADLINE, check=False)
    assert done.returncode == 0, (command, done.stdout[-4000:], done.stderr[-4000:])


def test_the_vendored_sdk_is_what_npm_run_vendor_builds(tmp_path: Path) -> None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        reason = "node and npm are needed (scripts/bootstrap.sh --tests installs them)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason + " (in CI they must be there)")
        pytest.skip(reason)
    work = tmp_path / "sdk"
    work.mkdir()
    for name in ("package.json", "package-lock.json", "tsconfig.json"):
        shutil.copy(SDK / name, work / name)
    for folder in ("src", "scripts"):
        shutil.copytree(SDK / folder, work / folder)
    _run(work, "npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
    built = tmp_path / "vendor"
    _run(work, "npm", "run", "--silent", "vendor", "--", str(built))

    def files(folder: Path) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}

    want, have = files(built), files(VENDORED)
    assert sorted(have) == sorted(want), "web/vendor/firebreak-client is stale: npm run vendor in clients/typescript"
    stale = [name for name in want if want[name] != have[name]]
    assert stale == [], f"web/vendor/firebreak-client is stale ({stale}): npm run vendor in clients/typescript"
    assert "from './openapi-fetch.js'" in have["client.js"].decode()  # the bare import, made relative
