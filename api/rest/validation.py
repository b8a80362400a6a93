"""Check a JSON value against the subset of JSON Schema the REST operations declare (the same schemas the OpenAPI
document publishes, so what is documented is what is enforced): type, enum, properties, required,
additionalProperties, minimum/maximum, minLength/maxLength, items, and $ref to a component schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REF_PREFIX = "#/components/schemas/"
KEYWORDS = {"type", "enum", "properties", "required", "additionalProperties", "minimum", "maximum", "minLength",
            "maxLength", "items", "$ref", "description", "default", "examples", "title", "format"}


def _is(kind: str, value: Any) -> bool:
    match kind:
        case "object":
            return isinstance(value, dict)
        case "array":
            return isinstance(value, list)
        case "string":
            return isinstance(value, str)
        case "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        case "number":
            return isinstance(value, int | float) and not isinstance(value, bool)
        case "boolean":
            return isinstance(value, bool)
        case "null":
            return value is None
    return True  # no type constraint of a kind we check


def errors(value: Any, schema: Mapping[str, Any], components: Mapping[str, Mapping[str, Any]],
           pointer: str = "") -> list[dict[str, str]]:
    """Where value breaks schema: [{"pointer": JSON pointer, "detail": why}]; [] when it conforms."""
    if "$ref" in schema:
        return errors(value, components[schema["$ref"].removeprefix(REF_PREFIX)], components, pointer)
    where = pointer or "/"
    kinds = schema.get("type")
    if kinds is not None:
        allowed = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_is(kind, value) for kind in allowed):
            return [{"pointer": where, "detail": f"must be {' or '.join(allowed)}"}]
    if "enum" in schema and value not in schema["enum"]:
        return [{"pointer": where, "detail": f"must be one of {', '.join(map(str, schema['enum']))}"}]
    out: list[dict[str, str]] = []
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append({"pointer": where, "detail": f"must be at least {schema['minimum']}"})
        if "maximum" in schema and value > schema["maximum"]:
            out.append({"pointer": where, "detail": f"must be at most {schema['maximum']}"})
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            out.append({"pointer": where, "detail": f"must have at least {schema['minLength']} characters"})
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            out.append({"pointer": where, "detail": f"must have at most {schema['maxLength']} characters"})
    if isinstance(value, list) and "items" in schema:
        for n, item in enumerate(value):
            out.extend(errors(item, schema["items"], components, f"{pointer}/{n}"))
    if isinstance(value, dict):
        properties: Mapping[str, Any] = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                out.append({"pointer": f"{pointer}/{_escape(name)}", "detail": "is required"})
        for name, item in value.items():
            if name in properties:
                out.extend(errors(item, properties[name], components, f"{pointer}/{_escape(name)}"))
            elif schema.get("additionalProperties") is False:
                out.append({"pointer": f"{pointer}/{_escape(name)}", "detail": "is not a known member"})
    return out


def unchecked_keywords(schema: Any) -> set[str]:
    """Keywords used anywhere in a schema that errors() does not enforce (a test keeps this empty)."""
    if isinstance(schema, list):
        return set().union(*(unchecked_keywords(s) for s in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    found = set(schema) - KEYWORDS
    for key, value in schema.items():
        if key == "properties":
            found |= set().union(*(unchecked_keywords(s) for s in value.values())) if value else set()
        elif key in ("items", "additionalProperties"):
            found |= unchecked_keywords(value)
    return found


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")
