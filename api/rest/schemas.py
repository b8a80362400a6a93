"""The component schemas of the OpenAPI document (JSON Schema 2020-12, as OpenAPI 3.1 takes them), generated from
the pydantic models of the request bodies (requests.py), which the routes enforce, and of the answers
(responses.py, responses_more.py, responses_events.py), which the tests check every answer against, and of each
registered title's view, actions and events (titled.py, from the JSON Schemas the title publishes)."""

from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from firebreak.api.rest import (
    requests,
    responses,
    responses_chat,
    responses_events,
    responses_moderation,
    responses_more,
    responses_social,
    titled,
)
from firebreak.api.rest.limits import Limits, documenting

REF = "#/components/schemas/{model}"


def ref(name: str) -> dict[str, Any]:
    """A reference to a component schema."""
    return {"$ref": REF.format(model=name)}


class Generator(GenerateJsonSchema):
    """pydantic's generator without a title on every member (the member's name says it)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        """Never: a member is named by its key."""
        return False


def _models(module: Any) -> list[type[BaseModel]]:
    return [value for value in vars(module).values() if isinstance(value, type) and issubclass(value, BaseModel)
            and value.__module__ == module.__name__ and value not in (requests.Body, responses.Answer)]


def _answer(schema: dict[str, Any]) -> dict[str, Any]:
    """An answer's schema without defaults (an answer always carries its required members; the others are left out,
    never given a default)."""
    schema.pop("title", None)
    for member in schema.get("properties", {}).values():
        member.pop("default", None)
    return schema


def components(limits: Limits | None = None) -> dict[str, dict[str, Any]]:
    """Every component schema by name, as the registry of titles stands now (title ids and bot level names) and with
    these settings' bounds (the settings' defaults unless given)."""
    return _components(tuple(requests.title_ids()), limits or Limits())


@functools.cache
def _components(_titles: tuple[str, ...], limits: Limits) -> dict[str, dict[str, Any]]:
    with documenting(limits):
        return _generate()


def _generate() -> dict[str, dict[str, Any]]:
    answers = (_models(responses) + _models(responses_more) + _models(responses_events) + _models(responses_social)
               + _models(responses_chat) + _models(responses_moderation))
    modes: list[tuple[type[BaseModel], Literal["validation", "serialization"]]] = [
        *((model, "validation") for model in requests.REQUESTS), *((model, "serialization") for model in answers)]
    _keys, generated = models_json_schema(modes, ref_template=REF, schema_generator=Generator)
    defs: dict[str, dict[str, Any]] = generated["$defs"]
    names = {model.__name__ for model in answers}
    out: dict[str, dict[str, Any]] = {}
    for name, schema in sorted(defs.items(), key=lambda item: item[0] not in names):
        if name in names:
            out[name] = _answer(schema)
        else:
            schema.pop("title", None)
            out[name] = schema
    tidy: dict[str, dict[str, Any]] = titled.linked(_tidy(out))
    by_title = titled.components()  # the titles' own schemas, as published (View, Action, GameEvent: theirs)
    if set(by_title) & set(tidy):
        raise ValueError(f"a title's component has a name taken: {sorted(set(by_title) & set(tidy))}")
    return {**tidy, **by_title}


def _tidy(schema: Any) -> Any:
    """Descriptions on one line (a docstring's line breaks are the source's, not the text's)."""
    if isinstance(schema, dict):
        return {key: " ".join(value.split()) if key == "description" and isinstance(value, str) else _tidy(value)
                for key, value in schema.items()}
    if isinstance(schema, list):
        return [_tidy(item) for item in schema]
    return schema
