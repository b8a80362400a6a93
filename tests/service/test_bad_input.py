"""Bad input gets a typed error (a member of the result union, with a code) or a 4xx, never a 500, and changes
nothing: every viewer's read of the match and the stored log are the same afterwards."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from redis import Redis

from firebreak.domain.titles import all_titles
from firebreak.matches import keys
from tests.service import support as h
from tests.service.conftest import Client

INT_MAX = 2**31 - 1
UNKNOWN_ID = "0123456789abcdef"


@pytest.fixture(scope="module")
def c(server: str) -> Iterator[h.RecordingClient]:
    with h.recording(server) as client:
        yield client


@pytest.fixture(scope="module")
def active(c: h.RecordingClient) -> h.Setup:
    """A started 3-seat match of people only (nothing moves unless a test acts)."""
    return h.all_human_match(c, seats=3, seed=501)


@pytest.fixture(scope="module")
def waiting(c: h.RecordingClient) -> h.Setup:
    """A 3-seat match with seat 1 taken, waiting for two more."""
    s = h.create(c, 3, 502)
    h.join(c, s, "first", seat=1)
    return s


@pytest.fixture(scope="module")
def over(c: h.RecordingClient) -> h.Setup:
    s = h.create(c, 3, 503)
    h.join(c, s, "only person")
    h.add_bot(c, s, "random")
    h.add_bot(c, s, "random")
    h.play_to_end(c, s, random.Random(503))
    return s


def snapshot(c: Client, redis: Redis, s: h.Setup) -> Any:
    """Everything a bad request must leave as it was: each viewer's read, the stored state and log, the seats."""
    reads = [h.state(c, s.match_id, t) for t in [None, s.host, *s.humans.values()]]
    return reads, redis.hgetall(keys.state(s.match_id)), redis.lrange(keys.log(s.match_id), 0, -1), \
        redis.hgetall(keys.seats(s.match_id)), redis.hgetall(keys.meta(s.match_id)), redis.get(keys.archive(s.match_id))


def lobby_counts(redis: Redis) -> dict[str, int]:
    return {status: redis.zcard(keys.lobby(status)) for status in ("waiting", "active", "over")}


def refused_by_graphql_or_http(response: httpx.Response) -> None:
    """A refusal outside the result unions: a 4xx, or a GraphQL request error (errors and no data), never a
    500 and never an internal error masked as 'Internal error.'."""
    assert response.status_code < 500, f"{response.status_code}: {response.text[:500]}"
    if response.status_code >= 400:
        return
    assert response.status_code == 200, response.status_code
    body = response.json()
    assert body.get("errors"), f"accepted instead of refused: {response.text[:500]}"
    assert all(e.get("message") != "Internal error." for e in body["errors"]), \
        f"an internal error (a bug surfaced as a masked exception): {body}"
    data = body.get("data")
    assert data is None or all(v is None for v in data.values()), body


def _acting(c: Client, s: h.Setup) -> tuple[int, str, dict[str, Any], int, str]:
    seat, token, m = h.to_act(c, s)
    idle = next(x for x in s.humans if x != seat)
    return seat, token, m, idle, s.humans[idle]


# ----- act: refusals in the result union -----------------------------------------------------------------

DEEP = {"type": "placeBand", "district": json.loads("[" * 400 + "]" * 400)}
MALFORMED_ACTIONS = [
    pytest.param("hello", id="a-string"),
    pytest.param(42, id="a-number"),
    pytest.param([], id="a-list"),
    pytest.param({}, id="no-type"),
    pytest.param({"type": "noSuchAction"}, id="unknown-type"),
    pytest.param({"type": None}, id="null-type"),
    pytest.param({"type": ["placeBand"]}, id="list-type"),
    pytest.param({"type": {"placeBand": 1}}, id="object-type"),
    pytest.param({"type": "placeBand"}, id="missing-district"),
    pytest.param({"type": "placeBand", "district": "atlantis"}, id="unknown-district"),
    pytest.param({"type": "placeBand", "district": ["clerkenwell"]}, id="list-district"),
    pytest.param({"type": "placeBand", "district": {"id": "clerkenwell"}}, id="object-district"),
    pytest.param({"type": "placeBand", "district": 7}, id="number-district"),
    pytest.param({"type": "movePawn", "pawn": 1e308, "to": None}, id="absurd-pawn"),
    pytest.param({"type": "movePawn", "pawn": -1, "to": "clerkenwell"}, id="negative-pawn"),
    pytest.param({"type": "playCard", "card": "x" * 40_000}, id="huge-string"),
    pytest.param({"type": "endActions"}, id="a-legal-type-out-of-phase"),
]


