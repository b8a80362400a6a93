"""The REST surface (/v1) through a real API process, Redis and workers: every route's success, every mapped
refusal with its RFC 9457 problem body, a match played to its end mixing REST and GraphQL, idempotency replays
across both surfaces, the OpenAPI 3.1 document (validated, and covering exactly the app's /v1 routes) and the
offline docs page. Every JSON answer is checked against the schema the document gives for it."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from openapi_spec_validator import validate as validate_openapi
from pydantic import ValidationError
from redis import Redis
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute

from firebreak.api.app import create_app
from firebreak.api.rest.problems import MEDIA_TYPE, rest_codes
from firebreak.api.rest.requests import REQUESTS, CreateMatch
from firebreak.api.rest.routes import OPERATIONS, document
from firebreak.api.rest.schemas import components
from firebreak.matches.config import Settings
from firebreak.matches.embedded import EmbeddedRedis, free_port
from tests.service import support as h

TIMEOUT = 60.0  # seconds: only so that a regression fails instead of hanging the suite
# GraphQL, operations, the web client and its words (api/web.py)
OUTSIDE_REST = {"/healthz", "/readyz", "/metrics", "/graphql", "/", "/static", "/static/locale.json"}
MATCH_FIELDS = """id title status version seatCount options you toAct serviceToAct view legalActions endReason
  rematch { id } rematchOffer { status by accepted declined expiresAt }
  seats { seat taken name kind level takenOver resigned program player deleted }
  clock { initialSeconds incrementSeconds perMoveSeconds seats { seat secondsLeft running takenOver } }
  result { endReason reason winners resigned columns { key label description }
    scores { seat total parts { key value } } }"""
TITLE_FIELDS = """id name minSeats maxSeats scoreColumns { key label description } botLevels { name description }
  options { name kind default description choices nullable minimum maximum seats }"""


# ----- helpers -------------------------------------------------------------------------------------------

def conforms(body: Any, schema: str) -> None:
    """The body matches the document's component schema (JSON Schema 2020-12, refs resolved in the document)."""
    root = {"$ref": f"#/components/schemas/{schema}", "components": {"schemas": components()}}
    jsonschema.Draft202012Validator(root).validate(body)


