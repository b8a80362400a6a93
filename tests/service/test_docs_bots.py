"""docs/guides/bots.md, "Writing a bot against the API": its three commands run as printed against a live service,
and the two that play a seat the reader holds do so whoever owes the first decision: on a match the bot's own
seat opens (nothing arrives on a subscription until the bot moves, so a bot that does not act on its first read
hangs) and on one a bot opens."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.docs.samples import ROOT, blocks

PAGE = "docs/guides/bots.md"
DEADLINE = 300  # seconds for one match played by a bot: a bound on something that must end


def commands() -> tuple[str, str, str]:
    """The guide's three sh blocks: create and play, play a held seat in Python, the same in Node."""
    create, python, node = blocks(PAGE, "Writing a bot against the API")
    return create, python, node


def seat_held(server: str, start: int) -> dict[str, str]:
    """A started 3-seat match whose seat 0 the reader holds (two bots in the others), opened by seat `start`."""
    api = f"{server}/v1"
    created = httpx.post(f"{api}/matches", json={"title": "greatfire", "seats": 3, "options": {"startSeat": start}},
                         timeout=10).json()
    joined = httpx.post(f"{api}/matches/{created['matchId']}/seats", json={"name": "bot", "seat": 0},
                        timeout=10).json()
    for level in ("random", "greedy"):
        added = httpx.post(f"{api}/matches/{created['matchId']}/bots", json={"level": level},
                           headers={"authorization": f"Bearer {created['hostToken']}"}, timeout=10)
        assert added.status_code == 201, added.text
    match = httpx.get(f"{api}/matches/{created['matchId']}", timeout=10).json()
    assert match["status"] == "ACTIVE" and match["options"]["startSeat"] == start, match
    return {"MATCH": created["matchId"], "ME": joined["token"]}


def play(command: str, server: str, extra: dict[str, str]) -> dict[str, object]:
    """Run one printed command in a reader's shell; the bot's last line (the match and its result)."""
    env = {"PORT": server.rsplit(":", 1)[1], "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", **extra}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=DEADLINE, check=False)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    last: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    result = last["result"]
    assert isinstance(result, dict) and result["endReason"] == "FINISHED" and result["winners"], last
    assert isinstance(last["actions"], int) and last["actions"] > 0, last
    return last


def node_ready() -> None:
    """Skip (fail in CI) without node and the example's packages."""
    modules = ROOT / "examples" / "node" / "node_modules"
    if (shutil.which("node") is None or not (modules / "graphql-ws").is_dir()
            or not (modules / "@firebreak" / "client" / "dist" / "index.js").is_file()):
        reason = "node and examples/node/node_modules are needed (scripts/bootstrap.sh --tests installs them)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason + " (in CI they must be there)")
        pytest.skip(reason)


def test_the_guide_says_to_act_on_the_first_read() -> None:
    text = (ROOT / PAGE).read_text(encoding="utf-8")
    assert "**Act on that read**" in text and "no step will arrive" in text


def test_the_create_command_plays_its_match_to_the_end(server: str) -> None:
    create, _, _ = commands()
    assert "--create" in create
    play(create, server, {})


@pytest.mark.parametrize("start", [0, 1], ids=["the bot's seat opens", "a bot opens"])
def test_the_python_bot_plays_a_held_seat_whoever_opens(server: str, start: int) -> None:
    _, python, _ = commands()
    assert python.startswith("python examples/python/bot.py")
    last = play(python, server, seat_held(server, start))
    assert isinstance(last["match"], str)


@pytest.mark.parametrize("start", [0, 1], ids=["the bot's seat opens", "a bot opens"])
def test_the_node_bot_plays_a_held_seat_whoever_opens(server: str, start: int) -> None:
    node_ready()
    _, _, node = commands()
    assert node.startswith("node examples/node/bot.mjs")
    play(node, server, seat_held(server, start))


@pytest.mark.parametrize("which", [1, 2], ids=["python", "node"])
def test_a_token_that_begins_with_a_dash_reaches_the_bot(server: str, which: int) -> None:
    """Seat tokens are URL-safe base64 and one in 64 begins with "-": the printed commands must hand it to the bot
    as the token, not leave the argument parser to read it as an option (a usage error at once, exit status 2).
    Past the parser the bot meets an unknown match and a refused token: it stops with its own error, or keeps
    trying, which is not this test's business (it is stopped after PARSED seconds)."""
    if which == 2:
        node_ready()
    command = commands()[which]
    env = {"PORT": server.rsplit(":", 1)[1], "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
           "MATCH": "no-such-match", "ME": "-Dk-not-a-token"}
    bot = subprocess.Popen(["bash", "-euo", "pipefail", "-c", command], cwd=ROOT, env=env, text=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, stderr = bot.communicate(timeout=PARSED)
    except subprocess.TimeoutExpired:
        bot.kill()
        _, stderr = bot.communicate()
    else:
        assert bot.returncode not in (0, 2), (bot.returncode, stderr[-2000:])
    assert "expected one argument" not in stderr and "ambiguous" not in stderr, stderr[-2000:]


PARSED = 15  # seconds: a usage error comes at once