@pytest.mark.parametrize("action", MALFORMED_ACTIONS)
def test_a_malformed_or_illegal_action_is_refused(c: h.RecordingClient, redis: Redis, active: h.Setup,
                                                  action: Any) -> None:
    _seat, token, m, _idle, _ = _acting(c, active)
    before = snapshot(c, redis, active)
    result = h.act(c, active.match_id, token, action, m["version"])
    assert result["__typename"] == "IllegalAction", result
    assert result["code"] in {"MALFORMED_ACTION", "ILLEGAL_ACTION"} and result["at"] == m["version"], result
    assert snapshot(c, redis, active) == before


def test_an_action_nested_too_deep_gets_400_before_any_parser(c: h.RecordingClient, redis: Redis,
                                                             active: h.Setup) -> None:
    """JSON nested past 64 levels is refused by the guard in front of the parsers; nothing changes."""
    _seat, token, m, _idle, _ = _acting(c, active)
    before = snapshot(c, redis, active)
    response = c.post(h.ACT, {"input": {"matchId": active.match_id, "action": DEEP,
                                        "expectedVersion": m["version"]}}, token)
    assert response.status_code == 400 and "nested deeper" in response.json()["errors"][0]["message"]
    assert response.json()["errors"][0]["extensions"]["code"] == "JSON_TOO_DEEP"
    assert snapshot(c, redis, active) == before


def _act_cases(s: h.Setup, over: h.Setup, waiting: h.Setup, other: h.Setup, token: str, idle: str,
               action: Any, v: int, over_v: int) -> list[tuple[str, str, str | None, Any, int, str, str]]:
    """(label, match id, token, action, expectedVersion, typename, code)"""
    return [
        ("unknown match", UNKNOWN_ID, token, action, v, "MatchNotFound", "MATCH_NOT_FOUND"),
        ("not an id", "../../etc/passwd", token, action, v, "MatchNotFound", "MATCH_NOT_FOUND"),
        ("empty id", "", token, action, v, "MatchNotFound", "MATCH_NOT_FOUND"),
        ("huge id", "a" * 20_000, token, action, v, "MatchNotFound", "MATCH_NOT_FOUND"),
        ("no token", s.match_id, None, action, v, "Unauthorized", "UNAUTHORIZED"),
        ("made-up token", s.match_id, "x" * 43, action, v, "Unauthorized", "UNAUTHORIZED"),
        ("host token", s.match_id, s.host, action, v, "Unauthorized", "UNAUTHORIZED"),
        ("another match's token", s.match_id, other.humans[0], action, v, "Unauthorized", "UNAUTHORIZED"),
        ("another seat's turn", s.match_id, idle, action, v, "NotYourTurn", "NOT_YOUR_TURN"),
        ("negative version", s.match_id, token, action, -1, "StaleVersion", "STALE_VERSION"),
        ("future version", s.match_id, token, action, v + 1, "StaleVersion", "STALE_VERSION"),
        ("largest version", s.match_id, token, action, INT_MAX, "StaleVersion", "STALE_VERSION"),
        ("over", over.match_id, next(iter(over.humans.values())), {"type": "endActions"},
         over_v, "MatchOver", "MATCH_OVER"),
        ("waiting", waiting.match_id, next(iter(waiting.humans.values())), {"type": "keepHand"}, 0,
         "MatchNotStarted", "MATCH_NOT_STARTED"),
    ]


