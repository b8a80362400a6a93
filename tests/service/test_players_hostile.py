"""Hostile player credentials against a private API process (its own Redis, a known session secret, the operator's
sign-in configured against a real JWKS served by the test): forged, expired, wrong-audience and alg-none tokens on
a query, a mutation and REST routes; a flood of guest registrations; the operator's JWT and linking a guest."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import jwt
import pytest

from firebreak.matches.embedded import EmbeddedRedis
from tests.players.support import AUDIENCE, ISSUER, Jwks, hand_signed
from tests.service import support as h
from tests.service.players_support import GUEST, JOIN, LINK, ME, codes, device

SECRET = "the private API's session secret, long enough for HS256"
REGISTRATION_BURST = 5
FORWARDED = "x-forwarded-for"


@pytest.fixture(scope="module")
def jwks() -> Iterator[Jwks]:
    """The operator's JWKS endpoint, serving one key "k1"."""
    with Jwks.one_key() as endpoint:
        yield endpoint


@pytest.fixture(scope="module")
def api(jwks: Jwks, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private API process over a Redis of its own (its buckets must not empty the shared server's); each test
    names its client by X-Forwarded-For, so that their limits do not meet."""
    folder = tmp_path_factory.mktemp("players-api")
    server = EmbeddedRedis(folder, appendonly=False, prefer_bundled=False)
    url = server.start()
    try:
        with h.private_service(url, folder, "players-hostile", workers=0, api=True,
                               FIREBREAK_SESSION_SECRET=SECRET, FIREBREAK_JWT_ISSUER=ISSUER,
                               FIREBREAK_JWT_AUDIENCE=AUDIENCE, FIREBREAK_JWKS_URL=jwks.url,
                               FIREBREAK_RATE_REGISTRATION_BURST=str(REGISTRATION_BURST),
                               FIREBREAK_RATE_REGISTRATION_PER_SECOND="0.01",
                               FIREBREAK_RATE_CLIENT_HEADER=FORWARDED) as private:
            assert private.base is not None
            yield private.base
    finally:
        server.stop()


class Http:
    """GraphQL and REST calls from one client address."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30,
                                 headers={FORWARDED: f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}."
                                                     f"{secrets.randbelow(250)}"})

    def gql(self, query: str, variables: dict[str, Any] | None = None, token: str | None = None) -> httpx.Response:
        """POST a GraphQL request."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)

    def data(self, query: str, variables: dict[str, Any] | None = None, token: str | None = None) -> Any:
        """The data of a GraphQL request that must succeed."""
        body = self.gql(query, variables, token).json()
        assert "errors" not in body, body
        return body["data"]

    def rest(self, method: str, path: str, token: str | None = None, body: Any = None) -> httpx.Response:
        """One REST call."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.http.request(method, path, json=body, headers=headers)


@pytest.fixture
def http(api: str) -> Iterator[Http]:
    """A client of the private API with an address of its own."""
    client = Http(api)
    yield client
    client.http.close()


def _session(http: Http, name: str = "ann") -> dict[str, Any]:
    answer = http.data(GUEST, {"input": {"name": name, "deviceId": device()}})["signInAsGuest"]
    assert answer["__typename"] == "Session", answer
    return dict(answer)


def _bad_token(case: str, real: str) -> str:
    """A bad variant of a real access token of the private API."""
    claims = jwt.decode(real, options={"verify_signature": False})
    now = int(time.time())
    if case == "forged":
        return jwt.encode(claims, "another secret of at least thirty-two bytes", algorithm="HS256")
    if case == "expired":
        return jwt.encode({**claims, "iat": now - 3600, "exp": now - 600}, SECRET, algorithm="HS256")
    if case == "wrong audience":
        return jwt.encode({**claims, "aud": "someone-else"}, SECRET, algorithm="HS256")
    assert case == "alg none"
    return hand_signed({"alg": "none", "typ": "JWT"}, claims, None)


MATCH = "query($id: ID!) { match(id: $id) { id you seats { taken } } }"


