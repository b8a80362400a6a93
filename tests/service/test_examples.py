"""The bot kit (examples/): the Python and the Node bot each play a match to its end against a live service."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "examples" / "node"
SDK_BUILT = NODE_DIR / "node_modules" / "@firebreak" / "client" / "dist" / "index.js"  # the bot's SDK, built


def _finished(output: str) -> dict[str, object]:
    last = json.loads(output.strip().splitlines()[-1])
    result = last["result"]
    assert result["endReason"] == "FINISHED" and result["winners"], last
    assert last["actions"] > 0
    return dict(last)


def test_the_python_bot_plays_to_the_end(server: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / "bot.py"), "--url", server,
                           "--create", "greatfire", "--seats", "3", "--bots", "random,greedy"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    _finished(done.stdout)


def test_the_node_bot_plays_to_the_end(server: str) -> None:
    node = shutil.which("node")
    if node is None or not (NODE_DIR / "node_modules" / "graphql-ws").is_dir() or not SDK_BUILT.is_file():
        reason = "node and examples/node/node_modules are needed (scripts/bootstrap.sh --tests installs them)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason + " (in CI they must be there)")
        pytest.skip(reason)
    done = subprocess.run([node, str(NODE_DIR / "bot.mjs"), "--url", server, "--create", "greatfire",
                           "--seats", "3", "--bots", "greedy,random"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    _finished(done.stdout)
