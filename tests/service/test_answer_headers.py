"""The headers every answer carries (issue 47, part 5, items 2 and 5): an answer of the API (GraphQL at /graphql,
REST under /v1/), which may carry a token or a secret, is never stored by a cache (RFC 6749 5.1: Cache-Control:
no-store, Pragma: no-cache); no answer may be sniffed into another type (X-Content-Type-Options: nosniff); the web
client and GraphiQL refuse to be framed (Content-Security-Policy frame-ancestors). Over real HTTP against the
test API process."""

from __future__ import annotations

from typing import Any

import httpx

from tests.service.conftest import Client
from tests.service.players_support import GUEST, REFRESH, device, guest, rest
from tests.service.support import CREATE, JOIN

NO_STORE = {"cache-control": "no-store", "pragma": "no-cache"}


def assert_no_store(response: httpx.Response) -> None:
    """The answer forbids every cache to keep it."""
    found = {name: response.headers.get(name) for name in NO_STORE}
    assert found == NO_STORE, (response.request.method, response.request.url, found)


def test_every_rest_answer_that_carries_a_credential_is_no_store(server: str) -> None:
    """A guest's session, a refreshed one, a host token, a seat token, a personal access token: each answer says
    no-store (so does every other answer of the API: a refusal, a read)."""
    signed = rest(server, "POST", "/v1/auth/guest", body={"name": "cached", "deviceId": device()})
    assert signed.status_code == 200 and "accessToken" in signed.json(), signed.text
    assert_no_store(signed)
    session = signed.json()
    refreshed = rest(server, "POST", "/v1/auth/refresh", body={"refreshToken": session["refreshToken"]})
    assert refreshed.status_code == 200 and "refreshToken" in refreshed.json(), refreshed.text
    assert_no_store(refreshed)
    access = refreshed.json()["accessToken"]
    created = rest(server, "POST", "/v1/matches", body={"title": "greatfire", "seats": 2})
    assert created.status_code == 201 and "hostToken" in created.json(), created.text
    assert_no_store(created)
    joined = rest(server, "POST", f"/v1/matches/{created.json()['matchId']}/seats", access, {"seat": 0})
    assert joined.status_code == 201 and "token" in joined.json(), joined.text
    assert_no_store(joined)
    made = rest(server, "POST", "/v1/me/tokens", access, {"name": "bot", "scopes": ["BOT"]})
    assert made.status_code == 201 and "token" in made.json(), made.text
    assert_no_store(made)
    for answer in (rest(server, "GET", "/v1/me", access), rest(server, "GET", "/v1/titles"),
                   rest(server, "POST", "/v1/auth/refresh", body={"refreshToken": "fbr_not.a.token"}),
                   rest(server, "GET", "/v1/no-such-thing")):
        assert_no_store(answer)


def test_every_graphql_answer_is_no_store(client: Client) -> None:
    """A GraphQL answer may carry a token (a mutation's) whatever its operation: every POST answer says no-store,
    and so does a GET's."""
    signed = client.post(GUEST, {"input": {"name": "cached", "deviceId": device()}})
    assert signed.json()["data"]["signInAsGuest"]["__typename"] == "Session", signed.text
    assert_no_store(signed)
    refreshed = client.post(REFRESH, {"t": signed.json()["data"]["signInAsGuest"]["refreshToken"]})
    assert refreshed.json()["data"]["refreshSession"]["__typename"] == "Session", refreshed.text
    assert_no_store(refreshed)
    created = client.post(CREATE, {"input": {"title": "greatfire", "seats": 2}})
    assert created.json()["data"]["createMatch"]["hostToken"], created.text
    assert_no_store(created)
    match_id = created.json()["data"]["createMatch"]["matchId"]
    joined = client.post(JOIN, {"input": {"matchId": match_id, "name": "x"}})
    assert joined.json()["data"]["joinMatch"]["token"], joined.text
    assert_no_store(joined)
    assert_no_store(client.http.get("/graphql", params={"query": "{ titles { id } }"}))
    assert_no_store(client.post("{ nope }"))


def test_every_answer_says_nosniff(server: str, client: Client) -> None:
    """JSON (REST, GraphQL, a refusal, health), the web client's page and files: none may be sniffed."""
    me = guest(client, "sniffed")
    answers: list[Any] = [
        rest(server, "GET", "/v1/titles"), rest(server, "GET", "/v1/me", me.access),
        rest(server, "GET", "/v1/matches/0123456789abcdef"), client.post("{ titles { id } }"),
        httpx.get(f"{server}/healthz"), httpx.get(f"{server}/readyz"), httpx.get(f"{server}/"),
        httpx.get(f"{server}/static/app.js"), httpx.get(f"{server}/nowhere"),
        httpx.get(f"{server}/graphql", headers={"accept": "text/html"}),
    ]
    for answer in answers:
        assert answer.headers.get("x-content-type-options") == "nosniff", answer.request.url


def directives(policy: str) -> dict[str, str]:
    """A Content-Security-Policy's directives by name."""
    out = {}
    for part in policy.split(";"):
        name, _, value = part.strip().partition(" ")
        if name:
            out[name] = value.strip()
    return out


def test_the_web_client_and_graphiql_cannot_be_framed(server: str) -> None:
    """/ and GraphiQL (GET /graphql in a browser) carry a Content-Security-Policy with frame-ancestors 'none' that
    lets nothing load from elsewhere; the web client's page is not stored either."""
    for path in ("/", "/graphql"):
        page = httpx.get(f"{server}{path}", headers={"accept": "text/html"})
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html"), path
        policy = directives(page.headers.get("content-security-policy", ""))
        assert policy.get("frame-ancestors") == "'none'", (path, policy)
        assert policy.get("default-src") == "'self'" and policy.get("object-src") == "'none'", (path, policy)
        assert "unsafe-eval" not in str(policy) and "http" not in str(policy), (path, policy)
