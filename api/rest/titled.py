"""The component schemas of each registered title, built from the JSON Schemas it publishes (Title.schemas()), so
that a generator types a match's view, its legal actions, an action submitted and the events of a step per title.

A title's view, action and event become <Prefix>View, <Prefix>Action and <Prefix>Event (the prefix is the title id
in CamelCase: blind-auction -> BlindAuction), their "$defs" components of their own (<Prefix><Name>:
BlindAuctionCard, BlindAuctionBidAction) with every "$ref" rewritten to point at them (a "#/$defs/..." inside a
component would resolve against the document's root). A title's actions and events are a oneOf told apart by their
"type": the document says so with an OpenAPI discriminator. Across titles: View is the oneOf of the titles' views,
told apart by "title"; Action and GameEvent are the anyOf of the titles' own (two titles may share a type, e.g. the
service's clockExpired, so no discriminator spans them).

The routes keep validating an action against its match's title's own schema: these components only document it."""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import WithJsonSchema

from firebreak.domain import titles

Schema = dict[str, Any]
REF = "#/components/schemas/{name}"
LOCAL = "#/$defs/"
PARTS = {"view": "View", "action": "Action", "event": "Event"}
UNIONS = ("View", "Action", "GameEvent")  # the names of the unions across titles


def prefix(title_id: str) -> str:
    """A title's component prefix: its id in CamelCase (chess -> Chess, blind-auction -> BlindAuction)."""
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[^A-Za-z0-9]+", title_id) if word)


def _ref(name: str) -> Schema:
    return {"$ref": REF.format(name=name)}


def _rewrite(schema: Any, names: dict[str, str]) -> Any:
    """The schema with each "#/$defs/x" reference pointing at x's component."""
    if isinstance(schema, dict):
        out = {key: _rewrite(value, names) for key, value in schema.items()}
        target = schema.get("$ref")
        if isinstance(target, str):
            if not target.startswith(LOCAL) or target[len(LOCAL):] not in names:
                raise ValueError(f"a reference the document cannot follow: {target!r}")
            out["$ref"] = REF.format(name=names[target[len(LOCAL):]])
        return out
    if isinstance(schema, list):
        return [_rewrite(item, names) for item in schema]
    return schema


def _tags(schema: Schema, components: dict[str, Schema], key: str) -> dict[str, str] | None:
    """The discriminator mapping of a oneOf whose every variant is a component with a constant `key` (each value
    once): value -> reference; None when the variants do not allow one."""
    variants = schema.get("oneOf")
    if not isinstance(variants, list) or not variants:
        return None
    mapping: dict[str, str] = {}
    for variant in variants:
        target = variant.get("$ref") if isinstance(variant, dict) else None
        if not isinstance(target, str) or set(variant) != {"$ref"}:
            return None
        found = components.get(target.rsplit("/", 1)[-1], {})
        prop = found.get("properties", {}).get(key, {})
        if key not in found.get("required", ()) or not isinstance(prop.get("const"), str) \
                or prop["const"] in mapping:
            return None
        mapping[prop["const"]] = target
    return mapping


def _discriminated(schema: Schema, components: dict[str, Schema], key: str) -> Schema:
    """The oneOf with an OpenAPI discriminator on `key` where its variants allow one."""
    mapping = _tags(schema, components, key)
    if mapping is not None:
        schema["discriminator"] = {"propertyName": key, "mapping": mapping}
    return schema


def _title(title_id: str, published: dict[str, Schema]) -> dict[str, Schema]:
    """One title's components: its view, action and event and every definition they use."""
    pre = prefix(title_id)
    out: dict[str, Schema] = {}
    for part, suffix in PARTS.items():
        schema = copy.deepcopy(published[part])
        for key in ("$schema", "$id"):  # an $id would change the base the references resolve against
            schema.pop(key, None)
        defs: dict[str, Schema] = schema.pop("$defs", {})
        names = {name: pre + name[:1].upper() + name[1:] for name in defs}
        for name, definition in defs.items():
            rewritten = _rewrite(definition, names)
            if out.setdefault(names[name], rewritten) != rewritten:
                raise ValueError(f"{title_id}: two different definitions named {name!r}")
        out[pre + suffix] = _rewrite(schema, names)
    for suffix in ("Action", "Event"):
        _discriminated(out[pre + suffix], out, "type")
    return out


def components() -> dict[str, Schema]:
    """Every registered title's components and the unions across titles (View, Action, GameEvent)."""
    out: dict[str, Schema] = {}
    registered = titles.all_titles()
    for title in registered:
        for name, schema in _title(title.id, title.schemas()).items():
            if name in out or name in UNIONS:
                raise ValueError(f"two titles' components are named {name}")
            out[name] = schema
    pres = [prefix(title.id) for title in registered]
    out["View"] = _discriminated({
        "description": "A match's view: the title's own (told apart by `title`, the match's title id).",
        "oneOf": [_ref(pre + "View") for pre in pres]}, out, "title")
    out["Action"] = {
        "description": "One action of a title (told apart by `type` within its title): one of a match's "
                       "legalActions, sent back as is.",
        "anyOf": [_ref(pre + "Action") for pre in pres]}
    out["GameEvent"] = {
        "description": "One event of a step of a title (told apart by `type` within its title), redacted for the "
                       "reader, with its label.",
        "anyOf": [_ref(pre + "Event") for pre in pres]}
    return out


MARK = "x-firebreak-component"  # a field's schema until the document is written (see typed)


def typed(name: str) -> WithJsonSchema:
    """Annotated metadata: the field's schema is this component's (View, Action, GameEvent), documented only (the
    field keeps its own validation). pydantic follows the references it writes itself, so the field's schema is a
    mark until linked() makes it the reference."""
    return WithJsonSchema({MARK: name})


def linked(schema: Any) -> Any:
    """The schema with each mark of typed() made a reference to its component."""
    if isinstance(schema, dict):
        out = {key: linked(value) for key, value in schema.items() if key != MARK}
        if MARK in schema:
            out["$ref"] = REF.format(name=schema[MARK])
        return out
    if isinstance(schema, list):
        return [linked(item) for item in schema]
    return schema
