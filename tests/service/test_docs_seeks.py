"""docs/guides/seeks.md, "Finding opponents: seeks": its sample runs as written against the test server and its
workers: two guests seek over REST and find the same started match, which shows in the second one's matches."""

from __future__ import annotations

import json
import subprocess

from tests.docs.samples import blocks


def samples() -> list[str]:
    """The sh blocks of the seeks guide, in order."""
    return blocks("docs/guides/seeks.md", "Finding opponents: seeks")


def test_two_guests_seek_and_find_one_match(server: str) -> None:
    assert len(samples()) == 1
    port = server.rsplit(":", 1)[1]
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", samples()[0]],
                          env={"PORT": port, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    ann, bob, bobs_matches = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert ann["status"] == bob["status"] == "MATCHED" and ann["matchId"] == bob["matchId"]
    assert {ann["seat"], bob["seat"]} == {0, 1} and ann["options"]["hiddenColours"] is True
    assert bobs_matches["items"][0]["id"] == bob["matchId"] and bobs_matches["items"][0]["seat"] == bob["seat"]