def test_act_refusals_are_typed_and_change_nothing(c: h.RecordingClient, redis: Redis, active: h.Setup,
                                                   waiting: h.Setup, over: h.Setup) -> None:
    other = h.all_human_match(c, seats=3, seed=504)
    _seat, token, m, _idle_seat, idle = _acting(c, active)
    watched = [active, waiting, over, other]
    before = [snapshot(c, redis, s) for s in watched]
    failures = []
    for label, match_id, tok, action, v, typename, code in _act_cases(
            active, over, waiting, other, token, idle, m["legalActions"][0], m["version"],
            h.state(c, over.match_id, None)["version"]):
        result = h.act(c, match_id, tok, action, v)
        if result["__typename"] != typename or result.get("code") != code or not result.get("message"):
            failures.append((label, result))
    assert not failures, failures
    assert [snapshot(c, redis, s) for s in watched] == before


def test_a_malformed_authorization_header_is_unauthorized(server: str, c: h.RecordingClient, redis: Redis,
                                                         active: h.Setup) -> None:
    _seat, token, m, _idle, _ = _acting(c, active)
    before = snapshot(c, redis, active)
    variables = {"input": {"matchId": active.match_id, "action": m["legalActions"][0],
                           "expectedVersion": m["version"]}}
    for header in [token, f"Basic {token}", "Bearer", f"Bearer  {token}x", f"bearer {token[:-1]}", "\u00e9\u00e8"]:
        try:
            response = httpx.post(f"{server}/graphql", json={"query": h.ACT, "variables": variables},
                                  headers={"authorization": header}, timeout=30)
        except UnicodeEncodeError:
            response = httpx.post(f"{server}/graphql", json={"query": h.ACT, "variables": variables},
                                  headers={b"authorization": header.encode("utf-8")}, timeout=30)
        assert response.status_code == 200, response.text
        assert response.json()["data"]["act"]["__typename"] == "Unauthorized", (header, response.text)
    assert snapshot(c, redis, active) == before


# ----- lobby refusals ------------------------------------------------------------------------------------

CREATE_CASES = [
    pytest.param({"title": "greatfire", "seats": -3}, "BAD_OPTIONS", id="negative-seats"),
    pytest.param({"title": "greatfire", "seats": 0}, "BAD_OPTIONS", id="zero-seats"),
    pytest.param({"title": "greatfire", "seats": 1}, "BAD_OPTIONS", id="one-seat"),
    pytest.param({"title": "greatfire", "seats": 7}, "BAD_OPTIONS", id="seven-seats"),
    pytest.param({"title": "greatfire", "seats": INT_MAX}, "BAD_OPTIONS", id="huge-seats"),
    pytest.param({"title": "greatfire", "seats": -INT_MAX - 1}, "BAD_OPTIONS", id="most-negative-seats"),
    pytest.param({"title": "chess", "seats": 3}, "UNKNOWN_TITLE", id="unknown-title"),
    pytest.param({"title": "", "seats": 3}, "UNKNOWN_TITLE", id="empty-title"),
    pytest.param({"title": "g" * 10_000, "seats": 3}, "UNKNOWN_TITLE", id="huge-title"),
    pytest.param({"title": "greatfire", "seats": 3, "options": {"fog": True}}, "BAD_OPTIONS", id="unknown-option"),
    pytest.param({"title": "greatfire", "seats": 3, "options": {"hiddenColours": "yes"}}, "BAD_OPTIONS",
                 id="non-bool-option"),
    pytest.param({"title": "greatfire", "seats": 3, "options": {"startSeat": 3}}, "BAD_OPTIONS",
                 id="start-seat-out-of-range"),
    pytest.param({"title": "greatfire", "seats": 3, "options": {"npcTies": {"a": [1]}}}, "BAD_OPTIONS",
                 id="object-option-value"),
    pytest.param({"title": "greatfire", "seats": 3, "options": [1, 2]}, "BAD_OPTIONS", id="options-a-list"),
    pytest.param({"title": "greatfire", "seats": 3, "options": "hiddenColours"}, "BAD_OPTIONS",
                 id="options-a-string"),
    pytest.param({"title": "greatfire", "seats": 2, "options": {"moreDestruction": True}}, "BAD_OPTIONS",
                 id="option-not-for-two"),
]


