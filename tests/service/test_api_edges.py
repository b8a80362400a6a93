"""Faults found from outside the API (issue 47): a forged or tampered player credential is refused by every REST
route as by GraphQL, and a credential that is not a player credential is `malformed`, not `missing`. An API process
of its own over a Redis of its own, with the failed-authentication limit off: the walk presents hundreds of bad
credentials from one address."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import jwt
import pytest

from firebreak.matches.embedded import EmbeddedRedis
from tests.service.conftest import Client, api_process
from tests.service.players_support import CREATE_TOKEN, REFRESH, SIGN_OUT, device, guest, rest

ADMIN = "edges-admin.token-0123456789.abcdef"  # shaped like a JWT (an operator may choose such): no player's
SIGN_IN_OPERATIONS = {"signInAsGuest", "refreshSession"}  # their credential is in the body, as over GraphQL


@pytest.fixture(scope="module")
def edges(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process over a Redis of its own, with the failed-authentication limit off and an admin token."""
    redis = EmbeddedRedis(tmp_path_factory.mktemp("edges-redis"), appendonly=False, prefer_bundled=False)
    url = redis.start()
    try:
        with api_process(url, tmp_path_factory.mktemp("edges") / "api.log",
                         {"FIREBREAK_RATE_AUTH_FAILURES_PER_SECOND": "0", "FIREBREAK_ADMIN_TOKEN": ADMIN}) as base:
            yield base
    finally:
        redis.stop()


@pytest.fixture(scope="module")
def c(edges: str) -> Iterator[Client]:
    """A GraphQL client of that process."""
    client = Client(edges)
    yield client
    client.http.close()


def taken(base: str, match_id: str) -> list[bool]:
    """Which seats of a match are taken, read as a spectator."""
    answer = rest(base, "GET", f"/v1/matches/{match_id}")
    assert answer.status_code == 200, answer.text
    return [seat["taken"] for seat in answer.json()["seats"]]


# ----- a forged or tampered player credential is refused by every route ----------------------------------------

def tampered(access: str) -> dict[str, str]:
    """Bad player credentials made from a good access token: signed with another key, a changed signature, a
    signature whose last character no longer decodes, and a personal access token that was never made."""
    header, payload, signature = access.split(".")
    claims = jwt.decode(access, options={"verify_signature": False})
    middle = len(signature) // 2
    changed = signature[:middle] + ("A" if signature[middle] != "A" else "B") + signature[middle + 1:]
    return {"forged": jwt.encode(claims, "not-the-service-key-0123456789abcdef", algorithm="HS256"),
            "changed signature": f"{header}.{payload}.{changed}",
            "undecodable": f"{header}.{payload}.{signature[:-1]}{'x' if signature[-1] != 'x' else 'y'}",
            "made up token": f"fbp_{secrets.token_hex(8)}.{secrets.token_hex(8)}.{secrets.token_urlsafe(32)}"}


