"""schema.graphql is exported from the code; this fails when it is out of date."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from firebreak.api.export_schema import outdated, schema_text

ROOT = Path(__file__).resolve().parents[2]


def test_schema_graphql_and_the_json_schemas_are_up_to_date() -> None:
    assert outdated(ROOT) == [], "run python -m firebreak.api.export_schema"


def test_the_export_writes_under_the_folder_it_is_given_and_checks_it(tmp_path: Path) -> None:
    """The export is a tool for the repository: it writes under --out (not next to its own source), and --check
    finds a file edited afterwards."""
    export = [sys.executable, "-m", "firebreak.api.export_schema", "--out", str(tmp_path)]
    subprocess.run(export, check=True, cwd=tmp_path)
    assert outdated(tmp_path) == []
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written == sorted(str(p.relative_to(ROOT)) for p in [ROOT / "schema.graphql",
                                                                *(ROOT / "docs" / "schemas").rglob("*.schema.json")])
    (tmp_path / "docs" / "schemas" / "london" / "view.schema.json").write_text("{}\n", encoding="utf-8")
    checked = subprocess.run([*export, "--check"], cwd=tmp_path, capture_output=True, text=True)
    assert checked.returncode == 1 and "docs/schemas/london/view.schema.json" in checked.stderr


def _undescribed() -> list[str]:
    """Every type, field, argument and enum value of the schema without a description (introspection's own
    types aside)."""
    from graphql import GraphQLEnumType, GraphQLInputObjectType, GraphQLInterfaceType, GraphQLObjectType

    from firebreak.api.schema import schema

    missing = []
    for name, graphql_type in schema._schema.type_map.items():
        if name.startswith("__") or name in ("String", "Int", "Float", "Boolean", "ID"):
            continue
        if not graphql_type.description:
            missing.append(name)
        if isinstance(graphql_type, GraphQLObjectType | GraphQLInterfaceType | GraphQLInputObjectType):
            for field_name, field in graphql_type.fields.items():
                if not field.description:
                    missing.append(f"{name}.{field_name}")
                for arg_name, arg in getattr(field, "args", {}).items():
                    if not arg.description:
                        missing.append(f"{name}.{field_name}({arg_name})")
        if isinstance(graphql_type, GraphQLEnumType):
            missing.extend(f"{name}.{value}" for value, v in graphql_type.values.items() if not v.description)
    return missing


def test_every_type_field_argument_and_enum_value_is_described() -> None:
    """Issue 13: a client developer reads the schema alone; docstrings are exported as descriptions."""
    assert _undescribed() == []
    assert '"""A match as the caller may see it."""' in schema_text()  # a class docstring, exported
