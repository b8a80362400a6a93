"""The query depth limit counts every field, introspection's too (issue 47: a ten-level introspection query was
answered past the 8 levels the docs promised). Below __schema and __type the bound is the depth of the standard
introspection query that GraphiQL and code generators send (14), so schema readers work and nothing deeper is
answered; every other root field keeps 8."""

from __future__ import annotations

import re
from typing import Any

from graphql import get_introspection_query

from firebreak.api.schema.limits import MAX_DEPTH, MAX_INTROSPECTION_DEPTH
from tests.service.conftest import ROOT, Client

# graphql-core's, with every option on: graphql-js's (GraphiQL's) has the same depth (9 levels of ofType)
STANDARD = get_introspection_query(descriptions=True, specified_by_url=True, directive_is_repeatable=True,
                                   schema_description=True, input_value_deprecation=True)
INNERMOST_OF_TYPE = re.compile(r"ofType \{\s*name\s*kind\s*\}")


def introspection(depth: int) -> str:
    """An introspection query `depth` levels deep: __schema, types, fields, type, then a chain of ofType."""
    chain = depth - 4
    return ("{ __schema { types { name fields { name type { name" + " ofType { name" * chain + " }" * chain
            + " } } } } }")


def ordinary(depth: int) -> str:
    """A query of the match's own fields `depth` levels deep (fields with a selection set; not otherwise valid)."""
    return "{ titles" + " { id" * depth + " }" * depth + " }"


def codes(body: dict[str, Any]) -> list[str]:
    return [e.get("extensions", {}).get("code") for e in body.get("errors", [])]


def test_the_standard_introspection_query_is_answered_and_is_as_deep_as_the_bound(client: Client) -> None:
    data = client.gql(STANDARD)
    assert any(t["name"] == "Match" for t in data["__schema"]["types"])
    # one ofType more than it asks for is one level past the bound
    assert len(INNERMOST_OF_TYPE.findall(STANDARD)) == 1
    deeper = INNERMOST_OF_TYPE.sub("ofType { name kind ofType { name kind } }", STANDARD)
    body = client.post(deeper).json()
    assert codes(body) == ["QUERY_TOO_DEEP"], body
    assert str(MAX_INTROSPECTION_DEPTH) in body["errors"][0]["message"]


def test_graphiqls_own_introspection_query_asks_for_nine_levels_of_of_type() -> None:
    """The vendored GraphiQL's query has the shape STANDARD has (an upgrade that asks deeper fails here first)."""
    text = (ROOT / "web" / "vendor" / "graphiql" / "graphiql.min.js").read_text(encoding="utf-8")
    start = text.index("fragment TypeRef on __Type {")
    fragment = text[start:text.index("`", start)]
    assert fragment.count("ofType {") == STANDARD[STANDARD.index("fragment TypeRef"):].count("ofType {") == 9


def test_introspection_fields_count_towards_the_depth(client: Client) -> None:
    assert "errors" not in client.post(introspection(MAX_INTROSPECTION_DEPTH)).json()
    for depth in (MAX_INTROSPECTION_DEPTH + 1, 30):
        body = client.post(introspection(depth)).json()
        assert codes(body) == ["QUERY_TOO_DEEP"], body


def test_other_fields_keep_the_depth_of_eight_beside_introspection(client: Client) -> None:
    assert codes(client.post(ordinary(MAX_DEPTH)).json()) != ["QUERY_TOO_DEEP"]  # refused as invalid, not deep
    for query in (ordinary(MAX_DEPTH + 1), "{ __schema { types { name } } t: " + ordinary(MAX_DEPTH + 1)[2:]):
        body = client.post(query).json()
        assert codes(body) == ["QUERY_TOO_DEEP"], body
        assert f"depth of {MAX_DEPTH}" in body["errors"][0]["message"]
