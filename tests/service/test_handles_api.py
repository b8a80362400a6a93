"""Player handles over HTTP: shown by me and GET /v1/me, changed by updateProfile and PATCH /v1/me (typed refusals,
a daily limit), unique across API processes under concurrent requests."""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from redis import Redis

from firebreak.players import handles, keys
from tests.service.conftest import Client
from tests.service.players_support import CREATE_TOKEN, guest, rest
from tests.service.support import wait_for

UPDATE = """mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename
  ... on ProfileUpdated { player { id name handle kind } } ... on BadHandle { code reason message }
  ... on Problem { code message } } }"""
ME = "{ me { id name handle } }"


def fresh(stem: str = "h") -> str:
    """A handle no other test holds."""
    return f"{stem}{secrets.token_hex(4)}"


def test_a_guest_has_a_handle_on_both_surfaces(client: Client, server: str) -> None:
    ann = guest(client, "Ann Smith")
    me = client.gql(ME, token=ann.access)["me"]
    assert me["handle"].startswith("ann-smith-") and me["handle"][10:].isdigit() and len(me["handle"]) == 14
    got = rest(server, "GET", "/v1/me", ann.access)
    assert got.status_code == 200 and got.json()["handle"] == me["handle"]
    other = guest(client, "Ann Smith")
    assert client.gql(ME, token=other.access)["me"]["handle"] != me["handle"]  # same name, another handle


def test_update_profile_changes_handle_and_name_on_graphql(client: Client, redis: Redis) -> None:
    ann = guest(client, "ann")
    old = client.gql(ME, token=ann.access)["me"]["handle"]
    wanted = fresh("Ann.")
    done = client.gql(UPDATE, {"input": {"handle": wanted, "name": "Ann B."}}, token=ann.access)["updateProfile"]
    assert done == {"__typename": "ProfileUpdated", "player": {"id": ann.player, "name": "Ann B.", "handle": wanted,
                                                               "kind": "GUEST"}}
    assert client.gql(ME, token=ann.access)["me"] == {"id": ann.player, "name": "Ann B.", "handle": wanted}
    assert redis.get(keys.handle(handles.key(old))) is None  # the old handle is free
    bob = guest(client, "bob")
    taken = client.gql(UPDATE, {"input": {"handle": wanted.upper()}}, token=bob.access)["updateProfile"]
    assert taken["__typename"] == "HandleTaken" and taken["code"] == "HANDLE_TAKEN"
    mine = client.gql(UPDATE, {"input": {"handle": old}}, token=bob.access)["updateProfile"]
    assert mine["player"]["handle"] == old


def test_bad_handles_are_typed_refusals_that_change_nothing(client: Client, server: str) -> None:
    ann = guest(client, "ann")
    before = client.gql(ME, token=ann.access)["me"]
    for bad, reason in [("ab", "too_short"), ("x" * 25, "too_long"), ("a b c", "characters"),
                        ("ann-", "punctuation"), ("p\u0430ypal", "mixed_script")]:
        answer = client.gql(UPDATE, {"input": {"handle": bad, "name": "changed"}}, token=ann.access)["updateProfile"]
        assert answer["__typename"] == "BadHandle" and (answer["code"], answer["reason"]) == ("BAD_HANDLE", reason)
        refused = rest(server, "PATCH", "/v1/me", ann.access, {"handle": bad, "name": "changed"})
        assert refused.status_code == 422, refused.text
        assert (refused.json()["code"], refused.json()["reason"]) == ("BAD_HANDLE", reason)
    named = client.gql(UPDATE, {"input": {"name": " "}}, token=ann.access)["updateProfile"]
    assert named["__typename"] == "InvalidInput" and named["code"] == "BAD_NAME"
    assert client.gql(ME, token=ann.access)["me"] == before


def test_patch_me_changes_the_profile_and_a_token_may_not(client: Client, server: str) -> None:
    ann = guest(client, "ann")
    wanted = fresh()
    done = rest(server, "PATCH", "/v1/me", ann.access, {"handle": wanted})
    assert done.status_code == 200, done.text
    assert done.json()["player"] == {"id": ann.player, "name": "ann", "handle": wanted, "kind": "GUEST"}
    bob = guest(client, "bob")
    taken = rest(server, "PATCH", "/v1/me", bob.access, {"handle": wanted.upper()})
    assert taken.status_code == 409 and taken.json()["code"] == "HANDLE_TAKEN"
    token = client.gql(CREATE_TOKEN, {"input": {"name": "t", "scopes": ["PLAY"]}}, token=ann.access)
    pat = token["createAccessToken"]["token"]
    forbidden = rest(server, "PATCH", "/v1/me", pat, {"name": "x"})
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "FORBIDDEN_SCOPE"
    scoped = client.gql(UPDATE, {"input": {"name": "x"}}, token=pat)["updateProfile"]
    assert scoped["__typename"] == "ForbiddenScope"
    nobody = client.gql(UPDATE, {"input": {"name": "x"}})["updateProfile"]
    assert nobody["__typename"] == "Unauthenticated"
    assert rest(server, "GET", "/v1/me", ann.access).json()["name"] == "ann"


