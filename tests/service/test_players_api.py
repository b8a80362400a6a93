"""Players through both surfaces of a real API process over real Redis: guest sign-in, refresh rotation and reuse,
signing out, me, personal access tokens and their scopes, and a player's credential acting for its seats from two
devices (issue 24, sections 1 and 5)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx

from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import (
    CREATE_TOKEN,
    GUEST,
    JOIN,
    ME,
    REFRESH,
    REVOKE_TOKEN,
    SIGN_OUT,
    codes,
    device,
    guest,
    rest,
)


def _me(c: Client, token: str | None) -> dict[str, Any]:
    return c.post(ME, token=token).json()


def test_a_guest_signs_in_on_both_surfaces_and_reads_me(client: Client, server: str) -> None:
    kept = device()
    signed = guest(client, "  Ada  ", kept)
    assert signed.name == "Ada"
    me = client.gql(ME, token=signed.access)["me"]
    assert me == {"id": signed.player, "name": "Ada", "kind": "GUEST", "accessTokens": []}
    again = rest(server, "POST", "/v1/auth/guest", body={"name": "Another name", "deviceId": kept})
    assert again.status_code == 200, again.text
    session = again.json()
    assert session["player"] == {"id": signed.player, "name": "Ada", "kind": "GUEST",  # the same device's guest
                                 "handle": session["player"]["handle"]}
    assert session["player"]["handle"].startswith("ada-")
    assert session["accessTokenExpiresIn"] > 0 and session["refreshTokenExpiresIn"] > session["accessTokenExpiresIn"]
    assert rest(server, "GET", "/v1/me", session["accessToken"]).json()["id"] == signed.player
    assert client.gql(ME)["me"] is None  # no credential: nobody
    s = h.create(client, 3, 2401)
    seat_token = h.join(client, s, "bob")["token"]
    assert client.gql(ME, token=seat_token)["me"] is None  # a seat token is no player's
    missing = rest(server, "GET", "/v1/me")
    assert missing.status_code == 401 and missing.json()["code"] == "UNAUTHENTICATED"
    assert missing.headers["www-authenticate"] == 'Bearer realm="firebreak"'  # none sent: no error attribute


def test_bad_names_and_device_ids_are_typed_refusals(client: Client, server: str) -> None:
    for name, device_id, code in (("", device(), "BAD_NAME"), ("x" * 41, device(), "BAD_NAME"),
                                  ("ann", "short", "BAD_DEVICE_ID")):
        answer = client.gql(GUEST, {"input": {"name": name, "deviceId": device_id}})["signInAsGuest"]
        assert answer["__typename"] == "InvalidInput" and answer["code"] == code, answer
        refused = rest(server, "POST", "/v1/auth/guest", body={"name": name, "deviceId": device_id})
        assert refused.status_code == 422 and refused.json()["code"] == code, refused.text


def test_refresh_rotates_and_a_reused_refresh_token_revokes_the_session(client: Client, server: str) -> None:
    first = guest(client)
    second = client.gql(REFRESH, {"t": first.refresh})["refreshSession"]
    assert second["__typename"] == "Session" and second["player"]["id"] == first.player
    assert second["refreshToken"] != first.refresh
    third = rest(server, "POST", "/v1/auth/refresh", body={"refreshToken": second["refreshToken"]})
    assert third.status_code == 200, third.text
    assert client.gql(ME, token=third.json()["accessToken"])["me"]["id"] == first.player
    reused = client.gql(REFRESH, {"t": first.refresh})["refreshSession"]  # an old one: the family is revoked
    assert (reused["__typename"], reused["code"], reused["reason"]) == ("Unauthenticated", "UNAUTHENTICATED", "reused")
    latest = rest(server, "POST", "/v1/auth/refresh", body={"refreshToken": third.json()["refreshToken"]})
    assert latest.status_code == 401 and latest.json()["reason"] == "revoked", latest.text
    assert 'error="invalid_token"' in latest.headers["www-authenticate"]
    body = _me(client, third.json()["accessToken"])  # the family's access tokens stop too
    assert body["data"] is None and codes(body) == ["UNAUTHENTICATED"], body
    assert body["errors"][0]["extensions"]["reason"] == "revoked"
    forged = client.gql(REFRESH, {"t": "not a refresh token"})["refreshSession"]
    assert forged["__typename"] == "Unauthenticated" and forged["reason"] == "malformed"


def test_sign_out_ends_one_session_and_everywhere_ends_them_all(client: Client, server: str) -> None:
    kept = device()
    phone, tablet, laptop = guest(client, "ann", kept), guest(client, "ann", kept), guest(client, "ann", kept)
    assert phone.player == tablet.player == laptop.player
    out = client.gql(SIGN_OUT, {"e": False}, phone.access)["signOut"]
    assert out["__typename"] == "SignedOut" and out["everywhere"] is False
    assert codes(_me(client, phone.access)) == ["UNAUTHENTICATED"]
    assert client.gql(REFRESH, {"t": phone.refresh})["refreshSession"]["reason"] == "revoked"
    assert client.gql(ME, token=tablet.access)["me"]["id"] == tablet.player  # the other devices stay in
    everywhere = rest(server, "POST", "/v1/auth/sign-out?everywhere=true", tablet.access)
    assert everywhere.status_code == 200 and everywhere.json() == {"everywhere": True}, everywhere.text
    for signed in (tablet, laptop):
        assert codes(_me(client, signed.access)) == ["UNAUTHENTICATED"]
        assert client.gql(REFRESH, {"t": signed.refresh})["refreshSession"]["__typename"] == "Unauthenticated"
    assert guest(client, "ann", kept).player == phone.player  # signing in again works
    nobody = client.gql(SIGN_OUT, {"e": False})["signOut"]
    assert nobody["__typename"] == "Unauthenticated" and nobody["reason"] == "missing"


def test_personal_access_tokens_and_their_scopes(client: Client, server: str) -> None:
    owner = guest(client, "botwriter")
    made = client.gql(CREATE_TOKEN, {"input": {"name": "my bot", "scopes": ["BOT"]}}, owner.access)
    made = made["createAccessToken"]
    assert made["__typename"] == "AccessTokenCreated" and made["token"].startswith("fbp_")
    assert made["accessToken"]["scopes"] == ["BOT"] and made["accessToken"]["expires"] is None
    pat = made["token"]
    me = client.gql(ME, token=pat)["me"]
    assert me["id"] == owner.player and [t["id"] for t in me["accessTokens"]] == [made["accessToken"]["id"]]
    assert pat not in str(me)
    # a token cannot make another, sign out or link: account operations need a sign-in
    again = client.gql(CREATE_TOKEN, {"input": {"name": "copy", "scopes": ["PLAY"]}}, pat)["createAccessToken"]
    assert again["__typename"] == "ForbiddenScope" and again["code"] == "FORBIDDEN_SCOPE", again
    assert client.gql(SIGN_OUT, {"e": True}, pat)["signOut"]["code"] == "FORBIDDEN_SCOPE"
    over_rest = rest(server, "POST", "/v1/me/tokens", pat, {"name": "copy", "scopes": ["PLAY"]})
    assert over_rest.status_code == 403 and over_rest.json()["code"] == "FORBIDDEN_SCOPE", over_rest.text
    for scopes, name in (([], "none"), (["PLAY"], "")):
        bad = client.gql(CREATE_TOKEN, {"input": {"name": name, "scopes": scopes}}, owner.access)["createAccessToken"]
        assert bad["__typename"] == "InvalidInput" and bad["code"] in ("BAD_SCOPES", "BAD_NAME"), bad
    play = rest(server, "POST", "/v1/me/tokens", owner.access, {"name": "cli", "scopes": ["PLAY"],
                                                                 "expiresInSeconds": 3600})
    assert play.status_code == 201 and play.json()["accessToken"]["expires"] > time.time(), play.text
    listed = rest(server, "GET", "/v1/me/tokens", owner.access).json()["items"]
    assert [t["name"] for t in listed] == ["my bot", "cli"]
    # a seat joined with a BOT token is played by a program; with a PLAY token, by a person
    s = h.create(client, 3, 2402)
    joined = client.gql(JOIN, {"input": {"matchId": s.match_id}}, pat)["joinMatch"]
    assert joined["__typename"] == "SeatJoined" and joined["player"] == owner.player
    seat = rest(server, "GET", f"/v1/matches/{s.match_id}/seats/{joined['seat']}").json()
    assert seat["program"] is True and seat["player"] == owner.player and seat["name"] == "botwriter", seat
    # revoked: it stops at once
    revoked = client.gql(REVOKE_TOKEN, {"id": made["accessToken"]["id"]}, owner.access)["revokeAccessToken"]
    assert revoked["__typename"] == "AccessTokenRevoked" and revoked["id"] == made["accessToken"]["id"]
    gone = rest(server, "GET", "/v1/me", pat)
    assert gone.status_code == 401 and gone.json()["reason"] == "unknown", gone.text
    twice = rest(server, "DELETE", f"/v1/me/tokens/{made['accessToken']['id']}", owner.access)
    assert twice.status_code == 404 and twice.json()["code"] == "TOKEN_NOT_FOUND", twice.text


def test_one_seat_per_player_even_when_joins_race(client: Client, server: str) -> None:
    player = guest(client, "racer")
    s = h.create(client, 4, 2403)

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as http:
            return list(await asyncio.gather(*(
                http.post(f"/v1/matches/{s.match_id}/seats", json={},
                          headers={"authorization": f"Bearer {player.access}"}) for _ in range(6))))

    answers = asyncio.run(race())
    assert sorted(r.status_code for r in answers) == [201] + [409] * 5, [r.text for r in answers]
    assert {r.json()["code"] for r in answers if r.status_code == 409} == {"ALREADY_SEATED"}
    again = client.gql(JOIN, {"input": {"matchId": s.match_id, "name": "again"}}, player.access)["joinMatch"]
    assert again["__typename"] == "AlreadySeated" and again["code"] == "ALREADY_SEATED"
    assert [seat["taken"] for seat in h.state(client, s.match_id, None)["seats"]].count(True) == 1


def test_a_player_plays_a_whole_match_from_two_devices(client: Client, server: str) -> None:
    """Two sessions of one device, a personal access token, the seat token and REST all act for the player's seat;
    a stranger's player credential cannot."""
    kept = device()
    phone, tablet = guest(client, "ann", kept), guest(client, "ann", kept)
    pat = client.gql(CREATE_TOKEN, {"input": {"name": "cli", "scopes": ["PLAY"]}}, phone.access)
    pat_token = pat["createAccessToken"]["token"]
    other, stranger = guest(client, "bob"), guest(client, "eve")
    s = h.create(client, 3, 2404)
    mine = client.gql(JOIN, {"input": {"matchId": s.match_id}}, phone.access)["joinMatch"]
    assert mine["__typename"] == "SeatJoined" and mine["player"] == phone.player and mine["token"]
    assert client.gql(JOIN, {"input": {"matchId": s.match_id}}, tablet.access)["joinMatch"]["code"] == \
        "ALREADY_SEATED"
    theirs = rest(server, "POST", f"/v1/matches/{s.match_id}/seats", other.access, {"name": "Bob B."})
    assert theirs.status_code == 201 and theirs.json()["player"] == other.player, theirs.text
    anonymous = h.join(client, s, "carol")  # no credential: today's seat token alone
    assert anonymous["started"]
    seats = {row["seat"]: row for row in rest(server, "GET", f"/v1/matches/{s.match_id}").json()["seats"]}
    assert seats[mine["seat"]]["name"] == "ann" and seats[mine["seat"]]["player"] == phone.player
    assert seats[anonymous["seat"]]["player"] is None and not seats[mine["seat"]]["program"]

    mine_credentials = [("gql", phone.access), ("gql", tablet.access), ("gql", pat_token),
                        ("gql", mine["token"]), ("rest", tablet.access)]
    credentials = {mine["seat"]: mine_credentials, theirs.json()["seat"]: [("gql", other.access)],
                   anonymous["seat"]: [("gql", anonymous["token"])]}
    rng = random.Random(24)
    used: set[str] = set()
    stranger_tried = False
    end = time.monotonic() + h.DEADLINE
    while time.monotonic() < end:
        m = h.state(client, s.match_id, None)
        if m["status"] == "OVER":
            break
        if not m["toAct"]:
            time.sleep(0.05)
            continue
        seat = m["toAct"][0]
        surface, token = credentials[seat][len(used) % len(credentials[seat])] if seat == mine["seat"] \
            else credentials[seat][0]
        view = h.state(client, s.match_id, token)
        assert view["you"] == seat, (view["you"], seat)
        action = rng.choice(view["legalActions"])
        if seat == mine["seat"] and not stranger_tried:
            stranger_tried = True
            refused = h.act(client, s.match_id, stranger.access, action, view["version"])
            assert refused["__typename"] == "Unauthorized" and refused["code"] == "UNAUTHORIZED", refused
            over_rest = rest(server, "POST", f"/v1/matches/{s.match_id}/actions", stranger.access,
                             {"action": action, "expectedVersion": view["version"]})
            assert over_rest.status_code == 401 and over_rest.json()["code"] == "UNAUTHORIZED", over_rest.text
            assert h.state(client, s.match_id, None)["version"] == view["version"]
        if surface == "rest":
            answer = rest(server, "POST", f"/v1/matches/{s.match_id}/actions", token,
                          {"action": action, "expectedVersion": view["version"]})
            assert answer.status_code == 200 and answer.json()["match"]["you"] == seat, answer.text
        else:
            result = h.act(client, s.match_id, token, action, view["version"])
            assert result["__typename"] == "ActionAccepted", result
        if seat == mine["seat"]:
            used.add(f"{len(used)}")
    else:
        raise AssertionError("the match did not finish")
    assert len(used) >= len(mine_credentials), "not every credential of the player acted"
    assert stranger_tried
    final = h.state(client, s.match_id, phone.access)
    assert final["status"] == "OVER" and final["you"] == mine["seat"]
    assert h.state(client, s.match_id, stranger.access)["you"] is None  # a player with no seat here: a spectator
