"""docs/guides/chat.md, "Try it with curl": its sample runs as written against the test server: Ann sends a preset,
the bot answers, Bob reads both, and a bidirectional override is refused."""

from __future__ import annotations

import json
import subprocess

from tests.docs.samples import blocks


def test_the_chat_guides_sample_runs(server: str) -> None:
    (sample,) = blocks("docs/guides/chat.md", "Try it with curl")
    port = server.rsplit(":", 1)[1]
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", sample], env={"PORT": port, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    sent, page, refused = (json.loads(line) for line in done.stdout.splitlines() if line.strip())
    assert sent["chatMessage"]["preset"] == "goodLuck" and sent["chatMessage"]["name"] == "Ann"
    assert [(m["seat"], m["text"]) for m in page["items"]] == [(0, "Good luck!"), (2, "Good luck!")]
    assert (refused["status"], refused["code"], refused["reason"]) == (422, "BAD_MESSAGE", "bidi")
