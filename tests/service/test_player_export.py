"""A player's data export (issue 48, section 1): GET /v1/me/export streams one JSON document of everything kept about
the player (never a secret), with a session or a one-time ticket from GraphQL's me { export }; a personal access
token is refused. Over real API processes, a real Redis and real workers."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
from redis import Redis

from firebreak.matches import keys as match_keys
from tests.service.conftest import QUEUE, Client
from tests.service.players_support import CREATE_TOKEN, JOIN, Signed, device, guest, rest
from tests.service.support import Setup, create, wait_for

EXPORT = """{ me { export { __typename ... on DataExport { url ticket expiresIn }
  ... on Problem { code message } } } }"""
RESIGN = """mutation($input: ResignInput!) { resign(input: $input) { __typename ... on Problem { code message } } }"""
MY_MATCHES = "{ me { matches(first: 100) { edges { node { id status } } } } }"


def seat(c: Client, s: Setup, who: Signed, number: int) -> None:
    """Seat a player, bound to the seat."""
    joined = c.gql(JOIN, {"input": {"matchId": s.match_id, "seat": number}}, who.access)["joinMatch"]
    assert joined["__typename"] == "SeatJoined", joined


def exported(server: str, token: str | None = None, ticket: str | None = None) -> dict[str, Any]:
    """The export, read whole, checked to be one JSON document of this format."""
    path = "/v1/me/export" if ticket is None else f"/v1/me/export?ticket={ticket}"
    got = rest(server, "GET", path, token)
    assert got.status_code == 200, got.text
    assert got.headers["content-type"].startswith("application/json")
    assert got.headers["cache-control"] == "no-store" and "attachment" in got.headers["content-disposition"]
    doc: dict[str, Any] = orjson.loads(got.content)
    assert doc["format"] == "firebreak.player-export" and doc["version"] == 1
    return doc


def test_the_export_holds_the_players_data_and_never_a_secret(client: Client, server: str, redis: Redis) -> None:
    c = client
    ann, bob = guest(c, "ann"), guest(c, "bob")
    made = c.gql(CREATE_TOKEN, {"input": {"name": "my bot", "scopes": ["BOT"]}}, ann.access)["createAccessToken"]
    over = create(c, 2, 4801)
    seat(c, over, ann, 0)
    seat(c, over, bob, 1)
    resigned = c.gql(RESIGN, {"input": {"matchId": over.match_id}}, ann.access)["resign"]
    assert resigned["__typename"] == "Resignation", resigned
    waiting = create(c, 3, 4802)
    seat(c, waiting, ann, 0)
    wait_for(lambda: {e["node"]["id"] for e in c.gql(MY_MATCHES, token=ann.access)["me"]["matches"]["edges"]}
             >= {over.match_id, waiting.match_id}, "both matches indexed")
    got = rest(server, "GET", "/v1/me/export", ann.access)
    text = got.text
    doc = exported(server, ann.access)
    me = rest(server, "GET", "/v1/me", ann.access).json()
    assert doc["profile"] == {"id": ann.player, "handle": me["handle"], "name": "ann", "kind": "GUEST",
                              "created": doc["profile"]["created"]}
    assert doc["identities"] == []
    assert len(doc["sessions"]) == 1 and doc["sessions"][0]["began"] is not None
    assert [t["id"] for t in doc["accessTokens"]] == [made["accessToken"]["id"]]
    assert doc["accessTokens"][0]["scopes"] == ["BOT"]
    by_id = {m["id"]: m for m in doc["matches"]}
    assert set(by_id) == {over.match_id, waiting.match_id}
    done = by_id[over.match_id]
    assert done["status"] == "OVER" and done["endReason"] == "RESIGNED" and done["outcome"] == "LOST"
    assert done["seat"] == 0 and [o["player"] for o in done["others"]] == [bob.player]
    assert by_id[waiting.match_id]["status"] == "WAITING"
    assert all(isinstance(e["id"], str) and e["type"] for e in doc["events"])
    assert doc["pushRegistrations"] == [] and doc["seeks"] == [] and doc["invitations"] == []
    # never a secret: not the access or refresh token, the personal token, nor any stored hash of them
    secret_parts = [ann.access, ann.refresh, ann.refresh.rsplit(".", 1)[1], made["token"],
                    made["token"].rsplit(".", 1)[1]]
    stored = [v for key in redis.scan_iter(match=f"player:{{p:{ann.player}}}*") if redis.type(key) == "hash"
              for v in redis.hvals(key)]
    hashes = [v for v in stored if len(v) == 64]  # the refresh secret's, the token's, the device's
    assert hashes and not [part for part in secret_parts + hashes if part in text]


def test_a_personal_access_token_is_refused_the_export(client: Client, server: str) -> None:
    c = client
    ann = guest(c, "ann")
    token = c.gql(CREATE_TOKEN, {"input": {"name": "bot", "scopes": ["PLAY"]}}, ann.access)["createAccessToken"]
    got = rest(server, "GET", "/v1/me/export", token["token"])
    assert got.status_code == 403 and got.json()["code"] == "FORBIDDEN_SCOPE"
    answer = c.gql(EXPORT, token=token["token"])["me"]["export"]
    assert answer["__typename"] == "ForbiddenScope" and answer["code"] == "FORBIDDEN_SCOPE"
    assert rest(server, "GET", "/v1/me/export").status_code == 401  # no credential at all


def test_a_graphql_ticket_downloads_once(client: Client, server: str) -> None:
    c = client
    ann = guest(c, "ann")
    ticket = c.gql(EXPORT, token=ann.access)["me"]["export"]
    assert ticket["__typename"] == "DataExport" and ticket["expiresIn"] > 0
    assert ticket["url"] == f"/v1/me/export?ticket={ticket['ticket']}"
    got = httpx_get(server + ticket["url"])
    assert got.status_code == 200 and orjson.loads(got.content)["profile"]["id"] == ann.player
    again = httpx_get(server + ticket["url"])
    assert again.status_code == 401 and again.json()["code"] == "UNAUTHENTICATED"
    forged = httpx_get(server + "/v1/me/export?ticket=fbx_" + "A" * 43)
    assert forged.status_code == 401


def test_a_long_history_is_exported_whole_across_pages(client: Client, server: str) -> None:
    """More matches than one page of the export's reads (100): every one is in the document once."""
    c = client
    ann = guest(c, "ann")
    wanted = set()
    for number in range(105):
        s = create(c, 2, 5000 + number)
        seat(c, s, ann, 0)
        wanted.add(s.match_id)
    ids = [m["id"] for m in exported(server, ann.access)["matches"]]
    assert len(ids) == len(set(ids)) == 105 and set(ids) == wanted


