"""The first matches with curl run as printed against a live service, whoever owes the first decision: the README's
first look, and docs/getting-started.md's whole match over GraphQL and over REST, once with the reader's seat
opening (START=0: the decision is the reader's at the first read, and nothing else happens until they move) and
once with a bot's (START=1), all four side by side."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.docs.samples import blocks

PAGE = "docs/getting-started.md"
GRAPHQL, REST = "A first match with curl", "The same match over REST"
DEADLINE = 900  # seconds for one whole match played by the sample: a bound on something that must end
REDEAL_EVENTS = {"handKept", "handRedealt", "handDealt"}  # R15, before the opening seat decides
MATCH_ID = "\necho \"MATCH=$MATCH\"\n"  # appended by the test (not part of the sample) to find the match again


def environment(server: str, **extra: str) -> dict[str, str]:
    """What a reader's shell has: PORT, a PATH with curl and python3, and the sample's own variables."""
    return {"PORT": server.rsplit(":", 1)[1], "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", **extra}


@pytest.fixture(scope="module")
def walk_throughs(server: str) -> Iterator[dict[tuple[str, int], subprocess.Popen[str]]]:
    """Both walkthroughs, each with START=0 (the reader opens) and START=1 (a bot opens), all four started at once
    (they mostly wait for the bots, so side by side they take the time of the longest)."""
    started = {(section, start): subprocess.Popen(["bash", "-euo", "pipefail", "-c", sample + MATCH_ID],
                                                  env=environment(server, START=str(start)), stdout=subprocess.PIPE,
                                                  stderr=subprocess.PIPE, text=True)
               for section in (GRAPHQL, REST) for (sample,) in [blocks(PAGE, section)] for start in (0, 1)}
    yield started
    for process in started.values():
        if process.poll() is None:
            process.kill()
            process.wait()


def finished(walk_throughs: dict[tuple[str, int], subprocess.Popen[str]],
             section: str) -> dict[int, subprocess.CompletedProcess[str]]:
    """One walkthrough's two runs, once they have ended."""
    done = {}
    for start in (0, 1):
        process = walk_throughs[section, start]
        out, err = process.communicate(timeout=DEADLINE)
        done[start] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    return done


def check_opener(server: str, output: str, start: int) -> None:
    """The match the sample played opened at START's seat, and is over."""
    (match_id,) = re.findall(r"^MATCH=(\w+)$", output, flags=re.MULTILINE)
    match = httpx.get(f"{server}/v1/matches/{match_id}", timeout=10).json()
    assert match["options"]["startSeat"] == start and match["status"] == "OVER", match
    items = httpx.get(f"{server}/v1/matches/{match_id}/events", params={"afterVersion": 0, "limit": 20},
                      timeout=10).json()["items"]
    # R15: a seat dealt five identical cards first decides to keep or redeal, whichever seat it is; the match
    # opens with the first decision after those
    opening = [event for item in items for event in item["events"] if event["type"] not in REDEAL_EVENTS]
    assert opening[0]["seat"] == start, items


def test_the_readmes_first_look_prints_the_match_as_the_seat_sees_it(server: str) -> None:
    (sample,) = blocks("README.md", "A first look")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", sample], env=environment(server), capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == "", (done.stdout, done.stderr)
    line = re.fullmatch(r"ACTIVE to act: \[(\d)\] you: 0 legal actions: (\d+)\n", done.stdout)
    assert line, done.stdout
    assert (line.group(1) == "0") == (int(line.group(2)) > 0), "legal actions exactly when the seat is to act"


@pytest.mark.slow
def test_the_graphql_walk_through_plays_to_the_end_whoever_opens(
        server: str, walk_throughs: dict[tuple[str, int], subprocess.Popen[str]]) -> None:
    for start, done in finished(walk_throughs, GRAPHQL).items():
        assert done.returncode == 0 and done.stderr == "", (start, done.stdout[-2000:], done.stderr[-2000:])
        lines = [line for line in done.stdout.splitlines() if line.strip() and not line.startswith("MATCH=")]
        answers = [json.loads(line) for line in lines]  # every answer is JSON: no MALFORMED_JSON, no HTML
        assert all("errors" not in answer for answer in answers), [a for a in answers if "errors" in a]
        added, acts, result = answers[:2], answers[2:-1], answers[-1]
        assert [a["data"]["addBot"]["started"] for a in added] == [False, True]
        kinds = {a["data"]["act"]["__typename"] for a in acts}
        assert "ActionAccepted" in kinds and kinds <= {"ActionAccepted", "StaleVersion", "NotYourTurn"}, kinds
        over = result["data"]["match"]
        assert over["status"] == "OVER" and over["result"]["endReason"] == "FINISHED" and over["result"]["winners"]
        assert len(over["result"]["scores"]) == 3
        check_opener(server, done.stdout, start)


@pytest.mark.slow
def test_the_rest_walk_through_plays_to_the_end_whoever_opens(
        server: str, walk_throughs: dict[tuple[str, int], subprocess.Popen[str]]) -> None:
    for start, done in finished(walk_throughs, REST).items():
        assert done.returncode == 0 and done.stderr == "", (start, done.stdout[-2000:], done.stderr[-2000:])
        lines = [line for line in done.stdout.splitlines() if line.strip() and not line.startswith("MATCH=")]
        *added, result = [json.loads(line) for line in lines]
        assert [a["started"] for a in added] == [False, True], added
        assert result["endReason"] == "FINISHED" and result["winners"] and len(result["scores"]) == 3, result
        check_opener(server, done.stdout, start)