@pytest.mark.parametrize(("body", "code"), CREATE_CASES)
def test_a_bad_create_is_invalid_input_and_creates_nothing(c: h.RecordingClient, redis: Redis,
                                                           body: dict[str, Any], code: str) -> None:
    before = lobby_counts(redis)
    result = c.gql(h.CREATE, {"input": body})["createMatch"]
    assert result["__typename"] == "InvalidInput" and result["code"] == code and result["message"], result
    assert lobby_counts(redis) == before


def test_bad_joins_and_bots_are_typed_and_change_nothing(c: h.RecordingClient, redis: Redis, waiting: h.Setup,
                                                         active: h.Setup) -> None:
    other = h.create(c, 3, 505)
    seat_token = waiting.humans[1]
    cases: list[tuple[str, str, dict[str, Any], str | None, str, str]] = [
        ("join unknown match", h.JOIN, {"matchId": UNKNOWN_ID, "name": "x"}, None, "MatchNotFound", "MATCH_NOT_FOUND"),
        ("join bad id", h.JOIN, {"matchId": "<script>", "name": "x"}, None, "MatchNotFound", "MATCH_NOT_FOUND"),
        ("join negative seat", h.JOIN, {"matchId": waiting.match_id, "name": "x", "seat": -1}, None,
         "InvalidInput", "BAD_SEAT"),
        ("join seat out of range", h.JOIN, {"matchId": waiting.match_id, "name": "x", "seat": 3}, None,
         "InvalidInput", "BAD_SEAT"),
        ("join huge seat", h.JOIN, {"matchId": waiting.match_id, "name": "x", "seat": INT_MAX}, None,
         "InvalidInput", "BAD_SEAT"),
        ("join most negative seat", h.JOIN, {"matchId": waiting.match_id, "name": "x", "seat": -INT_MAX - 1}, None,
         "InvalidInput", "BAD_SEAT"),
        ("join a taken seat", h.JOIN, {"matchId": waiting.match_id, "name": "x", "seat": 1}, None,
         "SeatTaken", "SEAT_TAKEN"),
        ("join a started match", h.JOIN, {"matchId": active.match_id, "name": "x"}, None,
         "MatchStarted", "MATCH_STARTED"),
        ("bot at a bad level", h.BOT, {"matchId": waiting.match_id, "level": "godlike"}, waiting.host,
         "InvalidInput", "UNKNOWN_BOT_LEVEL"),
        ("bot at an empty level", h.BOT, {"matchId": waiting.match_id, "level": ""}, waiting.host,
         "InvalidInput", "UNKNOWN_BOT_LEVEL"),
        ("bot without a token", h.BOT, {"matchId": waiting.match_id, "level": "random"}, None,
         "Unauthorized", "UNAUTHORIZED"),
        ("bot with a made-up token", h.BOT, {"matchId": waiting.match_id, "level": "random"}, "nope",
         "Unauthorized", "UNAUTHORIZED"),
        ("bot with another match's host token", h.BOT, {"matchId": waiting.match_id, "level": "random"}, other.host,
         "Unauthorized", "UNAUTHORIZED"),
        ("bot in a taken seat", h.BOT, {"matchId": waiting.match_id, "level": "random", "seat": 1}, seat_token,
         "SeatTaken", "SEAT_TAKEN"),
        ("bot in a seat out of range", h.BOT, {"matchId": waiting.match_id, "level": "random", "seat": 9},
         waiting.host, "InvalidInput", "BAD_SEAT"),
        ("bot in a negative seat", h.BOT, {"matchId": waiting.match_id, "level": "random", "seat": -2},
         waiting.host, "InvalidInput", "BAD_SEAT"),
        ("bot in an unknown match", h.BOT, {"matchId": UNKNOWN_ID, "level": "random"}, waiting.host,
         "MatchNotFound", "MATCH_NOT_FOUND"),
        ("bot in a started match", h.BOT, {"matchId": active.match_id, "level": "random"}, active.host,
         "MatchStarted", "MATCH_STARTED"),
    ]
    watched = [waiting, active, other]
    before = [snapshot(c, redis, s) for s in watched], lobby_counts(redis)
    failures = []
    for label, query, variables, token, typename, code in cases:
        result = next(iter(c.gql(query, {"input": variables}, token).values()))
        if result["__typename"] != typename or result.get("code") != code or not result.get("message"):
            failures.append((label, result))
    assert not failures, failures
    assert ([snapshot(c, redis, s) for s in watched], lobby_counts(redis)) == before


