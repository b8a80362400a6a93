"""The refusal registry: every code has its status, description and GraphQL type, and every code the lobby, the
pipeline and both surfaces answer is registered (no code is spelled outside matches/refusals.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from graphql import GraphQLObjectType

from firebreak.api.rest.problems import TITLES, rest_codes
from firebreak.api.rest.routes import document
from firebreak.api.schema import schema
from firebreak.domain.errors import BadOptions, UnknownTitle
from firebreak.matches.outcomes import REFUSALS, OutcomeKind
from firebreak.matches.refusals import OK, Refusal, registered

ROOT = Path(__file__).resolve().parent.parent
CODE_LIKE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{6,}$")
NOT_CODES = {"REDIS_URL", "QUEUE_REDIS_URL", "PROMETHEUS_MULTIPROC_DIR", "CLUSTER", "ADDSLOTS",
             "DELETE",  # settings, Redis and HTTP verbs
             "SPECTATORS", "CHEATING", "RESOLVED",  # REST enum values (a chat channel, a report's reason and status)
             "LC_MESSAGES"}  # gettext's catalogue folder


def test_every_code_has_a_status_a_description_and_a_graphql_type_of_the_schema() -> None:
    types = schema._schema.type_map
    for code in Refusal:
        assert code.value == code.name
        assert code.status in TITLES if code.rest else code.status == OK, code
        assert code.description.endswith(".") and len(code.description) > 10, code
        if code.graphql is not None:
            kind = types.get(code.graphql)
            assert isinstance(kind, GraphQLObjectType), code
            assert "Problem" in [i.name for i in kind.interfaces], code


def test_every_problem_type_of_the_schema_carries_a_registered_code() -> None:
    problems = {name for name, kind in schema._schema.type_map.items()
                if isinstance(kind, GraphQLObjectType) and "Problem" in [i.name for i in kind.interfaces]}
    assert problems == {code.graphql for code in Refusal if code.graphql is not None}


def test_every_refused_act_and_the_domains_lobby_codes_are_registered() -> None:
    assert set(REFUSALS) == set(OutcomeKind) - {OutcomeKind.ACCEPTED}
    assert registered(BadOptions.code) is Refusal.BAD_OPTIONS
    assert registered(UnknownTitle.code) is Refusal.UNKNOWN_TITLE
    assert registered("MALFORMED_ACTION") is None, "a title's own rules code is not the registry's"


def test_the_openapi_document_lists_exactly_the_rest_codes() -> None:
    doc = document()
    assert list(doc["x-problem-codes"]) == [code.value for code in rest_codes()]
    answered = {code for item in doc["paths"].values() for op in item.values()
                for status, response in op["responses"].items() if int(status) >= 400
                for code in response["description"].split(": ", 1)[1].rstrip(".").split(", ")}
    assert answered <= set(doc["x-problem-codes"])


def _code_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_LIKE.match(node.value)}


def test_no_code_is_spelled_outside_the_registry() -> None:
    """Codes are named through Refusal; the service code spells none of its own (settings' names apart)."""
    offenders = {}
    for package in ("api", "matches", "players", "workers"):
        for path in (ROOT / package).rglob("*.py"):
            if path == ROOT / "matches" / "refusals.py":
                continue
            spelled = {text for text in _code_literals(path)
                       if text not in NOT_CODES and not text.startswith("FIREBREAK_")}
            if spelled:
                offenders[str(path.relative_to(ROOT))] = sorted(spelled)
    assert offenders == {}
