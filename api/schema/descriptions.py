"""Descriptions from docstrings: every type without a description takes its class's docstring, every field its
resolver's, so the code's one-line docstrings are what schema.graphql and introspection show."""

from __future__ import annotations

import inspect

from graphql import GraphQLInputObjectType, GraphQLInterfaceType, GraphQLObjectType, GraphQLSchema


def _doc(thing: object) -> str | None:
    doc = inspect.getdoc(thing) if thing is not None else None
    return doc or None


def fill_from_docstrings(schema: GraphQLSchema) -> None:
    """Give each type and field without a description its Python docstring (types: the class, fields: the
    resolver), in place."""
    for name, graphql_type in schema.type_map.items():
        if name.startswith("__"):
            continue
        definition = (graphql_type.extensions or {}).get("strawberry-definition")
        if not graphql_type.description and definition is not None:
            origin = getattr(definition, "origin", None) or getattr(definition, "wrapped_cls", None)
            if origin is not None and origin.__doc__ != _plain_doc(origin):
                graphql_type.description = _doc(origin)
        if isinstance(graphql_type, GraphQLObjectType | GraphQLInterfaceType | GraphQLInputObjectType):
            for field in graphql_type.fields.values():
                if field.description:
                    continue
                strawberry_field = (field.extensions or {}).get("strawberry-definition")
                resolver = getattr(strawberry_field, "base_resolver", None)
                if resolver is not None:
                    field.description = _doc(resolver.wrapped_func)


def _plain_doc(origin: type) -> str | None:
    """The docstring a dataclass invents for a class without one (its signature): not a description."""
    doc = origin.__doc__
    return doc if doc and doc.startswith(origin.__name__ + "(") else None