def operations(base: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Every operation of the served OpenAPI document: (method, path template, operation)."""
    document = httpx.get(f"{base}/v1/openapi.json", timeout=30).json()
    return [(method.upper(), path, op) for path, ops in document["paths"].items() for method, op in ops.items()]


def filled(path: str, match_id: str) -> str:
    """A path template with plausible values: the match, a title, a seat, ids of the right shape."""
    values = {"id": "greatfire" if path.startswith("/v1/titles/") else match_id, "title": "greatfire", "seat": "0",
              "matchId": match_id, "tokenId": "0123456789abcdef", "endpointId": "0123456789abcdef",
              "deliveryId": "0123456789abcdef", "subscriptionId": "0123456789abcdef", "playerId": "0123456789abcdef",
              "reportId": "0123456789abcdef", "handle": "ann-1234"}
    for name, value in values.items():
        path = path.replace("{" + name + "}", value)
    assert "{" not in path, path
    return path


def request(base: str, method: str, path: str, op: dict[str, Any], token: str) -> httpx.Response:
    """One call of an operation with its example body (if it takes one), its required query parameters (an enum's
    first value, else a plausible string) and a bearer credential."""
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("example")
    if "requestBody" in op and body is None:
        body = {}
    query = {p["name"]: (p.get("schema", {}).get("enum") or ["ann"])[0] for p in op.get("parameters", [])
             if p.get("in") == "query" and p.get("required")}
    return httpx.request(method, f"{base}{path}", json=body, params=query, timeout=30,
                         headers={"authorization": f"Bearer {token}", "accept": "application/json"})


def test_every_rest_route_refuses_a_bad_player_credential(edges: str, c: Client) -> None:
    ann = guest(c, "ann")
    created = rest(edges, "POST", "/v1/matches", body={"title": "greatfire", "seats": 3})
    assert created.status_code == 201, created.text
    match_id = created.json()["matchId"]
    lobby = rest(edges, "GET", "/v1/matches?status=WAITING&first=100").json()["items"]
    walked = operations(edges)
    assert len(walked) > 40
    for kind, credential in tampered(ann.access).items():
        for method, template, op in walked:
            if op["operationId"] in SIGN_IN_OPERATIONS:
                continue
            answer = request(edges, method, filled(template, match_id), op, credential)
            where = f"{kind}: {method} {template}: {answer.status_code} {answer.text[:300]}"
            assert answer.status_code == 401, where
            problem = answer.json()
            assert problem["code"] == "UNAUTHENTICATED" and problem["reason"] in ("invalid", "malformed",
                                                                                   "unknown"), where
            assert 'error="invalid_token"' in answer.headers["www-authenticate"], where
            assert "UNAUTHENTICATED" in op["responses"]["401"]["description"], where  # and the document says so
        # GraphQL refuses it on a read that needs no credential, as REST now does
        titles = c.post("{ titles { id } }", token=credential).json()
        assert titles["data"] is None and titles["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED", titles
    # nothing changed: no seat taken, no match made
    assert taken(edges, match_id) == [False, False, False]
    assert rest(edges, "GET", "/v1/matches?status=WAITING&first=100").json()["items"] == lobby
    # the admin token is no player credential, whatever its shape: the admin routes take it, on both surfaces
    assert rest(edges, "GET", "/v1/admin/webhooks", ADMIN).status_code == 200
    assert c.gql("{ webhookEndpoints { __typename } }", token=ADMIN)["webhookEndpoints"] == {
        "__typename": "WebhookEndpointList"}
    assert rest(edges, "GET", "/v1/titles", ADMIN).status_code == 200


def test_signing_in_and_refreshing_do_not_read_the_bearer_credential(edges: str, c: Client) -> None:
    """An app that sends its expired or broken access token along with a sign-in or a refresh is not stopped by
    it (the credential of these two is in the body), as over GraphQL."""
    ann = guest(c, "ann")
    bad = tampered(ann.access)["changed signature"]
    signed = rest(edges, "POST", "/v1/auth/guest", bad, body={"name": "ann", "deviceId": device()})
    assert signed.status_code == 200, signed.text
    refreshed = rest(edges, "POST", "/v1/auth/refresh", bad, body={"refreshToken": ann.refresh})
    assert refreshed.status_code == 200, refreshed.text
    again = c.gql(REFRESH, {"t": refreshed.json()["refreshToken"]}, bad)["refreshSession"]
    assert again["__typename"] == "Session", again


# ----- a credential that is not a player credential is malformed, not missing ---------------------------------

@pytest.mark.parametrize("header", ["Bearer garbage", "Basic YW5uOnNlY3JldA==", "Bearer a.b.c", "garbage"])
def test_a_credential_that_is_not_a_player_credential_is_malformed(edges: str, c: Client, header: str) -> None:
    answer = httpx.get(f"{edges}/v1/me", headers={"authorization": header}, timeout=30)
    assert answer.status_code == 401, answer.text
    assert (answer.json()["code"], answer.json()["reason"]) == ("UNAUTHENTICATED", "malformed"), answer.text
    assert 'error="invalid_token"' in answer.headers["www-authenticate"]
    sent = c.http.post("/graphql", headers={"authorization": header}, json={
        "query": CREATE_TOKEN, "variables": {"input": {"name": "bot", "scopes": ["BOT"]}}}).json()
    made = sent["data"]["createAccessToken"]
    assert (made["__typename"], made["code"]) == ("Unauthenticated", "UNAUTHENTICATED"), made
    reason = c.http.post("/graphql", headers={"authorization": header}, json={
        "query": SIGN_OUT, "variables": {"e": False}}).json()["data"]["signOut"]
    assert (reason["__typename"], reason["reason"]) == ("Unauthenticated", "malformed"), reason


def test_no_credential_at_all_is_still_missing(edges: str, c: Client) -> None:
    answer = httpx.get(f"{edges}/v1/me", timeout=30)
    assert answer.status_code == 401 and answer.json()["reason"] == "missing", answer.text
    assert "error=" not in answer.headers["www-authenticate"]
    out = c.gql(SIGN_OUT, {"e": False})["signOut"]
    assert (out["__typename"], out["reason"]) == ("Unauthenticated", "missing"), out