def test_a_long_or_odd_name_is_cleaned_not_refused(c: h.RecordingClient) -> None:
    s = h.create(c, 3, 506)
    h.join(c, s, "x" * 20_000)
    h.join(c, s, "  \n\t ")
    h.join(c, s, "\u0000\u202e\U0001f525 ann")
    names = [row["name"] for row in h.state(c, s.match_id, None)["seats"]]
    assert all(isinstance(n, str) and 0 < len(n) <= 40 for n in names), names


# ----- refusals outside the unions: GraphQL request errors and HTTP errors -------------------------------

def _deep_introspection() -> str:
    inner = "name"
    for _ in range(12):
        inner = f"name fields {{ name type {{ name ofType {{ name fields {{ {inner} }} }} }} }}"
    return "{ __schema { types { " + inner + " } } }"


GRAPHQL_ERRORS = [
    pytest.param("{ titles { id nope } }", {}, id="unknown-field"),
    pytest.param("{ match(id: \"ab\", nope: 1) { id } }", {}, id="unknown-argument"),
    pytest.param(h.CREATE, {"input": {"title": "greatfire", "seats": 3, "nope": 1}}, id="unknown-input-field"),
    pytest.param(h.CREATE, {"input": {"title": "greatfire"}}, id="missing-input-field"),
    pytest.param(h.CREATE, {"input": {"title": "greatfire", "seats": "three"}}, id="wrong-type"),
    pytest.param(h.CREATE, {"input": {"title": "greatfire", "seats": 2**40}}, id="seats-beyond-int32"),
    pytest.param(h.CREATE, {"input": {"title": "greatfire", "seats": 3.5}}, id="fractional-seats"),
    pytest.param(h.JOIN, {"input": {"matchId": UNKNOWN_ID, "name": "x", "seat": -(2**40)}},
                 id="seat-beyond-int32"),
    pytest.param(h.ACT, {"input": {"matchId": UNKNOWN_ID, "action": None, "expectedVersion": 0}}, id="null-action"),
    pytest.param(h.ACT, {"input": {"matchId": UNKNOWN_ID, "action": {}, "expectedVersion": 2**31}},
                 id="version-beyond-int32"),
    pytest.param(h.ACT, {"input": {"matchId": UNKNOWN_ID, "action": {}}}, id="missing-version"),
    pytest.param("{ " + " ".join(f"a{n}: titles {{ id }}" for n in range(100)) + " }", {}, id="too-many-aliases"),
    pytest.param("{ " + "titles { id } " * 700 + "}", {}, id="too-many-tokens"),
    pytest.param(_deep_introspection(), {}, id="deep-introspection"),
    pytest.param("{ titles { id " + "{ id " * 300 + "} " * 300 + "} }", {}, id="deeply-nested-selection"),
    pytest.param("{ titles { ...A } } fragment A on Title { ...B } fragment B on Title { ...A }", {},
                 id="fragment-cycle"),
    pytest.param("{ titles { id }", {}, id="syntax-error"),
    pytest.param("subscription { matchEvents(matchId: \"ab\") { version } }", {}, id="subscription-over-post"),
]