def httpx_get(url: str) -> httpx.Response:
    """A GET with no credential."""
    return httpx.get(url, timeout=30)


def test_the_export_lists_the_live_sessions_only(client: Client, server: str, redis: Redis) -> None:
    """Each sign-in begins a session listed by the export; one signed out is no longer listed (and leaves the
    index), and signing out everywhere leaves none but the one begun after it."""
    c = client
    phone = device()
    first = guest(c, "ann", phone)
    second = guest(c, "ann", phone)
    assert first.player == second.player
    assert len(exported(server, second.access)["sessions"]) == 2
    assert rest(server, "POST", "/v1/auth/sign-out", first.access).status_code == 200
    listed = exported(server, second.access)["sessions"]
    assert len(listed) == 1 and redis.zcard(f"player:{{p:{first.player}}}:families") == 1
    assert second.refresh.split(".")[1] == listed[0]["id"]
    assert rest(server, "POST", "/v1/auth/sign-out?everywhere=true", second.access).status_code == 200
    third = guest(c, "ann", phone)
    assert [s["id"] for s in exported(server, third.access)["sessions"]] == [third.refresh.split(".")[1]]


def test_a_match_redis_let_go_is_exported_from_the_archive(client: Client, server: str, redis: Redis) -> None:
    """A finished match the workers archived and Redis then let go is still in the export, read from the archive."""
    c = client
    ann, bob = guest(c, "ann"), guest(c, "bob")
    s = create(c, 2, 4803)
    seat(c, s, ann, 0)
    seat(c, s, bob, 1)
    assert c.gql(RESIGN, {"input": {"matchId": s.match_id}}, bob.access)["resign"]["__typename"] == "Resignation"
    wait_for(lambda: redis.zscore(match_keys.finished_pending(QUEUE), s.match_id) is None, "the match archived")
    redis.delete(match_keys.archive(s.match_id), *match_keys.all_of(s.match_id))  # as its time to live would
    assert rest(server, "GET", f"/v1/matches/{s.match_id}").status_code == 200  # served from the archive
    found = [m for m in exported(server, ann.access)["matches"] if m["id"] == s.match_id]
    assert len(found) == 1 and found[0]["status"] == "OVER" and found[0]["outcome"] == "WON"
    assert found[0]["endReason"] == "RESIGNED" and [o["player"] for o in found[0]["others"]] == [bob.player]


def test_a_player_gets_a_few_exports_an_hour(client: Client, server: str) -> None:
    """Each export reads the player's whole history: after FIREBREAK_RATE_EXPORTS_BURST (3) downloads the next is
    refused (429 RATE_LIMITED with Retry-After), whether asked with the bearer credential or a ticket; another
    player is not held back."""
    ann, bob = guest(client, "ann"), guest(client, "bob")
    for _ in range(3):
        assert rest(server, "GET", "/v1/me/export", ann.access).status_code == 200
    refused = rest(server, "GET", "/v1/me/export", ann.access)
    assert refused.status_code == 429 and refused.json()["code"] == "RATE_LIMITED", refused.text
    assert 0 < float(refused.headers["retry-after"]) <= 3600 / 12 + 1
    url = client.gql("{ me { export { ... on DataExport { url } } } }", token=ann.access)["me"]["export"]["url"]
    assert httpx.get(f"{server}{url}", timeout=30).status_code == 429
    assert rest(server, "GET", "/v1/me/export", bob.access).status_code == 200
