"""README "Your player's events": its SSE sample, run as printed against a live service (a guest invited to a
match follows its events and sees the invitation), and its GraphQL subscription, valid against the schema."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from graphql import parse, validate

from firebreak.api.schema import schema
from tests.service.conftest import Client
from tests.service.players_support import guest
from tests.service.support import create
from tests.service.test_rematch_invites import INVITE

ROOT = Path(__file__).resolve().parents[2]


def section() -> str:
    """The README's section on a player's events."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("\n## Your player's events\n", 1)[1].split("\n## ", 1)[0]


def test_the_sse_sample_streams_a_players_events_as_printed(client: Client, server: str) -> None:
    """The curl sample, with ACCESS and PORT set, prints the invited player's kept event as SSE (id, event, data)
    and then keeps the stream open (stopped here after a few seconds)."""
    (sample,) = re.findall(r"```sh\n(.*?)```", section(), flags=re.DOTALL)
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


def test_the_subscription_sample_is_valid_against_the_schema() -> None:
    """The GraphQL sample names only fields and types the schema has."""
    (document,) = re.findall(r"```graphql\n(.*?)```", section(), flags=re.DOTALL)
    assert validate(schema._schema, parse(document)) == []
