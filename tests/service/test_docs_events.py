"""docs/reference/events.md, "Your player's events": its SSE sample, run as printed against a live service (a guest
invited to a match follows its events and sees the invitation). Its GraphQL subscription is validated with every
other GraphQL sample of the site (tests/docs/test_samples.py)."""

from __future__ import annotations

import re
import subprocess

from tests.docs.samples import blocks
from tests.service.conftest import Client
from tests.service.players_support import guest
from tests.service.support import create
from tests.service.test_rematch_invites import INVITE


def test_the_sse_sample_streams_a_players_events_as_printed(client: Client, server: str) -> None:
    """The curl sample, with ACCESS and PORT set, prints the invited player's kept event as SSE (id, event, data)
    and then keeps the stream open (stopped here after a few seconds)."""
    (sample,) = blocks("docs/reference/events.md", "Your player's events")
    invitee = guest(client, "reader of the readme")
    s = create(client, 2, 0)
    sent = client.gql(INVITE, {"id": s.match_id, "players": [invitee.player]}, s.host)["invitePlayers"]
    assert sent["__typename"] == "PlayersInvited", sent
    done = subprocess.run(["timeout", "4", "bash", "-euo", "pipefail", "-c", sample], capture_output=True, text=True,
                          env={"ACCESS": invitee.access, "PORT": server.rsplit(":", 1)[1], "PATH": "/usr/bin:/bin"},
                          timeout=60, check=False)
    assert done.returncode == 124, (done.returncode, done.stderr)  # still streaming when stopped
    assert re.search(r"^id: \d+-\d+$", done.stdout, flags=re.MULTILINE), done.stdout
    assert "event: invited" in done.stdout and f'"matchId":"{s.match_id}"' in done.stdout, done.stdout



def test_the_ticket_sample_opens_the_stream_without_a_header(client: Client, server: str) -> None:
    """The browser section's sample, with ACCESS and PORT set, gets a one-time ticket and opens the stream with it
    alone: ready comes, and the stream stays open (stopped here after a few seconds); the ticket is spent."""
    (sample,) = blocks("docs/reference/events.md", "Opening the stream from a browser")
    assert "Authorization" not in sample.splitlines()[-1]  # the stream itself is opened without the header
    reader = guest(client, "reader of the ticket sample")
    done = subprocess.run(["timeout", "4", "bash", "-euo", "pipefail", "-c", f"{sample}\n"], capture_output=True,
                          text=True, env={"ACCESS": reader.access, "PORT": server.rsplit(":", 1)[1],
                                          "PATH": "/usr/bin:/bin"}, timeout=60, check=False)
    assert done.returncode == 124, (done.returncode, done.stderr)  # still streaming when stopped
    assert re.search(r"^event: ready$", done.stdout, flags=re.MULTILINE), done.stdout
    assert '"type":"ready"' in done.stdout and "id: 0" in done.stdout, done.stdout
