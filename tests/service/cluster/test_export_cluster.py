"""The player's data export on a Redis Cluster: the sessions' index, the matches and the one-time ticket each live
in their own slots, and the export reads them all."""

from __future__ import annotations

import httpx
import orjson

from tests.service.conftest import Client
from tests.service.players_support import guest
from tests.service.test_my_matches import two_seats, waiting
from tests.service.test_player_export import EXPORT, exported


def test_the_export_reads_every_slot(client: Client, server: str) -> None:
    me = guest(client, "clustered")
    turn, waits = two_seats(client, me, 0), waiting(client, me)
    doc = exported(server, me.access)
    assert {m["id"] for m in doc["matches"]} == {turn.match_id, waits.match_id}
    assert [s["id"] for s in doc["sessions"]] == [me.refresh.split(".")[1]]
    ticket = client.gql(EXPORT, token=me.access)["me"]["export"]
    got = httpx.get(server + ticket["url"], timeout=30)
    assert got.status_code == 200 and orjson.loads(got.content)["profile"]["id"] == me.player
    assert httpx.get(server + ticket["url"], timeout=30).status_code == 401
