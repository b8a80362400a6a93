"""schema.graphql is exported from the code; this fails when it is out of date."""

from __future__ import annotations

from firebreak.api.export_schema import outdated, schema_text


def test_schema_graphql_and_the_json_schemas_are_up_to_date() -> None:
    assert outdated() == [], "run python -m firebreak.api.export_schema"


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
