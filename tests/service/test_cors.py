"""CORS over real HTTP (FIREBREAK_CORS_ORIGINS, issue 27 section 4): preflights from a listed and a refused origin
on GraphQL, REST (its event stream included) and the docs; answers and refusals readable by a listed origin; the
WebSocket handshake's Origin checked against the same list; and, unset, today's behaviour (a preflight gets 405)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import urlparse

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin, Subprotocol

from firebreak.matches.config import cors_origins
from tests.service.conftest import ROOT, Client, api_process, service_env
from tests.service.players_support import guest

APP = "https://app.example"
LOCAL = "http://localhost:3000"
FOREIGN = "https://evil.example"
PROTOCOL = Subprotocol("graphql-transport-ws")
ASKED_HEADERS = "authorization, content-type, idempotency-key, last-event-id, prefer"


@pytest.fixture(scope="module")
def cors_server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process that lets two browser origins in."""
    log = tmp_path_factory.mktemp("api-cors") / "api.log"
    with api_process(redis_url, log, {"FIREBREAK_CORS_ORIGINS": f"{APP}, {LOCAL}"}) as base:
        yield base


@pytest.fixture(scope="module")
def any_origin_server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process that lets every origin in."""
    log = tmp_path_factory.mktemp("api-any") / "api.log"
    with api_process(redis_url, log, {"FIREBREAK_CORS_ORIGINS": "*"}) as base:
        yield base


@pytest.fixture(scope="module")
def plain_server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process with CORS unset (the default)."""
    with api_process(redis_url, tmp_path_factory.mktemp("api-plain") / "api.log",
                     {"FIREBREAK_CORS_ORIGINS": ""}) as base:
        yield base


def preflight(base: str, path: str, origin: str, method: str = "POST",
              headers: str = ASKED_HEADERS) -> httpx.Response:
    """What a browser sends before a cross-origin request that is not simple."""
    return httpx.options(f"{base}{path}", timeout=10, headers={
        "origin": origin, "access-control-request-method": method, "access-control-request-headers": headers})


def listed(value: str | None) -> set[str]:
    """A comma-separated header value as a set of lower-case names."""
    return {part.strip().lower() for part in (value or "").split(",") if part.strip()}


PATHS = [("/graphql", "POST"), ("/v1/matches", "POST"), ("/v1/matches/m1/actions", "POST"),
         ("/v1/me/events", "GET"), ("/v1/me/tokens/t1", "DELETE"), ("/v1/openapi.json", "GET"), ("/v1/docs", "GET")]


@pytest.mark.parametrize(("path", "method"), PATHS)
def test_a_preflight_from_a_listed_origin_is_answered_with_what_it_may_send(cors_server: str, path: str,
                                                                           method: str) -> None:
    for origin in (APP, LOCAL):
        answer = preflight(cors_server, path, origin, method)
        assert answer.status_code == 200, answer.text
        assert answer.headers["access-control-allow-origin"] == origin
        assert {"get", "post", "delete"} <= listed(answer.headers["access-control-allow-methods"])
        assert {"authorization", "content-type", "idempotency-key", "last-event-id", "prefer"} <= \
            listed(answer.headers["access-control-allow-headers"])
        assert answer.headers["access-control-max-age"] == "600"
        assert "origin" in listed(answer.headers["vary"])
        assert "access-control-allow-credentials" not in answer.headers  # bearer tokens, never cookies


def cors_headers(answer: httpx.Response) -> list[str]:
    """The CORS headers of an answer (Vary aside: caches must still key on Origin)."""
    return [name for name in answer.headers if name.lower().startswith("access-control-")]


@pytest.mark.parametrize(("path", "method"), PATHS)
def test_a_preflight_from_a_refused_origin_gets_no_permission(cors_server: str, path: str, method: str) -> None:
    """A refused preflight carries none of the CORS headers (the operating guide: "400 without them"), not the
    methods, headers and lifetime a listed origin gets without the origin itself."""
    answer = preflight(cors_server, path, FOREIGN, method)
    assert answer.status_code == 400 and cors_headers(answer) == [], answer.headers
    assert "origin" in listed(answer.headers["vary"])
    # a listed origin asking for a header the service does not take is refused too
    odd = preflight(cors_server, path, APP, method, "authorization, x-unknown")
    assert odd.status_code == 400 and cors_headers(odd) == [], odd.headers
    # ...and so is one written differently from the list (origins compare exactly, as browsers send them)
    other = preflight(cors_server, path, APP + ":443", method)
    assert other.status_code == 400 and cors_headers(other) == [], other.headers


