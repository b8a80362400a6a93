"""The export spells a match's end reason as every other surface does (issue 47, part 3): GET
/v1/matches/{id}/export and GraphQL's match { export } say FINISHED where the match, its result and the GraphQL enum
do; over real HTTP, a real Redis and real workers."""

from __future__ import annotations

from typing import Any

from firebreak.archive.export import replay
from firebreak.matches.config import Settings
from tests.service.conftest import Client, service_env
from tests.service.players_support import rest
from tests.service.support import bot_match, wait_for

READ = """query($id: ID!) { match(id: $id) { status endReason result { endReason winners } export } }"""


def test_the_export_of_a_finished_match_says_finished_as_the_match_does(client: Client, server: str,
                                                                         redis_url: str) -> None:
    """A 2-seat match of two bots played to its end: the export, over REST and GraphQL, has endReason FINISHED and
    its result's endReason FINISHED, as GET /v1/matches/{id} and match { endReason result } have; the document still
    replays to its own result, and so does one exported before (finished)."""
    s = bot_match(Settings.from_env(service_env(redis_url)), 4701, seats=2, levels=("random",))

    def over() -> dict[str, Any] | None:
        read: dict[str, Any] = client.gql(READ, {"id": s.match_id})["match"]
        return read if read["status"] == "OVER" else None

    graphql = wait_for(over, "the bots' match to end")
    match = rest(server, "GET", f"/v1/matches/{s.match_id}").json()
    exported = rest(server, "GET", f"/v1/matches/{s.match_id}/export")
    assert exported.status_code == 200, exported.text
    document = exported.json()
    assert match["endReason"] == match["result"]["endReason"] == "FINISHED", match
    assert graphql["endReason"] == graphql["result"]["endReason"] == "FINISHED", graphql
    for doc in (document, graphql["export"]):
        assert (doc["endReason"], doc["result"]["endReason"]) == ("FINISHED", "FINISHED"), doc["endReason"]
        assert doc["result"]["winners"] == match["result"]["winners"]
        assert replay(doc) == doc["result"]
    older = {**document, "endReason": "finished"}  # a document exported before: still read
    assert replay(older) == document["result"]
