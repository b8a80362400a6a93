"""GraphQL's fast path (api/schema/fastpath.py) answers exactly as strawberry's full path with the extensions: the
same requests, played once each way against the real app over a real Redis, get the same statuses and bodies
(ids and tokens aside); and a planned text is parsed and validated once, whatever the number of requests."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
import pytest

from firebreak.api.app import create_app
from firebreak.api.schema import compiled, fastpath, plans
from firebreak.matches.config import Settings
from tests.service.conftest import service_env

CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) {
  __typename ... on MatchCreated { matchId hostToken } } }"""
JOIN = """mutation($input: JoinMatchInput!) { joinMatch(input: $input) {
  __typename ... on SeatJoined { seat token } ... on Problem { code message } } }"""
READ = """query($id: ID!) { match(id: $id) { status version toAct you legalActions view } }"""
ACT = """mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { version events match { version toAct legalActions } }
  ... on StaleVersion { currentVersion } ... on Problem { code message } } }"""
# acts of the compiled plan's shape (api/schema/compiled.py): leaf fields only
LEAN_ACT = """mutation($input: ActInput!) { act(input: $input) { __typename ... on ActionAccepted { version events }
  ... on StaleVersion { currentVersion } ... on Problem { code message } } }"""
ALIASED_ACT = """mutation Play($in: ActInput!) { played: act(input: $in) { kind: __typename
  ... on Problem { why: message code } ... on ActionAccepted { events v: version __typename }
  ... on ActResult { ... on StaleVersion { currentVersion code } } ... { __typename } } }"""


async def _play(redis_url: str) -> tuple[list[str], int]:
    """The answers (status and body, ids and tokens replaced by their order of appearance) to one scripted
    session, and how many requests the plan cache served."""
    app = create_app(Settings.from_env(service_env(redis_url)))
    answers: list[str] = []
    secrets: dict[str, str] = {}
    hits = plans.plan.cache_info().hits
    async with (app.router.lifespan_context(app),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client):
            async def ask(query: str, variables: dict[str, Any] | None = None, token: str | None = None,
                          method: str = "POST") -> dict[str, Any]:
                headers = {"authorization": f"Bearer {token}"} if token else {}
                if method == "GET":
                    answer = await client.get("/graphql", params={"query": query}, headers=headers)
                else:
                    answer = await client.post("/graphql", json={"query": query, "variables": variables or {}},
                                               headers=headers)
                body: dict[str, Any] = answer.json()
                text = json.dumps(body)  # in the order of the answer: a field order that differs fails
                for secret in re.findall(r'"(?:matchId|hostToken|token)": "([^"]+)"', text):
                    secrets.setdefault(secret, f"<{len(secrets)}>")
                for secret, name in secrets.items():
                    text = text.replace(secret, name)
                answers.append(f"{answer.status_code} {answer.headers.get('retry-after')} {text}")
                data: dict[str, Any] = body.get("data") or {}
                return data

            created = (await ask(CREATE, {"input": {"title": "greatfire", "seats": 4, "seed": 7}}))["createMatch"]
            match_id = created["matchId"]
            tokens = {}
            for n in range(4):
                joined = (await ask(JOIN, {"input": {"matchId": match_id, "name": f"p{n}", "seat": n}}))["joinMatch"]
                tokens[joined["seat"]] = joined["token"]
            await ask(JOIN, {"input": {"matchId": match_id, "name": "late"}})  # a typed refusal
            read = (await ask(READ, {"id": match_id}, tokens[0]))["match"]
            seat = read["toAct"][0]
            mine = (await ask(READ, {"id": match_id}, tokens[seat]))["match"]
            action = mine["legalActions"][0]
            await ask(ACT, {"input": {"matchId": match_id, "action": action, "expectedVersion": 99}}, tokens[seat])
            await ask(ACT, {"input": {"matchId": match_id, "action": {"type": "nothing"}, "expectedVersion": 0}},
                      tokens[seat])
            await ask(ACT, {"input": {"matchId": match_id, "action": action, "expectedVersion": 0}}, tokens[seat])
            await ask(ACT, {"input": {"matchId": match_id, "action": action, "expectedVersion": 1}}, "not-a-token")
            now = (await ask(READ, {"id": match_id}, tokens[seat]))["match"]["toAct"][0]
            turn = (await ask(READ, {"id": match_id}, tokens[now]))["match"]
            accepted = {"matchId": match_id, "action": turn["legalActions"][0], "expectedVersion": turn["version"],
                        "idempotencyKey": "k1"}
            await ask(LEAN_ACT, {"input": accepted}, tokens[now])
            await ask(LEAN_ACT, {"input": accepted}, tokens[now])  # the same outcome again
            for variables in ({"matchId": match_id, "action": action, "expectedVersion": 0},  # stale
                              {"matchId": match_id, "action": {"type": "nothing"}, "expectedVersion": 99},
                              {"matchId": match_id, "action": action, "expectedVersion": 0, "idempotencyKey": ""},
                              {"matchId": match_id, "action": action, "expectedVersion": "0"},  # does not coerce
                              {"matchId": match_id, "action": action},  # neither
                              {"matchId": 12, "action": action, "expectedVersion": 3}):  # an ID from a number
                await ask(LEAN_ACT, {"input": variables}, tokens[seat])
                await ask(ALIASED_ACT, {"in": variables}, tokens[(seat + 1) % 4])
            await ask(LEAN_ACT, {"input": {"matchId": match_id, "action": action, "expectedVersion": 0}},
                      "not-a-token")
            await ask(LEAN_ACT, {"input": {"matchId": match_id, "action": action, "expectedVersion": 0}})
            await ask(READ, {"id": match_id}, "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln")  # a refused credential
            await ask(READ, {"id": match_id}, None)  # a spectator
            await ask("query { titles { id } }", method="GET")
            await ask(CREATE, method="GET")  # a mutation over GET: not allowed
            await ask("subscription { events(matchId: \"x\") { __typename } }")  # over HTTP: refused
            await ask("query { nope }")  # does not validate
            await ask("query {")  # does not parse
    return answers, plans.plan.cache_info().hits - hits