class Rest:
    """A REST client that checks every JSON answer against its documented schema."""

    def __init__(self, base: str) -> None:
        # idle connections dropped before uvicorn's 5 s keep-alive ends (see tests/service/conftest.py Client)
        self.http = httpx.Client(base_url=base, timeout=TIMEOUT, limits=httpx.Limits(keepalive_expiry=2))

    def call(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> httpx.Response:
        """Any request; a problem answer is checked against the Problem schema."""
        headers = dict(kwargs.pop("headers", {}))
        if token:
            headers["authorization"] = f"Bearer {token}"
        response = self.http.request(method, path, headers=headers, **kwargs)
        if response.headers.get("content-type", "").startswith(MEDIA_TYPE):
            problem = response.json()
            conforms(problem, "Problem")
            assert problem["status"] == response.status_code, problem
            assert problem["type"] == f"/v1/docs#problem-{problem['code']}", problem
        return response

    def ok(self, method: str, path: str, schema: str, status: int = 200, token: str | None = None,
           **kwargs: Any) -> Any:
        """A request that must succeed with this status; its body, checked against the schema."""
        response = self.call(method, path, token, **kwargs)
        assert response.status_code == status, f"{method} {path}: {response.status_code} {response.text[:500]}"
        assert response.headers["content-type"].startswith("application/json")
        body = response.json()
        conforms(body, schema)
        return body

    def refused(self, method: str, path: str, status: int, code: str, token: str | None = None,
                **kwargs: Any) -> dict[str, Any]:
        """A request that must be refused with this status and code; its problem body."""
        response = self.call(method, path, token, **kwargs)
        assert response.status_code == status, f"{method} {path}: {response.status_code} {response.text[:500]}"
        assert response.headers["content-type"].startswith(MEDIA_TYPE), response.headers["content-type"]
        problem: dict[str, Any] = response.json()
        assert problem["code"] == code, problem
        assert problem["detail"], problem
        if status == 401:
            assert response.headers["www-authenticate"].startswith("Bearer"), response.headers
        return problem

    def create(self, seats: int, seed: int, **extra: Any) -> h.Setup:
        """Create a greatfire match over REST."""
        response = self.call("POST", "/v1/matches", json={"title": "greatfire", "seats": seats, "seed": seed,
                                                          **extra})
        assert response.status_code == 201, response.text
        created = response.json()
        conforms(created, "MatchCreated")
        assert response.headers["location"] == f"/v1/matches/{created['matchId']}"
        return h.Setup(created["matchId"], created["hostToken"], seats, seed, created["match"]["options"])

    def join(self, s: h.Setup, name: str, seat: int | None = None) -> dict[str, Any]:
        """Take a seat over REST; record the token."""
        body: dict[str, Any] = {"name": name} if seat is None else {"name": name, "seat": seat}
        response = self.call("POST", f"/v1/matches/{s.match_id}/seats", json=body)
        assert response.status_code == 201, response.text
        joined: dict[str, Any] = response.json()
        conforms(joined, "SeatJoined")
        assert response.headers["location"] == f"/v1/matches/{s.match_id}/seats/{joined['seat']}"
        s.humans[joined["seat"]] = joined["token"]
        return joined

    def bot(self, s: h.Setup, level: str, seat: int | None = None) -> dict[str, Any]:
        """Seat a bot over REST with the host token."""
        body: dict[str, Any] = {"level": level} if seat is None else {"level": level, "seat": seat}
        response = self.call("POST", f"/v1/matches/{s.match_id}/bots", s.host, json=body)
        assert response.status_code == 201, response.text
        added: dict[str, Any] = response.json()
        conforms(added, "BotAdded")
        s.bots[added["seat"]] = level
        return added

    def match(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        """GET a match as the token's holder."""
        m: dict[str, Any] = self.ok("GET", f"/v1/matches/{match_id}", "Match", token=token)
        return m

    def act(self, match_id: str, token: str | None, action: Any, version: int, key: str | None = None,
            ) -> httpx.Response:
        """POST an action (the raw answer)."""
        headers = {"idempotency-key": key} if key is not None else {}
        return self.call("POST", f"/v1/matches/{match_id}/actions", token, headers=headers,
                         json={"action": action, "expectedVersion": version})

    def close(self) -> None:
        """Close the connections."""
        self.http.close()


@pytest.fixture(scope="module")
def rest(server: str) -> Iterator[Rest]:
    r = Rest(server)
    yield r
    r.close()


@pytest.fixture(scope="module")
def gql(server: str) -> Iterator[h.Client]:
    c = h.Client(server)
    yield c
    c.http.close()


def graphql_match(c: h.Client, match_id: str, token: str | None) -> dict[str, Any]:
    m: dict[str, Any] = c.gql(f"query($id: ID!) {{ match(id: $id) {{ {MATCH_FIELDS} }} }}", {"id": match_id},
                              token)["match"]
    return m


def timeless(m: dict[str, Any]) -> dict[str, Any]:
    """A match read without the clock's seconds left (they run between two reads)."""
    out = json.loads(json.dumps(m))
    for row in (out.get("clock") or {}).get("seats", []):
        row.pop("secondsLeft")
    return out


def stored_version(redis: Redis, s: h.Setup) -> tuple[int, int]:
    record = h.stored(redis, s.match_id)
    return record["version"], len(record["log"])


def active_match(rest: Rest, seed: int) -> h.Setup:
    """A started 3-seat match of people, created and filled over REST: nothing moves unless the test acts."""
    s = rest.create(3, seed)
    for n in range(3):
        rest.join(s, f"player {n}")
    return s


def seat_to_act(rest: Rest, s: h.Setup) -> tuple[int, str, dict[str, Any]]:
    for seat, token in s.humans.items():
        m = rest.match(s.match_id, token)
        if m["legalActions"]:
            return seat, token, m
    raise AssertionError("no seat has a legal action")


# ----- the document and the docs page ---------------------------------------------------------------------

def test_the_openapi_document_is_served_and_valid_openapi_3_1(rest: Rest) -> None:
    served = rest.call("GET", "/v1/openapi.json").json()
    assert served == json.loads(json.dumps(document()))
    assert served["openapi"] == "3.1.0"
    validate_openapi(served)


def _routes(routes: list[BaseRoute]) -> tuple[set[tuple[str, str]], set[str]]:
    """(method, path) of the app's /v1 routes, and the paths of every other route."""
    rest, other = set(), set()
    for route in routes:
        if isinstance(route, Route) and route.path.startswith("/v1/"):
            rest |= {(m, route.path) for m in route.methods or () if m != "HEAD"}
        elif isinstance(route, Route | WebSocketRoute | Mount):
            other.add(route.path)
    return rest, other


def test_every_route_of_the_app_is_in_the_document_and_every_documented_operation_is_routed() -> None:
    """The app's /v1 routes are exactly the document's operations; the app's other routes are the known ones
    outside the REST surface (GraphQL, health and metrics, the web client), so a new route cannot be missed."""
    app = create_app(Settings.from_env({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}))
    routed, other = _routes(app.routes)
    documented = {(method.upper(), path) for path, item in document()["paths"].items() for method in item}
    assert routed == documented
    assert other == OUTSIDE_REST
    assert len({op.operation_id for op in OPERATIONS}) == len(OPERATIONS)


CREATE_BODIES = ({"title": "greatfire", "seats": 3}, {"title": "x", "seats": 3}, {"title": "greatfire"},
                 {"title": 1, "seats": True}, {"seats": 2**31}, {"title": "london", "seats": 2**31},
                 {"title": "greatfire", "seats": 3, "clock": {"initialSeconds": "1"}},
                 {"title": "greatfire", "seats": 3, "clock": {"initialSeconds": 0}},
                 {"title": "greatfire", "seats": 3, "clock": {"initialSeconds": 604800, "incrementSeconds": 86400.5}},
                 {"title": "greatfire", "seats": 3, "clock": {"perMoveSeconds": 1209600}},
                 {"title": "greatfire", "seats": 3, "clock": {"perMoveSeconds": 1209600.01}},
                 {"title": "greatfire", "seats": 3, "clock": {"perMoveSeconds": 5, "odd": 1}},
                 {"title": "greatfire", "seats": 3, "odd": 1},
                 {"title": "greatfire", "seats": 3, "seed": None, "options": None, "clock": None},
                 {"title": "greatfire", "seats": 3, "options": {"hiddenColours": True}, "private": "yes"})


def test_what_the_document_says_of_a_body_is_what_pydantic_enforces() -> None:
    """The request schemas are generated from the models the routes validate with: jsonschema on the document and
    pydantic on the model give the same verdict, for every body of the samples."""
    schemas = components()
    assert set(schemas) >= {model.__name__ for model in REQUESTS}
    root = {"$ref": "#/components/schemas/CreateMatch", "components": {"schemas": schemas}}
    for body in CREATE_BODIES:
        documented = jsonschema.Draft202012Validator(root).is_valid(body)
        try:
            CreateMatch.model_validate(body)
            enforced = True
        except ValidationError:
            enforced = False
        assert documented == enforced, body


def test_every_problem_code_has_a_status_the_document_lists() -> None:
    doc = document()
    statuses = {int(s) for item in doc["paths"].values() for op in item.values() for s in op["responses"]}
    assert {code.status for code in rest_codes()} - {405, 500} <= statuses
    assert doc["x-problem-codes"]["STALE_VERSION"]["status"] == 409


def test_the_docs_page_is_self_contained(rest: Rest) -> None:
    """/v1/docs loads nothing from elsewhere: no external URL, no script or stylesheet by reference, and a
    Content-Security-Policy that lets it fetch only from its own origin."""
    response = rest.call("GET", "/v1/docs")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    assert not re.search(r"(?i)\b(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html), "an external URL in the docs page"
    assert not re.search(r"(?i)<(?:script|img|iframe)[^>]*\bsrc\s*=", html)
    assert not re.search(r"(?i)<link\b", html)
    assert re.findall(r"fetch\(([^)]*)\)", html) == ['"openapi.json"']
    csp = response.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp
    assert "renderSchema" in html and "x-problem-codes" in html


# ----- titles ----------------------------------------------------------------------------------------------

def test_titles_carry_graphqls_fields_and_values(rest: Rest, gql: h.Client) -> None:
    listed = rest.ok("GET", "/v1/titles", "TitleList")
    assert listed["items"] == gql.gql(f"{{ titles {{ {TITLE_FIELDS} }} }}")["titles"]
    one = rest.ok("GET", "/v1/titles/greatfire", "TitleDetail")
    assert {k: one[k] for k in ("board", "schemas")} == \
        gql.gql("{ titles { board schemas { view action event result } } }")["titles"][0]
    assert {k: v for k, v in one.items() if k not in ("board", "schemas")} == listed["items"][0]
    rest.refused("GET", "/v1/titles/no-such-title", 404, "TITLE_NOT_FOUND")


# ----- the lobby -------------------------------------------------------------------------------------------

def test_create_join_add_a_bot_read_and_list_over_rest(rest: Rest, gql: h.Client, redis: Redis) -> None:
    active_match(rest, 7100)  # another active match, for the listing's second page
    s = rest.create(3, 7101, options={"hiddenColours": True}, clock={"initialSeconds": 600, "incrementSeconds": 5})
    waiting = rest.match(s.match_id)
    assert waiting["status"] == "WAITING" and waiting["version"] == 0 and waiting["options"]["hiddenColours"]
    assert waiting["clock"]["initialSeconds"] == 600
    joined = rest.join(s, "ann", seat=2)
    assert joined["seat"] == 2 and not joined["started"]
    assert rest.ok("GET", f"/v1/matches/{s.match_id}/seats/2", "SeatInfo") == \
        {"seat": 2, "taken": True, "name": "ann", "kind": "human", "level": None, "takenOver": False,
         "resigned": False, "program": False, "player": None, "deleted": False, "handle": None}
    assert rest.ok("GET", f"/v1/matches/{s.match_id}/seats/0", "SeatInfo")["taken"] is False
    rest.bot(s, "random")
    added = rest.bot(s, "greedy")
    assert added["started"] and added["level"] == "greedy"
    assert rest.ok("GET", f"/v1/matches/{s.match_id}/seats/{added['seat']}", "SeatInfo")["level"] == "greedy"
    # the same fields, names and values as GraphQL's Match, for a seat and for a spectator, read once the bots
    # have moved up to the person's decision (the match stands still until ann acts)
    h.wait_for(lambda: not rest.match(s.match_id)["serviceToAct"], "the bots to reach ann's decision")
    for token in (s.humans[2], None, s.host):
        assert timeless(rest.match(s.match_id, token)) == timeless(graphql_match(gql, s.match_id, token))
    mine = rest.match(s.match_id, s.humans[2])
    assert mine["you"] == 2 and mine["view"]["you"]["seat"] == 2
    h.check_view(mine["view"], 2, hidden=True)
    # the listing, paged; each item read as the token's holder where the token is one of its seats'
    page = rest.ok("GET", "/v1/matches", "MatchPage", params={"status": "ACTIVE", "first": 100},
                   token=s.humans[2])
    by_id = {m["id"]: m for m in page["items"]}
    assert by_id[s.match_id]["you"] == 2
    assert all(m["you"] is None for i, m in by_id.items() if i != s.match_id)
    first = rest.ok("GET", "/v1/matches", "MatchPage", params={"status": "ACTIVE", "first": 1})
    assert len(first["items"]) == 1 and first["hasNextPage"] and first["endCursor"]
    second = rest.ok("GET", "/v1/matches", "MatchPage", params={"status": "ACTIVE", "first": 1,
                                                                 "after": first["endCursor"]})
    assert second["items"][0]["id"] != first["items"][0]["id"]
    graphql_page = gql.gql('query($a: String) { matches(status: ACTIVE, first: 1, after: $a) { items { id } '
                           'endCursor hasNextPage } }', {"a": first["endCursor"]})["matches"]
    assert [m["id"] for m in graphql_page["items"]] == [m["id"] for m in second["items"]]
    assert rest.ok("GET", "/v1/matches", "MatchPage", params={"first": 0})["items"] is not None  # clamped
    h.check_replay(redis, s)


# ----- refusals --------------------------------------------------------------------------------------------

JSON_CT = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def waiting(rest: Rest) -> h.Setup:
    s = rest.create(3, 7201)
    rest.join(s, "first", seat=0)
    return s


@pytest.fixture(scope="module")
def active(rest: Rest) -> h.Setup:
    return active_match(rest, 7202)


def test_lobby_refusals_have_their_status_and_code(rest: Rest, waiting: h.Setup, active: h.Setup,
                                                   redis: Redis) -> None:
    create = "/v1/matches"
    before = stored_version(redis, waiting), stored_version(redis, active)
    rest.refused("POST", create, 422, "BAD_OPTIONS", json={"title": "greatfire", "seats": 9})
    rest.refused("POST", create, 422, "BAD_OPTIONS", json={"title": "greatfire", "seats": 3, "options": {"x": 1}})
    rest.refused("POST", create, 422, "UNKNOWN_TITLE", json={"title": "chess", "seats": 2})
    rest.refused("POST", create, 422, "BAD_OPTIONS", json={"title": "greatfire", "seats": 3,
                                                           "clock": {"initialSeconds": -1}})
    missing = rest.refused("POST", create, 422, "VALIDATION_FAILED", json={"title": "greatfire"})
    assert missing["errors"] == [{"pointer": "/seats", "detail": "is required"}]
    odd = rest.refused("POST", create, 422, "VALIDATION_FAILED", json={"title": "greatfire", "seats": "3", "x": 1})
    assert {e["pointer"] for e in odd["errors"]} == {"/seats", "/x"}
    rest.refused("POST", create, 415, "UNSUPPORTED_MEDIA_TYPE", content=b'{"title": "greatfire", "seats": 3}',
                 headers={"content-type": "text/plain"})
    rest.refused("POST", create, 400, "MALFORMED_JSON", content=b"{not json", headers=JSON_CT)
    rest.refused("POST", create, 400, "MALFORMED_JSON", content=b'{"title": "\xff"}', headers=JSON_CT)
    rest.refused("POST", create, 400, "BAD_REQUEST", content=b"[1, 2]", headers=JSON_CT)
    rest.refused("POST", create, 400, "JSON_TOO_DEEP", content=b'{"a": ' + b"[" * 3000 + b"]" * 3000 + b"}",
                 headers=JSON_CT)
    rest.refused("POST", create, 413, "BODY_TOO_LARGE", content=b'{"a": "' + b"x" * 70_000 + b'"}',
                 headers=JSON_CT)
    seats, bots = f"/v1/matches/{waiting.match_id}/seats", f"/v1/matches/{waiting.match_id}/bots"
    rest.refused("POST", "/v1/matches/0123456789abcdef/seats", 404, "MATCH_NOT_FOUND", json={"name": "x"})
    # a body whose every member may be left out may be left out itself (the document says so: not required); one
    # that must be sent, or is sent as something else, is still refused
    rest.refused("POST", "/v1/matches/0123456789abcdef/seats", 404, "MATCH_NOT_FOUND")
    rest.refused("POST", create, 415, "UNSUPPORTED_MEDIA_TYPE")  # title and seats must be sent
    rest.refused("POST", seats, 415, "UNSUPPORTED_MEDIA_TYPE", content=b"x", headers={"content-type": "text/plain"})
    rest.refused("POST", seats, 409, "SEAT_TAKEN", json={"name": "x", "seat": 0})
    rest.refused("POST", seats, 422, "BAD_SEAT", json={"name": "x", "seat": 3})
    rest.refused("POST", f"/v1/matches/{active.match_id}/seats", 409, "MATCH_STARTED", json={"name": "x"})
    rest.refused("POST", bots, 401, "UNAUTHORIZED", json={"level": "random"})
    rest.refused("POST", bots, 401, "UNAUTHORIZED", "not-a-token", json={"level": "random"})
    rest.refused("POST", bots, 422, "UNKNOWN_BOT_LEVEL", waiting.host, json={"level": "genius"})
    rest.refused("POST", bots, 409, "SEAT_TAKEN", waiting.host, json={"level": "random", "seat": 0})
    rest.refused("POST", f"/v1/matches/{active.match_id}/bots", 409, "MATCH_STARTED", active.host,
                 json={"level": "random"})
    assert (stored_version(redis, waiting), stored_version(redis, active)) == before
    assert rest.match(waiting.match_id)["seats"][1]["taken"] is False


def test_read_refusals_have_their_status_and_code(rest: Rest, active: h.Setup, waiting: h.Setup) -> None:
    path = f"/v1/matches/{active.match_id}"
    rest.refused("GET", "/v1/matches/0123456789abcdef", 404, "MATCH_NOT_FOUND")
    rest.refused("GET", path, 401, "UNAUTHORIZED", waiting.humans[0])  # another match's token
    rest.refused("GET", path, 401, "UNAUTHORIZED", headers={"authorization": "Basic abc"})
    rest.refused("GET", f"{path}/events", 401, "UNAUTHORIZED", "made-up")
    rest.refused("GET", f"{path}/seats/3", 404, "SEAT_NOT_FOUND")
    bad = rest.refused("GET", f"{path}/seats/x", 422, "VALIDATION_FAILED")
    assert bad["errors"] == [{"pointer": "#/path/seat", "detail": "must be an integer"}]
    rest.refused("GET", f"{path}/events", 422, "VALIDATION_FAILED", params={"afterVersion": "x"})
    rest.refused("GET", "/v1/matches", 422, "VALIDATION_FAILED", params={"status": "PAUSED"})
    rest.refused("GET", "/v1/no/such/path", 404, "NOT_FOUND")
    refused = rest.call("DELETE", path)
    assert refused.status_code == 405 and refused.json()["code"] == "METHOD_NOT_ALLOWED"
    assert set(refused.headers["allow"].split(", ")) == {"GET", "HEAD"}
    listing = rest.call("PUT", "/v1/matches")
    assert listing.status_code == 405 and set(listing.headers["allow"].split(", ")) == {"GET", "HEAD", "POST"}


def test_act_refusals_have_their_status_and_code_and_change_nothing(rest: Rest, active: h.Setup,
                                                                   waiting: h.Setup, redis: Redis) -> None:
    seat, token, m = seat_to_act(rest, active)
    v = m["version"]
    legal = m["legalActions"][0]
    other = next(t for n, t in active.humans.items() if n != seat)
    before = stored_version(redis, active)

    def refused(status: int, code: str, token_: str | None, action: Any, version: int, match_id: str = "",
                key: str | None = None) -> dict[str, Any]:
        response = rest.act(match_id or active.match_id, token_, action, version, key)
        assert response.status_code == status, response.text
        problem: dict[str, Any] = response.json()
        assert problem["code"] == code, problem
        return problem

    assert refused(409, "STALE_VERSION", token, legal, v + 3)["currentVersion"] == v
    assert refused(403, "NOT_YOUR_TURN", other, legal, v)["version"] == v
    illegal = refused(422, "ILLEGAL_ACTION", token, {"type": "demolish", "district": "nowhere"}, v)
    assert illegal["version"] == v
    assert refused(422, "MALFORMED_ACTION", token, "not an action", v)["version"] == v
    refused(401, "UNAUTHORIZED", None, legal, v)
    refused(401, "UNAUTHORIZED", waiting.humans[0], legal, v)
    refused(404, "MATCH_NOT_FOUND", token, legal, v, "0123456789abcdef")
    refused(409, "MATCH_NOT_STARTED", waiting.humans[0], legal, 0, waiting.match_id)
    refused(422, "BAD_IDEMPOTENCY_KEY", token, legal, v, key="k" * 129)
    rest.refused("POST", f"/v1/matches/{active.match_id}/actions", 422, "VALIDATION_FAILED", token,
                 json={"action": legal})
    assert stored_version(redis, active) == before


# ----- playing ---------------------------------------------------------------------------------------------

def test_a_match_played_to_its_end_mixing_rest_and_graphql(rest: Rest, gql: h.Client, redis: Redis) -> None:
    """Created over REST, one seat joined over REST and one over GraphQL, a bot added over GraphQL (the workers
    move it); each action goes over a surface picked at random. At the end both surfaces give the same match,
    result and event log, the stored log replays to the stored state, and a further action is 409 MATCH_OVER."""
    rng = random.Random(7401)
    s = rest.create(3, 7401, options={"hiddenColours": True})
    rest.join(s, "rest player")
    h.join(gql, s, "graphql player")
    h.add_bot(gql, s, "random")
    humans = set(s.humans)
    surfaces = {"rest": 0, "graphql": 0}
    end = time.monotonic() + h.DEADLINE
    final: dict[str, Any] | None = None
    while final is None:
        assert time.monotonic() < end, f"match {s.match_id} did not finish"
        acted = False
        for seat, token in s.humans.items():
            m = rest.match(s.match_id, token)
            h.check_match(m, seat, humans, hidden=True)
            if m["status"] == "OVER":
                final = m
                break
            if seat not in m["toAct"] or not m["legalActions"]:
                continue
            action = rng.choice(m["legalActions"])
            key = f"{seat}-{m['version']}"
            if rng.random() < 0.5:
                response = rest.act(s.match_id, token, action, m["version"], key)
                assert response.status_code == 200, response.text
                accepted = response.json()
                conforms(accepted, "ActionAccepted")
                assert accepted["version"] == m["version"] + 1 <= accepted["match"]["version"]
                assert accepted["match"]["you"] == seat
                h.check_events(accepted["events"], seat)
                surfaces["rest"] += 1
            else:
                result = h.act(gql, s.match_id, token, action, m["version"], key)
                assert result["__typename"] == "ActionAccepted" and result["version"] == m["version"] + 1, result
                surfaces["graphql"] += 1
            acted = True
        if final is None and not acted:
            time.sleep(0.01)
    assert min(surfaces.values()) > 0, surfaces
    assert final["result"]["winners"] and final["endReason"] == "FINISHED"
    assert final["result"]["columns"] == rest.ok("GET", "/v1/titles/greatfire", "TitleDetail")["scoreColumns"]
    seat, token = next(iter(s.humans.items()))
    assert timeless(rest.match(s.match_id, token)) == timeless(graphql_match(gql, s.match_id, token))
    record = h.check_replay(redis, s)
    assert any(e.get("bot") == "random" for e in record["log"]), "the workers never moved the bot"
    # an over match can still be read, but takes no action: 409 MATCH_OVER (not 410, see the docs)
    response = rest.act(s.match_id, token, {"type": "endActions"}, final["version"])
    assert response.status_code == 409 and response.json()["code"] == "MATCH_OVER", response.text
    assert response.json()["version"] == final["version"]
    # the events endpoint: page by page, equal to GraphQL's, redacted for each viewer
    for viewer in (None, *s.humans.values()):
        rows: list[dict[str, Any]] = []
        while True:
            page = rest.ok("GET", f"/v1/matches/{s.match_id}/events", "EventPage", token=viewer,
                           params={"afterVersion": rows[-1]["version"] if rows else 0, "limit": 50})["items"]
            if not page:
                break
            rows.extend(page)
        assert rows == h.all_events(gql, s.match_id, viewer)
        assert [r["version"] for r in rows] == list(range(1, record["version"] + 1))
    h.check_redaction(gql, redis, s)


def test_an_idempotency_key_replays_the_first_outcome_on_both_surfaces(rest: Rest, gql: h.Client,
                                                                     redis: Redis) -> None:
    s = active_match(rest, 7501)
    _seat, token, m = seat_to_act(rest, s)
    v = m["version"]
    first = rest.act(s.match_id, token, m["legalActions"][0], v, key="once")
    assert first.status_code == 200, first.text
    again = rest.act(s.match_id, token, m["legalActions"][0], v, key="once")
    assert again.status_code == 200
    assert {k: again.json()[k] for k in ("version", "events")} == {k: first.json()[k] for k in ("version", "events")}
    over_graphql = h.act(gql, s.match_id, token, m["legalActions"][0], v, key="once")
    assert over_graphql == {"__typename": "ActionAccepted", "version": v + 1, "events": first.json()["events"]}
    # a refused outcome replays too, after the match has moved on
    stale = rest.act(s.match_id, token, m["legalActions"][0], v + 9, key="late")
    assert stale.status_code == 409 and stale.json()["currentVersion"] == v + 1
    _seat2, token2, m2 = seat_to_act(rest, s)
    assert rest.act(s.match_id, token2, m2["legalActions"][0], m2["version"]).status_code == 200
    replayed = rest.act(s.match_id, token, m["legalActions"][0], v + 9, key="late")
    assert replayed.status_code == 409 and replayed.json()["currentVersion"] == v + 1
    record = h.check_replay(redis, s)
    assert record["version"] == v + 2


def test_prefer_return_minimal_answers_the_version_and_events_only(rest: Rest, redis: Redis) -> None:
    s = active_match(rest, 7502)
    _seat, token, m = seat_to_act(rest, s)
    answer = rest.call("POST", f"/v1/matches/{s.match_id}/actions", token,
                       headers={"prefer": "handling=lenient, return=minimal"},
                       json={"action": m["legalActions"][0], "expectedVersion": m["version"]})
    assert answer.status_code == 200, answer.text
    assert answer.headers["preference-applied"] == "return=minimal"
    assert set(answer.json()) == {"version", "events"} and answer.json()["version"] == m["version"] + 1
    # without the preference (or with another) the match comes with the answer, as before
    seat2, token2, m2 = seat_to_act(rest, s)
    full = rest.call("POST", f"/v1/matches/{s.match_id}/actions", token2, headers={"prefer": "return=representation"},
                     json={"action": m2["legalActions"][0], "expectedVersion": m2["version"]})
    assert full.status_code == 200 and "preference-applied" not in full.headers
    assert full.json()["match"]["version"] == m2["version"] + 1 and full.json()["match"]["you"] == seat2
    h.check_replay(redis, s)


# ----- operations: metrics, rate limits, an unreachable Redis ------------------------------------------

def test_rest_requests_are_counted_by_route_template_not_by_raw_path(rest: Rest, active: h.Setup,
                                                                   server: str) -> None:
    rest.match(active.match_id)
    rest.refused("GET", "/v1/matches/0123456789abcdef", 404, "MATCH_NOT_FOUND")
    metrics = httpx.get(f"{server}/metrics", timeout=TIMEOUT).text
    assert 'path="/v1/matches/{id}",status="200"' in metrics
    assert 'path="/v1/matches/{id}",status="404"' in metrics
    assert active.match_id not in metrics and "0123456789abcdef" not in metrics


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process with tight limits over a Redis of its own (its buckets must not empty the shared one's)."""
    folder: Path = tmp_path_factory.mktemp("rest-limited")
    redis = EmbeddedRedis(folder / "redis", appendonly=False, prefer_bundled=False)
    url = redis.start()
    tight = {"FIREBREAK_RATE_TOKEN_PER_SECOND": "0.5", "FIREBREAK_RATE_TOKEN_BURST": "3",
             "FIREBREAK_RATE_CLIENT_PER_SECOND": "500", "FIREBREAK_RATE_CLIENT_BURST": "1000",
             "FIREBREAK_RATE_AUTH_FAILURES_PER_SECOND": "0.05", "FIREBREAK_RATE_AUTH_FAILURES_BURST": "3"}
    try:
        with h.api_process(url, folder / "api.log", tight) as base:
            yield base
    finally:
        redis.stop()


def test_writes_past_the_burst_and_credentials_past_the_failures_are_429_with_retry_after(limited: str) -> None:
    r = Rest(limited)
    try:
        s = active_match(r, 7601)
        _seat, token, m = seat_to_act(r, s)
        answers = [r.act(s.match_id, token, m["legalActions"][0], m["version"] + 5) for _ in range(6)]
        assert [a.status_code for a in answers[:3]] == [409] * 3, [a.text for a in answers]
        refused = answers[-1]
        assert refused.status_code == 429, refused.text
        problem = refused.json()
        assert problem["code"] == "RATE_LIMITED" and problem["retryAfter"] > 0
        assert int(refused.headers["retry-after"]) >= 1
        # made-up tokens: past the burst of failures the client's credentials are refused, reads included
        codes = [r.call("GET", f"/v1/matches/{s.match_id}", f"guess-{n}").json()["code"] for n in range(6)]
        assert codes[:3] == ["UNAUTHORIZED"] * 3 and codes[-1] == "RATE_LIMITED", codes
        blocked = r.call("GET", "/v1/titles", token)
        assert blocked.status_code == 429 and int(blocked.headers["retry-after"]) >= 1
        assert r.call("GET", "/v1/titles").status_code == 200  # no credential: not an auth attempt
    finally:
        r.close()


@pytest.fixture(scope="module")
def redis_down(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process whose Redis URL points at a port where nothing listens."""
    with h.api_process(f"redis://127.0.0.1:{free_port()}/0", tmp_path_factory.mktemp("rest-down") / "api.log") as b:
        yield b


def test_requests_that_need_redis_are_503_with_retry_after_while_it_is_unreachable(redis_down: str) -> None:
    r = Rest(redis_down)
    try:
        for method, path, kwargs in (("GET", "/v1/matches", {}), ("GET", "/v1/matches/0123456789abcdef", {}),
                                     ("POST", "/v1/matches", {"json": {"title": "greatfire", "seats": 3}})):
            response = r.call(method, path, **kwargs)
            assert response.status_code == 503, response.text
            assert response.json()["code"] == "SERVICE_UNAVAILABLE"
            assert int(response.headers["retry-after"]) >= 1
        assert r.call("GET", "/v1/titles").status_code == 200  # served without Redis
    finally:
        r.close()


def test_every_bound_of_a_request_is_a_json_schema_keyword() -> None:
    """pydantic writes a bound it cannot place as its own name (ge, le...); JSON Schema and a fuzzer ignore those."""
    def keys(schema: Any) -> set[str]:
        if isinstance(schema, dict):
            return set(schema) | set().union(*(keys(v) for k, v in schema.items() if k != "properties"),
                                             *(keys(v) for v in schema.get("properties", {}).values()))
        return set().union(*(keys(v) for v in schema)) if isinstance(schema, list) else set()
    schemas = components()
    assert keys([schemas[model.__name__] for model in REQUESTS]) & {"ge", "le", "gt", "lt"} == set()


def test_bounds_now_in_the_document_keep_the_codes_they_had(rest: Rest) -> None:
    """A bound the layers behind the routes enforced before the document stated it is refused with the same code
    as before (now by pydantic), and a wrong type is still VALIDATION_FAILED."""
    create = "/v1/matches"
    for clock in ({"initialSeconds": 0}, {"initialSeconds": 604801}, {"incrementSeconds": 5},
                  {"initialSeconds": 60, "incrementSeconds": 86401}, {"perMoveSeconds": 1209601}, {}):
        rest.refused("POST", create, 422, "BAD_OPTIONS", json={"title": "greatfire", "seats": 3, "clock": clock})
    rest.refused("POST", create, 422, "VALIDATION_FAILED", json={"title": "greatfire", "seats": 3,
                                                                 "clock": {"initialSeconds": "60"}})
    rest.refused("POST", create, 422, "BAD_OPTIONS", json={"title": "london", "seats": 5})
    rest.refused("POST", create, 422, "BAD_OPTIONS", json={"title": "greatfire", "seats": 3, "rated": True,
                                                           "seed": 1})
    rest.refused("POST", create, 422, "VALIDATION_FAILED", json={"title": "greatfire", "seats": 2**31})
    rest.refused("POST", create, 422, "VALIDATION_FAILED", json={"title": "greatfire", "seats": True})
    assert rest.call("POST", create, json={"title": "greatfire", "seats": 3.0}).status_code == 201  # an integer
    guest = "/v1/auth/guest"
    rest.refused("POST", guest, 422, "BAD_NAME", json={"name": "a\u0007", "deviceId": "d" * 16})
    rest.refused("POST", guest, 422, "BAD_NAME", json={"name": "n" * 41, "deviceId": "d" * 16})
    rest.refused("POST", guest, 422, "BAD_NAME", json={"name": "   ", "deviceId": "d" * 16})
    rest.refused("POST", guest, 422, "BAD_DEVICE_ID", json={"name": "ann", "deviceId": "short"})
    rest.refused("POST", guest, 422, "VALIDATION_FAILED", json={"name": 7, "deviceId": "d" * 16})
    rest.refused("GET", "/v1/titles/chess/leaderboard", 404, "TITLE_NOT_FOUND")