@pytest.mark.parametrize("case", ["forged", "expired", "wrong audience", "alg none"])
def test_a_bad_access_token_is_unauthenticated_on_queries_mutations_and_rest(http: Http, case: str) -> None:
    real = _session(http)["accessToken"]
    token = _bad_token(case, real)
    created = http.data(h.CREATE, {"input": {"title": "greatfire", "seats": 3}})["createMatch"]
    match_id = created["matchId"]
    before = http.rest("GET", f"/v1/matches/{match_id}").json()

    for query, variables in ((ME, None), (MATCH, {"id": match_id}), ("{ titles { id } }", None)):
        response = http.gql(query, variables, token)
        body = response.json()
        assert body.get("data") is None and codes(body) == ["UNAUTHENTICATED"], body
        assert body["errors"][0]["extensions"]["reason"] in ("invalid", "expired", "algorithm", "malformed")
        assert token not in response.text and real not in response.text

    joined = http.data(JOIN, {"input": {"matchId": match_id, "name": "mallory"}}, token)["joinMatch"]
    assert joined["__typename"] == "Unauthenticated" and joined["code"] == "UNAUTHENTICATED", joined
    acted = http.data(h.ACT, {"input": {"matchId": match_id, "action": {"type": "x"}, "expectedVersion": 0}},
                      token)["act"]
    assert acted["code"] == "UNAUTHENTICATED", acted

    for method, path, body in (("GET", f"/v1/matches/{match_id}", None), ("GET", "/v1/me", None),
                               ("POST", f"/v1/matches/{match_id}/seats", {"name": "mallory"}),
                               ("GET", "/v1/matches", None)):
        refused = http.rest(method, path, token, body)
        assert refused.status_code == 401, (path, refused.text)
        assert refused.json()["code"] == "UNAUTHENTICATED" and refused.headers["content-type"].startswith(
            "application/problem+json")
        assert refused.headers["www-authenticate"] == 'Bearer realm="firebreak", error="invalid_token"'
        assert token not in refused.text

    assert http.rest("GET", f"/v1/matches/{match_id}").json() == before, "a refused credential changed the match"
    assert http.data(ME, token=real)["me"] is not None  # the real token still works


def test_a_flood_of_guest_registrations_is_rate_limited_per_client(http: Http, api: str) -> None:
    outcomes = [http.gql(GUEST, {"input": {"name": f"flood {n}", "deviceId": device()}})
                for n in range(REGISTRATION_BURST + 3)]
    signed = [r for r in outcomes if r.status_code == 200 and "errors" not in r.json()]
    assert len(signed) == REGISTRATION_BURST, [r.text for r in outcomes]
    refused = outcomes[-1]
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1, refused.text
    assert codes(refused.json()) == ["RATE_LIMITED"]
    over_rest = http.rest("POST", "/v1/auth/guest", body={"name": "one more", "deviceId": device()})
    assert over_rest.status_code == 429 and over_rest.json()["code"] == "RATE_LIMITED", over_rest.text
    elsewhere = Http(api)  # another client is not held back
    try:
        assert elsewhere.rest("POST", "/v1/auth/guest", body={"name": "neighbour", "deviceId": device()}) \
            .status_code == 200
    finally:
        elsewhere.http.close()


def _claims(sub: str, **changes: Any) -> dict[str, Any]:
    now = int(time.time())
    return {"sub": sub, "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 600, "name": "Grace", **changes}


def test_the_operators_jwt_signs_a_player_in_and_a_guest_links_it(http: Http, jwks: Jwks) -> None:
    sub = f"auth0|{secrets.token_hex(6)}"
    token = jwks.sign(_claims(sub), "k1")
    me = http.data(ME, token=token)["me"]
    assert me["kind"] == "EXTERNAL" and me["name"] == "Grace"
    assert http.rest("GET", "/v1/me", token).json()["id"] == me["id"]  # the same player on first and next sight
    created = http.data(h.CREATE, {"input": {"title": "greatfire", "seats": 3}})["createMatch"]
    joined = http.data(JOIN, {"input": {"matchId": created["matchId"]}}, token)["joinMatch"]
    assert joined["player"] == me["id"]
    assert http.data(MATCH, {"id": created["matchId"]}, token)["match"]["you"] == joined["seat"]
    wrong = jwks.sign(_claims(sub, aud="another-app"), "k1")
    body = http.gql(ME, token=wrong).json()
    assert codes(body) == ["UNAUTHENTICATED"] and body["data"] is None
    refused = http.rest("GET", "/v1/me", wrong)
    assert refused.status_code == 401 and 'error="invalid_token"' in refused.headers["www-authenticate"]

    guest = _session(http, "guest")
    new_sub = f"auth0|{secrets.token_hex(6)}"
    linked = http.data(LINK, {"t": jwks.sign(_claims(new_sub), "k1")}, guest["accessToken"])["linkIdentity"]
    assert linked["__typename"] == "IdentityLinked", linked
    assert linked["player"] == {"id": guest["player"]["id"], "name": "guest", "kind": "EXTERNAL"}
    assert http.data(ME, token=jwks.sign(_claims(new_sub), "k1"))["me"]["id"] == guest["player"]["id"]
    other = _session(http, "other")
    taken = http.rest("POST", "/v1/me/link", other["accessToken"], {"token": jwks.sign(_claims(new_sub), "k1")})
    assert taken.status_code == 409 and taken.json()["code"] == "IDENTITY_TAKEN", taken.text
    expired = jwks.sign(_claims(f"{new_sub}-x", exp=int(time.time()) - 600), "k1")
    late = http.data(LINK, {"t": expired}, other["accessToken"])["linkIdentity"]
    assert late["__typename"] == "Unauthenticated" and late["reason"] == "expired"

