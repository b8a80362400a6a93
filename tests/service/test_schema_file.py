"""schema.graphql is exported from the code; this fails when it is out of date."""

from __future__ import annotations

from api.export_schema import SCHEMA_FILE, schema_text


def test_schema_graphql_is_up_to_date() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "schema.graphql is out of date: run python -m api.export_schema")
