"""The REST reference and the served OpenAPI document agree: docs/reference/rest.md names every route the service
serves, and every $ref of the document resolves (a generator types the player's events from MyEvent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from firebreak.api.rest.responses_events import covered
from firebreak.matches.feed import FeedType

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference" / "rest.md"


def served(base: str) -> dict[str, Any]:
    """The OpenAPI document the service serves."""
    document: dict[str, Any] = httpx.get(f"{base}/v1/openapi.json", timeout=30).json()
    return document


def refs(node: Any) -> list[str]:
    """Every $ref (and discriminator mapping target) anywhere in a JSON document."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.append(value)
            elif key == "mapping" and isinstance(value, dict):
                found.extend(str(v) for v in value.values())
            else:
                found.extend(refs(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(refs(item))
    return found


def resolve(document: dict[str, Any], pointer: str) -> Any:
    """The node a local JSON pointer names (KeyError when it names nothing)."""
    assert pointer.startswith("#/"), pointer
    node: Any = document
    for part in pointer[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def test_the_reference_names_every_served_route(server: str) -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    routes = [(method.upper(), path) for path, methods in served(server)["paths"].items() for method in methods]
    assert len(routes) > 50
    missing = [f"{method} {path}" for method, path in routes if f"`{method} {path}" not in text]
    assert missing == [], f"docs/reference/rest.md leaves out {missing}"


def test_every_ref_of_the_document_resolves(server: str) -> None:
    document = served(server)
    found = refs(document)
    assert "#/components/schemas/MyEvent" in found and "#/components/schemas/Problem" in found
    broken = []
    for pointer in sorted(set(found)):
        try:
            resolve(document, pointer)
        except (KeyError, TypeError):
            broken.append(pointer)
    assert broken == []


def test_the_event_stream_is_typed_by_type(server: str) -> None:
    """The stream's answer cites MyEvent, a oneOf told apart by `type` whose mapping names every event type."""
    document = served(server)
    answer = document["paths"]["/v1/me/events"]["get"]["responses"]["200"]["content"]["text/event-stream"]["schema"]
    assert answer["contentSchema"] == {"$ref": "#/components/schemas/MyEvent"}
    union = document["components"]["schemas"]["MyEvent"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == {kind.value for kind in FeedType} | {"ready"} == covered()
    for target in union["discriminator"]["mapping"].values():
        assert {"$ref": target} in union["oneOf"]