def _compiled_runs(patched: pytest.MonkeyPatch) -> list[bool]:
    """Patch the compiled plan to record each of its runs: True when it answered, False when it left the request
    to graphql-core (variables that do not coerce)."""
    ran: list[bool] = []
    execute = compiled.CompiledAct.execute

    async def counted(self: compiled.CompiledAct, *args: Any) -> Any:
        answer = await execute(self, *args)
        ran.append(answer is not None)
        return answer

    patched.setattr(compiled.CompiledAct, "execute", counted)
    return ran


def test_the_fast_path_answers_as_the_full_path(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patched:
        ran = _compiled_runs(patched)
        fast, served = asyncio.run(_play(redis_url))
    assert ran.count(True) == 12 and ran.count(False) == 4  # the compiled acts; those whose variables do not coerce
    with monkeypatch.context() as patched:
        patched.setattr(fastpath, "planned", lambda *_: None)  # every request the full path's
        full, _ = asyncio.run(_play(redis_url))
    assert len(fast) == len(full) == 37
    for n, (one, other) in enumerate(zip(fast, full, strict=True)):
        assert one == other, f"request {n}: fast {one[:400]} != full {other[:400]}"
    assert served >= 10  # the texts sent more than once were planned once


def test_a_text_is_planned_once_and_a_bad_one_not_at_all() -> None:
    from firebreak.api.schema import schema

    plans.plan.cache_clear()
    first = plans.plan(schema._schema, READ, None)
    assert first is not None and first.operation.value == "query" and first.mutations == 0
    assert plans.plan(schema._schema, READ, None) is first
    act = plans.plan(schema._schema, "mutation { a: signOut { __typename } b: signOut { __typename } }", None)
    assert act is not None and act.mutations == 2
    assert plans.plan(schema._schema, "query {", None) is None
    assert first.compiled is None and act.compiled is None
    assert plans.plan(schema._schema, "query { nope }", None) is None
    assert plans.plan(schema._schema, "query A { titles { id } }", "B") is None
    deep = "query { " + "titles { " * 40 + "id" + " }" * 41
    assert plans.plan(schema._schema, deep, None) is None


async def _run_calls(redis_url: str) -> tuple[list[int], int]:
    """Statuses of a few POSTs, and how many of them went through strawberry's run()."""
    from firebreak.api.app import FirebreakGraphQL

    calls = 0
    original = FirebreakGraphQL.run

    async def counted(self: FirebreakGraphQL, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return await original(self, *args, **kwargs)

    app = create_app(Settings.from_env(service_env(redis_url)))
    statuses = []
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(FirebreakGraphQL, "run", counted)
        async with (app.router.lifespan_context(app),
                    httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client):
            titles = {"query": "query { titles { id } }"}
            for headers in ({"content-type": "application/json"}, {"content-type": "application/json; charset=utf-8"}):
                answer = await client.post("/graphql", content=json.dumps(titles), headers=headers)  # never run()
                statuses.append(answer.status_code)
            for body, headers in ((titles, {"content-type": "text/plain"}),  # run() answers each of these
                                  ({"query": "query {"}, {}),
                                  ({"query": "query { titles { id } }", "variables": [1]}, {})):
                answer = await client.post("/graphql", content=json.dumps(body),
                                           headers={"content-type": "application/json", **headers})
                statuses.append(answer.status_code)
    return statuses, calls


def test_a_planned_post_skips_strawberrys_request_handling_and_nothing_else_does(redis_url: str) -> None:
    statuses, calls = asyncio.run(_run_calls(redis_url))
    assert statuses[:2] == [200, 200]
    assert statuses[2] == 400  # Unsupported content type
    assert calls == 3, statuses


def test_only_plain_act_documents_are_compiled() -> None:
    from firebreak.api.schema import schema

    def compiled(text: str, name: str | None = None) -> bool:
        found = plans.plan(schema._schema, text, name)
        assert found is not None, text
        return found.compiled is not None

    assert compiled(LEAN_ACT) and compiled(ALIASED_ACT, "Play") and compiled(ALIASED_ACT)
    assert compiled("mutation($i: ActInput!) { act(input: $i) { __typename } }")
    assert not compiled(ACT)  # a sub-selection (match): graphql-core runs its resolver
    assert not compiled("mutation($i: ActInput!) { act(input: $i) { __typename ...F } } "
                        "fragment F on ActionAccepted { version }")
    assert not compiled("mutation($i: ActInput!, $s: Boolean!) { act(input: $i) { __typename @include(if: $s) } }")
    assert not compiled('mutation { act(input: {matchId: "m", action: {}, expectedVersion: 0}) { __typename } }')
    assert not compiled("mutation($i: ActInput!) { a: act(input: $i) { __typename } b: act(input: $i) { "
                        "__typename } }")
    assert not compiled("mutation { signOut { __typename } }")


# the errors graphql-core makes of a faulty act (the resolver's exception, a leaf it cannot complete); the two
# `v` nodes of one response key are both an error's locations
FAULT_ACT = """mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { events version } ... on IllegalAction { code iv: version message }
  ... on StaleVersion { v: currentVersion code v: currentVersion } } }"""


def _faults() -> list[Any]:
    """What a faulty act answers: an exception, then members with a leaf graphql-core cannot complete."""
    from firebreak.api.schema.play import ActionAccepted
    from firebreak.api.schema.problems import IllegalAction, StaleVersion

    return [RuntimeError("a fault of ours, never shown"),
            ActionAccepted(version=None, events=[], match_id="m", after=None, caller=None),  # type: ignore[arg-type]
            IllegalAction(code="ILLEGAL_ACTION", message="no", version=2**40),  # nullable: null and an error
            StaleVersion(code="STALE_VERSION", message="no", current_version="nope")]  # type: ignore[arg-type]


async def _faulty_acts(redis_url: str) -> list[str]:
    """The answers to FAULT_ACT (and the leaner LEAN_ACT) while the act answers each fault in turn."""
    from firebreak.api.schema import play

    app = create_app(Settings.from_env(service_env(redis_url)))
    answers = []
    async with (app.router.lifespan_context(app),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client):
        created = await client.post("/graphql", json={"query": CREATE, "variables": {
            "input": {"title": "greatfire", "seats": 4, "seed": 7}}})
        match_id = created.json()["data"]["createMatch"]["matchId"]
        variables = {"input": {"matchId": match_id, "action": {"type": "x"}, "expectedVersion": 0}}
        for fault in _faults():
            async def faulty(*_: Any, fault: Any = fault) -> Any:
                if isinstance(fault, Exception):
                    raise fault
                return fault

            with pytest.MonkeyPatch.context() as patched:
                patched.setattr(play, "act_with", faulty)
                for query in (FAULT_ACT, LEAN_ACT):
                    answer = await client.post("/graphql", json={"query": query, "variables": variables})
                    answers.append(f"{answer.status_code} {answer.text}")
    return answers


def test_a_faulty_act_answers_the_same_errors_compiled_or_not(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patched:
        ran = _compiled_runs(patched)
        fast = asyncio.run(_faulty_acts(redis_url))
    assert ran == [True] * 8
    with monkeypatch.context() as patched:
        patched.setattr(fastpath, "planned", lambda *_: None)
        full = asyncio.run(_faulty_acts(redis_url))
    assert fast == full
    assert "never shown" not in "".join(fast)
    leaf_errors = [json.loads(answer.split(" ", 1)[1]) for answer in fast[2::2]]
    assert [[e["path"] for e in body["errors"]] for body in leaf_errors] == [
        [["act", "version"]], [["act", "iv"]], [["act", "v"]]]
    assert leaf_errors[1]["data"]["act"]["iv"] is None  # a nullable leaf: null, the rest written
    assert len(leaf_errors[2]["errors"][0]["locations"]) == 2
