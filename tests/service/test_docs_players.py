"""docs/guides/players.md, "Players and sign-in": its samples run as written: the curl walk-through against the test
server, and the operator's settings as the players layer reads them."""

from __future__ import annotations

import json
import shlex
import subprocess

from firebreak.players.config import PlayerSettings
from tests.docs.samples import blocks


def samples() -> list[str]:
    """The sh blocks of the guide's "Players and sign-in" section, in order."""
    return blocks("docs/guides/players.md", "Players and sign-in")


def test_the_section_has_its_two_samples() -> None:
    assert len(samples()) == 2


def test_the_guest_walk_through_runs_against_the_service(server: str) -> None:
    port = server.rsplit(":", 1)[1]
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", samples()[0]], env={"PORT": port, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    me, profile, seat, bot, signed_out = lines
    assert me["kind"] == "GUEST" and me["name"] == "ann" and me["handle"].startswith("ann-")
    assert profile["player"]["name"] == "Ann" and profile["player"]["handle"].startswith("ann.")
    assert seat["player"] == me["id"] and seat["token"]
    assert bot["id"] == me["id"] and [t["scopes"] for t in bot["accessTokens"]] == [["BOT"]]
    assert signed_out == {"everywhere": True}


def test_the_operators_settings_are_accepted() -> None:
    env = {}
    for line in samples()[1].splitlines():
        if line.startswith("export "):
            name, _, value = line.removeprefix("export ").partition("=")
            env[name] = shlex.split(value)[0]
    settings = PlayerSettings.from_env(env)
    assert settings.external and settings.algorithms == ("RS256",) and settings.jwt_name_claim == "nickname"