def test_handle_changes_are_rate_limited_per_day(client: Client, server: str) -> None:
    ann = guest(client, "ann")
    for _ in range(3):  # FIREBREAK_HANDLE_CHANGES_PER_DAY's default
        assert rest(server, "PATCH", "/v1/me", ann.access, {"handle": fresh()}).status_code == 200
    held = rest(server, "GET", "/v1/me", ann.access).json()["handle"]
    limited = rest(server, "PATCH", "/v1/me", ann.access, {"handle": fresh()})
    assert limited.status_code == 429 and limited.json()["code"] == "RATE_LIMITED"
    assert 0 < limited.json()["retryAfter"] <= 86400 and int(limited.headers["retry-after"]) >= 1
    answer = client.post(UPDATE, {"input": {"handle": fresh()}}, token=ann.access).json()
    assert answer["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
    assert rest(server, "PATCH", "/v1/me", ann.access, {"name": "renamed"}).status_code == 200  # names: no limit
    assert rest(server, "GET", "/v1/me", ann.access).json()["handle"] == held


def test_racing_claims_across_two_api_processes_leave_one_holder(client: Client, server: str, second_server: str,
                                                                 redis: Redis) -> None:
    players = [guest(client, f"racer{n}") for n in range(16)]
    wanted = fresh("Race")
    spellings = [wanted, wanted.upper(), wanted.lower(), wanted.replace("a", "\uff41")]  # one handle, four spellings

    def claim(n: int) -> httpx.Response:
        base = (server, second_server)[n % 2]
        return rest(base, "PATCH", "/v1/me", players[n].access, {"handle": spellings[n % 4]})

    with ThreadPoolExecutor(len(players)) as pool:
        answers = list(pool.map(claim, range(len(players))))
    assert sorted(a.status_code for a in answers) == [200] + [409] * (len(players) - 1), [a.text for a in answers]
    winner = next(n for n, a in enumerate(answers) if a.status_code == 200)
    holder = redis.get(keys.handle(handles.key(wanted)))
    assert holder is not None and holder.split(" ")[0] == players[winner].player
    shown = [rest(server, "GET", "/v1/me", p.access).json()["handle"] for p in players]
    assert sum(handles.key(h) == handles.key(wanted) for h in shown) == 1
    assert len({handles.key(h) for h in shown}) == len(players)


CREATE = """mutation { createMatch(input: {title: "greatfire", seats: 3}) { __typename
  ... on MatchCreated { matchId hostToken } } }"""
INVITE = """mutation($id: ID!, $handles: [String!]!, $ids: [ID!]! = []) {
  invitePlayers(input: {matchId: $id, handles: $handles, playerIds: $ids}) { __typename
  ... on PlayersInvited { playerIds } ... on Problem { code message } } }"""
INVITED = "{ me { invitations { match { id } from { id name handle } } } }"
CANCEL = """mutation($id: ID!) { cancelMatch(input: {matchId: $id}) { __typename } }"""


def test_players_are_invited_by_handle_and_see_the_inviters_handle(client: Client, server: str) -> None:
    ann, bob, cat = guest(client, "ann"), guest(client, "bob"), guest(client, "cat")
    ann_handle = client.gql(ME, token=ann.access)["me"]["handle"]
    bob_handle, cat_handle = (client.gql(ME, token=p.access)["me"]["handle"] for p in (bob, cat))
    created = client.gql(CREATE, token=ann.access)["createMatch"]
    match_id = created["matchId"]
    unknown = client.gql(INVITE, {"id": match_id, "handles": [bob_handle, fresh("nobody")]}, ann.access)
    assert unknown["invitePlayers"]["code"] == "PLAYER_NOT_FOUND"
    twice = client.gql(INVITE, {"id": match_id, "handles": [bob_handle], "ids": [bob.player]}, ann.access)
    assert twice["invitePlayers"]["code"] == "TOO_MANY_INVITATIONS"
    sent = client.gql(INVITE, {"id": match_id, "handles": [bob_handle.upper()]}, ann.access)["invitePlayers"]
    assert sent == {"__typename": "PlayersInvited", "playerIds": [bob.player]}
    by_rest = rest(server, "POST", f"/v1/matches/{match_id}/invitations", ann.access, {"handles": [cat_handle]})
    assert by_rest.status_code == 201 and by_rest.json()["playerIds"] == [cat.player], by_rest.text
    missing = rest(server, "POST", f"/v1/matches/{match_id}/invitations", ann.access, {"handles": ["no-such-1"]})
    assert (missing.status_code, missing.json()["code"]) == (404, "PLAYER_NOT_FOUND")
    (listed,) = client.gql(INVITED, token=bob.access)["me"]["invitations"]
    assert listed["from"] == {"id": ann.player, "name": "ann", "handle": ann_handle}
    (item,) = rest(server, "GET", "/v1/me/invitations", cat.access).json()["items"]
    assert item["from"] == {"id": ann.player, "name": "ann", "handle": ann_handle}


def test_the_export_shows_each_players_handle(client: Client, server: str) -> None:
    ann = guest(client, "ann")
    ann_handle = client.gql(ME, token=ann.access)["me"]["handle"]
    match_id = client.gql(CREATE, token=ann.access)["createMatch"]["matchId"]
    assert rest(server, "POST", f"/v1/matches/{match_id}/seats", ann.access, {}).status_code == 201
    assert client.gql(CANCEL, {"id": match_id}, ann.access)["cancelMatch"]["__typename"] != "NotCreator"
    seats = rest(server, "GET", f"/v1/matches/{match_id}/export").json()["seats"]
    (mine,) = [s for s in seats if s.get("player") == ann.player]
    assert mine["handle"] == ann_handle and mine["name"] == "ann"
    assert all("handle" not in s for s in seats if not s.get("player"))


SEATS = """query($id: ID!) { match(id: $id) { seats { seat name player handle } } }"""


def test_a_seat_shows_its_players_handle_as_it_is_now(client: Client, server: str) -> None:
    ann = guest(client, "ann")
    match_id = client.gql(CREATE, token=ann.access)["createMatch"]["matchId"]
    joined = rest(server, "POST", f"/v1/matches/{match_id}/seats", ann.access, {})
    seat = joined.json()["seat"]
    assert rest(server, "POST", f"/v1/matches/{match_id}/seats", None, {"name": "anon"}).status_code == 201
    seats = {s["seat"]: s for s in client.gql(SEATS, {"id": match_id})["match"]["seats"]}
    handle = client.gql(ME, token=ann.access)["me"]["handle"]
    assert (seats[seat]["name"], seats[seat]["player"], seats[seat]["handle"]) == ("ann", ann.player, handle)
    assert [s["handle"] for n, s in seats.items() if n != seat] == [None, None]  # a token's seat, an open seat
    renamed = fresh("seated")
    assert rest(server, "PATCH", "/v1/me", ann.access, {"handle": renamed}).status_code == 200
    seats = {s["seat"]: s for s in client.gql(SEATS, {"id": match_id})["match"]["seats"]}
    assert seats[seat]["handle"] == renamed  # the handle now, never a freed one another player may take
    one = rest(server, "GET", f"/v1/matches/{match_id}/seats/{seat}").json()
    assert (one["player"], one["handle"]) == (ann.player, renamed)
    other = rest(server, "GET", f"/v1/matches/{match_id}/seats/{(seat + 1) % 3}").json()
    assert other["handle"] is None


def test_the_players_own_export_shows_the_others_handles(client: Client, server: str) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    ann_handle, bob_handle = (client.gql(ME, token=p.access)["me"]["handle"] for p in (ann, bob))
    played = client.gql(CREATE, token=ann.access)["createMatch"]["matchId"]
    for who in (ann, bob):
        assert rest(server, "POST", f"/v1/matches/{played}/seats", who.access, {}).status_code == 201
    invited = client.gql(CREATE, token=ann.access)["createMatch"]["matchId"]
    assert client.gql(INVITE, {"id": invited, "handles": [bob_handle]}, ann.access)["invitePlayers"][
        "__typename"] == "PlayersInvited"

    def exported() -> Any:
        got = rest(server, "GET", "/v1/me/export", bob.access)
        assert got.status_code == 200, got.text
        return got.json()

    wait_for(lambda: played in {m["id"] for m in exported()["matches"]}, "the match in bob's index")
    doc = exported()
    (match,) = [m for m in doc["matches"] if m["id"] == played]
    others = {o["player"]: o for o in match["others"]}
    assert others[ann.player]["handle"] == ann_handle and others[ann.player]["name"] == "ann"
    assert all("handle" not in o for o in match["others"] if o["player"] is None)
    (invitation,) = doc["invitations"]
    assert invitation["from"] == {"id": ann.player, "name": "ann", "handle": ann_handle}


def test_one_players_racing_renames_leave_one_handle_held(client: Client, server: str, second_server: str,
                                                          redis: Redis) -> None:
    ann = guest(client, "ann")
    old = client.gql(ME, token=ann.access)["me"]["handle"]
    wanted = [fresh(f"r{n}x") for n in range(8)]

    def rename(n: int) -> httpx.Response:
        return rest((server, second_server)[n % 2], "PATCH", "/v1/me", ann.access, {"handle": wanted[n]})

    with ThreadPoolExecutor(len(wanted)) as pool:
        answers = list(pool.map(rename, range(len(wanted))))
    assert {a.status_code for a in answers} <= {200, 409, 429} and 200 in {a.status_code for a in answers}
    held = rest(server, "GET", "/v1/me", ann.access).json()["handle"]
    assert held in wanted
    for handle in [old, *wanted]:  # the handle shown is held by the player; every other one is free
        holder = redis.get(keys.handle(handles.key(handle)))
        assert (holder is not None and holder.split(" ")[0] == ann.player) == (handle == held), handle