@pytest.mark.parametrize(("query", "variables"), GRAPHQL_ERRORS)
def test_a_bad_graphql_request_is_refused(c: h.RecordingClient, redis: Redis, active: h.Setup, query: str,
                                          variables: dict[str, Any]) -> None:
    before = snapshot(c, redis, active), lobby_counts(redis)
    refused_by_graphql_or_http(c.post(query, variables, active.humans[0]))
    assert (snapshot(c, redis, active), lobby_counts(redis)) == before


def _raw(server: str, method: str = "POST", **kwargs: Any) -> Callable[[], httpx.Response]:
    return lambda: httpx.request(method, f"{server}/graphql", timeout=30, **kwargs)


JSON_CT = {"content-type": "application/json"}
ACT_BODY = {"query": h.ACT, "variables": {"input": {"matchId": UNKNOWN_ID, "action": {}, "expectedVersion": 0}}}
HTTP_CASES = [
    pytest.param(dict(content=b"{not json", headers=JSON_CT), id="invalid-json"),
    pytest.param(dict(content=b"\xff\xfe\x00garbage", headers=JSON_CT), id="not-utf8"),
    pytest.param(dict(content=b"", headers=JSON_CT), id="empty-body"),
    pytest.param(dict(content=b'"a string"', headers=JSON_CT), id="json-string-body"),
    pytest.param(dict(content=b"42", headers=JSON_CT), id="json-number-body"),
    pytest.param(dict(content=b"null", headers=JSON_CT), id="json-null-body"),
    pytest.param(dict(json={"query": 42}), id="query-not-a-string"),
    pytest.param(dict(json={"query": "{ titles { id } }", "variables": [1]}), id="variables-a-list"),
    pytest.param(dict(json={"query": "{ titles { id } }", "variables": "x"}), id="variables-a-string"),
    pytest.param(dict(json={"query": "{ titles { id } }", "operationName": 5}), id="operation-name-a-number"),
    pytest.param(dict(json={"query": "{ titles { id } }", "operationName": "Nope"}), id="unknown-operation"),
    pytest.param(dict(json=[ACT_BODY, ACT_BODY]), id="a-batch"),
    pytest.param(dict(json={}), id="no-query"),
    pytest.param(dict(content=json.dumps(ACT_BODY).encode(), headers={"content-type": "text/plain"}),
                 id="text-plain"),
    pytest.param(dict(content=json.dumps(ACT_BODY).encode(), headers={"content-type": "application/xml"}),
                 id="xml-content-type"),
    pytest.param(dict(content=json.dumps(ACT_BODY).encode(), headers={"content-type": "multipart/form-data"}),
                 id="multipart-without-boundary"),
    pytest.param(dict(content=json.dumps(ACT_BODY).encode(), headers={}), id="no-content-type"),
    pytest.param(dict(content=b"x" * (1024 * 1024), headers=JSON_CT), id="a-1MB-body"),
    pytest.param(dict(json={"query": "{ titles { id } }", "pad": "x" * (1024 * 1024)}), id="a-1MB-json-body"),
    pytest.param(dict(content=b"[" * 5000 + b"]" * 5000, headers=JSON_CT), id="deeply-nested-json-body"),
    pytest.param(dict(content=(b'{"query": "{ titles { id } }", "variables": {"a": ' + b"[" * 5000 + b"]" * 5000
                               + b"}}"), headers=JSON_CT), id="deeply-nested-json-variables"),
]


@pytest.mark.parametrize("kwargs", HTTP_CASES)
def test_a_bad_http_request_gets_a_4xx_or_a_graphql_error(server: str, c: h.RecordingClient, redis: Redis,
                                                          active: h.Setup, kwargs: dict[str, Any]) -> None:
    before = snapshot(c, redis, active), lobby_counts(redis)
    response = _raw(server, **kwargs)()
    refused_by_graphql_or_http(response)
    assert (snapshot(c, redis, active), lobby_counts(redis)) == before
    assert httpx.get(f"{server}/healthz", timeout=10).status_code == 200