def test_answers_and_refusals_are_readable_by_a_listed_origin_only(cors_server: str) -> None:
    created = httpx.post(f"{cors_server}/v1/matches", json={"title": "greatfire", "seats": 2},
                         headers={"origin": APP}, timeout=10)
    assert created.status_code == 201, created.text
    assert created.headers["access-control-allow-origin"] == APP
    exposed = listed(created.headers["access-control-expose-headers"])
    assert {"location", "retry-after", "www-authenticate", "preference-applied"} <= exposed
    assert created.headers["location"].startswith("/v1/matches/")
    # a refusal made before any route (the body limit) still carries the headers, so the app can read its problem
    big = httpx.post(f"{cors_server}/graphql", content=b"{" + b" " * 70_000 + b"}", timeout=10,
                     headers={"origin": LOCAL, "content-type": "application/json"})
    assert big.status_code == 413 and big.headers["access-control-allow-origin"] == LOCAL
    assert "BODY_TOO_LARGE" in big.text
    # and a refused credential: 401 with WWW-Authenticate, which the app may read
    refused = httpx.get(f"{cors_server}/v1/me", headers={"origin": APP, "authorization": "Bearer nope"}, timeout=10)
    assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == APP
    assert "www-authenticate" in refused.headers
    # GraphQL from a listed origin
    titles = httpx.post(f"{cors_server}/graphql", json={"query": "{ titles { id } }"}, headers={"origin": APP},
                        timeout=10)
    assert titles.status_code == 200 and titles.headers["access-control-allow-origin"] == APP
    # a foreign origin is answered (the browser, not the server, withholds it) but gets no permission
    foreign = httpx.post(f"{cors_server}/graphql", json={"query": "{ titles { id } }"}, headers={"origin": FOREIGN},
                         timeout=10)
    assert foreign.status_code == 200 and "access-control-allow-origin" not in foreign.headers
    # a client without Origin (a bot, curl) is unaffected
    bot = httpx.post(f"{cors_server}/graphql", json={"query": "{ titles { id } }"}, timeout=10)
    assert bot.status_code == 200 and "access-control-allow-origin" not in bot.headers


def test_the_event_stream_opens_to_a_listed_origin(cors_server: str) -> None:
    client = Client(cors_server)
    try:
        signed = guest(client)
    finally:
        client.http.close()
    with httpx.stream("GET", f"{cors_server}/v1/me/events", timeout=10,
                      headers={"origin": APP, "accept": "text/event-stream",
                               "authorization": f"Bearer {signed.access}"}) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["access-control-allow-origin"] == APP


async def handshake(base: str, origin: str | None) -> str:
    """Open a GraphQL WebSocket (with this Origin header, or none) and init it; the first message's type."""
    url = f"ws://{urlparse(base).netloc}/graphql"
    async with connect(url, subprotocols=[PROTOCOL], open_timeout=10,
                       origin=Origin(origin) if origin else None) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return str(message["type"])


def refused_status(base: str, origin: str) -> int:
    """The HTTP status a refused handshake got."""
    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(handshake(base, origin))
    return refused.value.response.status_code


def test_the_websocket_handshake_checks_the_origin_against_the_same_list(cors_server: str) -> None:
    assert asyncio.run(handshake(cors_server, APP)) == "connection_ack"
    assert asyncio.run(handshake(cors_server, LOCAL)) == "connection_ack"
    assert asyncio.run(handshake(cors_server, None)) == "connection_ack"  # not a browser
    assert asyncio.run(handshake(cors_server, cors_server)) == "connection_ack"  # the service's own web client
    assert refused_status(cors_server, FOREIGN) == 403
    assert refused_status(cors_server, "http://localhost:3001") == 403


def test_any_origin_when_set_to_a_star(any_origin_server: str) -> None:
    answer = preflight(any_origin_server, "/v1/matches", FOREIGN)
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == "*"
    odd = preflight(any_origin_server, "/v1/matches", FOREIGN, headers="authorization, x-unknown")
    assert odd.status_code == 400 and cors_headers(odd) == [], odd.headers  # not even the "*"
    got = httpx.get(f"{any_origin_server}/v1/titles", headers={"origin": FOREIGN}, timeout=10)
    assert got.status_code == 200 and got.headers["access-control-allow-origin"] == "*"
    assert asyncio.run(handshake(any_origin_server, FOREIGN)) == "connection_ack"


def test_unset_it_is_off_as_before(plain_server: str) -> None:
    answer = preflight(plain_server, "/v1/matches", APP)
    assert answer.status_code == 405 and "access-control-allow-origin" not in answer.headers
    got = httpx.get(f"{plain_server}/v1/titles", headers={"origin": APP}, timeout=10)
    assert got.status_code == 200 and "access-control-allow-origin" not in got.headers
    # the WebSocket as before: no other origin's pages (strawberry's default), the service's own and non-browsers
    assert refused_status(plain_server, APP) == 403
    assert asyncio.run(handshake(plain_server, plain_server)) == "connection_ack"
    assert asyncio.run(handshake(plain_server, None)) == "connection_ack"


@pytest.mark.parametrize("raw", ["https://app.example/play", "app.example", "ftp://app.example", "*, https://a.example",
                                 "https://user@app.example", "https://app.example:99999", "https://app.example?x=1",
                                 "https://:8080", "null"])
def test_a_bad_origin_is_refused_naming_the_setting(raw: str) -> None:
    with pytest.raises(ValueError, match="FIREBREAK_CORS_ORIGINS"):
        cors_origins(raw)


def test_an_api_process_with_a_bad_origin_does_not_start(redis_url: str) -> None:
    started = subprocess.run([sys.executable, "-m", "uvicorn", "firebreak.api.app:create_app", "--factory",
                              "--port", "0"],
                             cwd=ROOT, env={**service_env(redis_url), "FIREBREAK_CORS_ORIGINS": "https://app.example/x"},
                             capture_output=True, timeout=60)
    assert started.returncode != 0
    assert b"FIREBREAK_CORS_ORIGINS must be" in started.stderr


def test_good_origins_are_read_as_listed() -> None:
    assert cors_origins("") == ()
    assert cors_origins(" * ") == ("*",)
    assert cors_origins("https://app.example, http://localhost:3000,") == ("https://app.example",
                                                                           "http://localhost:3000")
    assert cors_origins("http://[::1]:8080") == ("http://[::1]:8080",)
    # written as browsers send them: lower case, no default port, no trailing slash
    assert cors_origins("HTTPS://App.Example:443/, http://app.example:80, https://app.example") == (
        "https://app.example", "http://app.example")
