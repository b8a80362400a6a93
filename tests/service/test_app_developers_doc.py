"""docs/app-developers.md runs as printed: its shell blocks, in order in one bash, against a real API process and
real workers, each step doing what the page says it does."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "app-developers.md"
STEP = "::step "
DEADLINE = 300  # seconds for the whole walk-through: a generous bound on something that must end


def blocks() -> list[str]:
    """The page's sh blocks, in order."""
    return re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def run(port: str) -> list[list[str]]:
    """Run every block in one bash (-e: a refused call fails it), as a reader pasting them in order would; the
    output lines of each block."""
    script = "".join(f"echo '{STEP}{n}'\n{block}" for n, block in enumerate(blocks()))
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], env={"PORT": port, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=DEADLINE, check=False)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    assert done.stderr == "", done.stderr[-3000:]
    steps: list[list[str]] = []
    for line in done.stdout.splitlines():
        if line.startswith(STEP):
            assert int(line.removeprefix(STEP)) == len(steps)
            steps.append([])
        else:
            steps[-1].append(line)
    return steps


def test_the_page_has_its_helpers_and_eight_steps() -> None:
    assert len(blocks()) == 9
    assert all("PORT" not in block for block in blocks()[1:]), "only the helpers block reads PORT"


def test_the_site_and_the_readme_link_the_page() -> None:
    """The page is in the site's nav, and the players guide and the README lead to it."""
    assert "app-developers.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "(../app-developers.md)" in (ROOT / "docs" / "guides" / "players.md").read_text(encoding="utf-8")
    assert "(docs/app-developers.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_walk_through_runs_as_printed(server: str) -> None:
    helpers, signed_in, refreshed, created, mine, played, resigned, rematched, signed_out = run(server.rsplit(":")[-1])
    assert helpers == []

    # 1. a guest, and the same device id signs the same guest in again
    first, again = signed_in
    player = first.removeprefix("signed in as ")
    assert player != first and again == f"the same device is the same player: {player}"
    assert refreshed == ["refreshed; signed in as ann"]

    # 3. the player's match, started once the bots sat down, the seat bound to the player
    (line,) = created
    match = re.fullmatch(r"match (\w+): seat 0 is yours; started: true", line)
    assert match, line
    old = match.group(1)
    seats = httpx.get(f"{server}/v1/matches/{old}", timeout=10).json()["seats"]
    assert [(s["kind"], s["player"]) for s in seats] == [("human", player), ("bot", None), ("bot", None)]

    # 4. my matches: that match, active, at the player's seat
    (row,) = mine
    assert re.fullmatch(rf"{old} ACTIVE seat 0 (your turn|not your turn)", row), row

    # 5. a bot opened (startSeat 1): the player's move came after the two bots' moves
    (line,) = played
    move = re.fullmatch(r"played \w+ at version (\d+); now at version (\d+)", line)
    assert move and int(move.group(1)) == 2 and int(move.group(2)) == 3, line

    # 6. with only bots left, resigning ends the match
    assert resigned == ["ended: true, RESIGNED"]
    result = httpx.get(f"{server}/v1/matches/{old}", timeout=10).json()["result"]
    assert result["resigned"] == [0] and result["endReason"] == "RESIGNED"

    # 7. the rematch: named by the old match, first in my matches (the player's turn), and played at once
    names, new_row, old_row, new_move = rematched
    new = names.removeprefix("the old match names its rematch: ")
    assert new != names and new != old
    assert new_row == f"{new} ACTIVE seat 1 your turn"
    assert old_row == f"{old} OVER seat 0 LOST"
    move = re.fullmatch(r"played \w+ at version (\d+); now at version (\d+)", new_move)
    assert move and int(move.group(2)) == int(move.group(1)) + 1, new_move
    # the player opens at version 0 unless a dealt hand was offered a redeal first (R15: the other seats decide
    # first, about 0.4% of rematch seeds): every step before the player's is such a decision
    earlier = httpx.get(f"{server}/v1/matches/{new}/events", params={"afterVersion": 0, "limit": 50},
                        timeout=10).json()["items"][:int(move.group(1))]
    assert all(step["events"][0]["type"] in ("handKept", "handRedealt") and step["events"][0]["seat"] != 1
               for step in earlier), earlier
    seats = httpx.get(f"{server}/v1/matches/{new}", timeout=10).json()["seats"]
    assert [(s["kind"], s["player"]) for s in seats] == [("bot", None), ("human", player), ("bot", None)]

    # 8. signed out: the session's access token is refused
    assert signed_out == ['{"everywhere":false}', "the old access token now gets 401"]