GRAPHQL_PARAMS = {"query": "{ titles { id } }"}
REFUSED_WITH_A_CODE = [
    pytest.param("POST", dict(content=b'{"query": "{ titles { id } }", "x": "\xff\xfe"}', headers=JSON_CT),
                 400, "MALFORMED_JSON", id="invalid-utf8"),
    pytest.param("POST", dict(content=b"{not json", headers=JSON_CT), 400, "MALFORMED_JSON", id="malformed-json"),
    pytest.param("POST", dict(content=b'{"query": "{ titles { id } }", "variables": {"n": ' + b"7" * 5000 + b"}}",
                              headers=JSON_CT), 400, "MALFORMED_JSON", id="a-5000-digit-number"),
    pytest.param("POST", dict(content=b'{"query": "{ titles { id } }", "variables": {"a": ' + b"[" * 3000
                              + b"]" * 3000 + b"}}", headers=JSON_CT), 400, "JSON_TOO_DEEP", id="deep-post-variables"),
    pytest.param("GET", dict(params={**GRAPHQL_PARAMS, "variables": "[" * 3000 + "]" * 3000}), 400, "JSON_TOO_DEEP",
                 id="deep-get-variables"),
    pytest.param("GET", dict(params={**GRAPHQL_PARAMS, "extensions": '{"a":' * 100 + "1" + "}" * 100}), 400,
                 "JSON_TOO_DEEP", id="deep-get-extensions"),
    pytest.param("GET", dict(params={**GRAPHQL_PARAMS, "variables": "{bad"}), 400, "MALFORMED_JSON",
                 id="malformed-get-variables"),
    pytest.param("POST", dict(content=b"[1, 2]", headers=JSON_CT), 400, "BAD_REQUEST", id="not-an-object"),
    pytest.param("POST", dict(json={}), 400, "BAD_REQUEST", id="no-query"),
    pytest.param("POST", dict(content=b'{"query": "{ titles { id } }"}', headers={"content-type": "text/plain"}),
                 400, "BAD_REQUEST", id="unsupported-content-type"),
    pytest.param("POST", dict(content=b"x" * 70_000, headers=JSON_CT), 413, "BODY_TOO_LARGE", id="too-large"),
]


@pytest.mark.parametrize(("method", "kwargs", "status", "code"), REFUSED_WITH_A_CODE)
def test_a_request_refused_as_a_whole_gets_a_json_graphql_error(server: str, redis: Redis, method: str,
                                                                kwargs: dict[str, Any], status: int,
                                                                code: str) -> None:
    """Not a 500 and not plain text: {"errors": [{"message", "extensions": {"code"}}]} with a 4xx status."""
    before = lobby_counts(redis)
    response = httpx.request(method, f"{server}/graphql", timeout=30, **kwargs)
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"].startswith("application/json")
    errors = response.json()["errors"]
    assert len(errors) == 1 and isinstance(errors[0]["message"], str) and errors[0]["message"], errors
    assert errors[0]["extensions"]["code"] == code, errors
    assert lobby_counts(redis) == before
    assert httpx.get(f"{server}/graphql", params=GRAPHQL_PARAMS, timeout=30).json() == \
        {"data": {"titles": [{"id": t.id} for t in all_titles()]}}


def test_a_streamed_body_over_the_limit_is_413(server: str) -> None:
    """No content-length: the limit holds for a chunked body too."""

    def chunks() -> Iterator[bytes]:
        yield b'{"query": "{ titles { id } }", "pad": "'
        for _ in range(64):
            yield b"x" * 16_384
        yield b'"}'

    response = httpx.post(f"{server}/graphql", content=chunks(), headers=JSON_CT, timeout=30)
    assert response.status_code == 413, response.status_code
    assert response.json()["errors"][0]["extensions"]["code"] == "BODY_TOO_LARGE"


