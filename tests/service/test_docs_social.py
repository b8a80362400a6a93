"""docs/guides/social.md, "Try it with curl": its sample runs as written against the test server: Bob finds Ann by
the start of her handle in capitals, reads her profile, asks to be friends; she accepts and lists him; she blocks
him, and his next request gets the generic refusal."""

from __future__ import annotations

import json
import subprocess

from tests.docs.samples import blocks


def test_the_social_guides_sample_runs(server: str) -> None:
    (sample,) = blocks("docs/guides/social.md", "Try it with curl")
    port = server.rsplit(":", 1)[1]
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", sample], env={"PORT": port, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    found, profile, asked, accepted, friends, blocked, refused = (json.loads(line) for line in
                                                                   done.stdout.splitlines() if line.strip())
    handle = profile["handle"]
    assert handle.startswith("ann-") and [p["handle"] for p in found["items"]] == [handle]
    assert profile["name"] == "Ann" and profile["recentMatches"] == [] and profile["ratings"] == []
    assert asked["status"] == "REQUESTED" and asked["player"]["handle"] == handle
    assert accepted["status"] == "FRIENDS" and accepted["player"]["name"] == "Bob"
    assert [f["player"]["name"] for f in friends["items"]] == ["Bob"] and friends["items"][0]["online"] is True
    assert blocked["blocked"] is True and blocked["player"]["id"] == accepted["player"]["id"]
    assert (refused["status"], refused["code"]) == (409, "NOT_ACCEPTED")