@pytest.mark.parametrize(("method", "path", "kwargs"), [
    pytest.param("GET", "/graphql", {"params": {"query": "mutation { createMatch(input: {title: \"greatfire\", "
                                                "seats: 3}) { __typename } }"}}, id="mutation-over-get"),
    pytest.param("PUT", "/graphql", {"json": {"query": "{ titles { id } }"}}, id="put"),
    pytest.param("DELETE", "/graphql", {}, id="delete"),
    pytest.param("POST", "/healthz", {}, id="post-healthz"),
    pytest.param("GET", "/no/such/path", {}, id="unknown-path"),
    pytest.param("POST", "/graphql/", {"json": {"query": "{ titles { id } }"}}, id="trailing-slash"),
])
def test_wrong_methods_and_paths_get_a_4xx(server: str, redis: Redis, method: str, path: str,
                                           kwargs: dict[str, Any]) -> None:
    before = lobby_counts(redis)
    response = httpx.request(method, f"{server}{path}", timeout=30, **kwargs)
    assert 400 <= response.status_code < 500 or (response.status_code in (200, 307) and path == "/graphql/"), \
        f"{method} {path}: {response.status_code} {response.text[:300]}"
    assert lobby_counts(redis) == before


def test_reads_with_absurd_arguments_are_clamped_not_failed(c: h.RecordingClient, active: h.Setup) -> None:
    for first in (-5, 0, INT_MAX):
        page = c.gql("query($f: Int!) { matches(status: ACTIVE, first: $f) { items { id } hasNextPage } }",
                     {"f": first})["matches"]
        assert 1 <= len(page["items"]) <= 100
    assert c.gql('{ matches(after: "no-such-cursor") { items { id } hasNextPage endCursor } }')["matches"] == \
        {"items": [], "hasNextPage": False, "endCursor": None}
    for after, limit in ((-10, -10), (INT_MAX, INT_MAX), (0, 0)):
        m = c.gql(h.EVENTS, {"id": active.match_id, "after": after, "limit": limit}, active.humans[0])["match"]
        assert isinstance(m["events"], list)
    for match_id in ("", "x" * 10_000, "ZZZ", "0123456789ABCDEF"):
        assert c.gql("query($id: ID!) { match(id: $id) { id } }", {"id": match_id})["match"] is None


def test_a_step_page_after_any_version_is_an_empty_page_not_a_500(server: str, c: h.RecordingClient, redis: Redis,
                                                                  active: h.Setup) -> None:
    """afterVersion past 64 bits (the fuzzer's 332680902666481434624) made Redis refuse the stream id: a 500."""
    before = snapshot(c, redis, active)
    for after in (2**53, 332680902666481434624, 10**40):
        answer = httpx.get(f"{server}/v1/matches/{active.match_id}/events", params={"afterVersion": after})
        assert (answer.status_code, answer.json()) == (200, {"items": []}), answer.text
    assert snapshot(c, redis, active) == before


def test_an_invitation_naming_nobody_is_refused_as_the_document_says(server: str, waiting: h.Setup) -> None:
    """With handles beside ids both lists may be left out, so `{}` fitted the schema and was refused anyway: the
    document now asks for one of them, non-empty, and the refusal is the documented one."""
    document = httpx.get(f"{server}/v1/openapi.json").json()
    schema = document["components"]["schemas"]["InvitePlayers"]
    assert {"required": ["playerIds"], "properties": {"playerIds": {"minItems": 1}}} in schema["anyOf"]
    for body in ({}, {"playerIds": [], "handles": []}):
        answer = httpx.post(f"{server}/v1/matches/{waiting.match_id}/invitations", json=body,
                            headers={"authorization": f"Bearer {waiting.host}"})
        assert answer.status_code == 422 and answer.json()["code"] == "TOO_MANY_INVITATIONS", answer.text
