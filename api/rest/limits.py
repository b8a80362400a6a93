"""Bounds of a request that are deployment settings (a seek's botsAfterSeconds is below the seek lifetime,
FIREBREAK_SEEK_TTL): the routes validate a body with the running service's values (pydantic's validation context)
and the document is written with the same values, so what is documented is what this service enforces."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from firebreak.matches.refusals import Refusal
from firebreak.matchmaking.config import SeekSettings


@dataclass(frozen=True)
class Limits:
    """The settings request bodies are checked against (defaults: the settings' defaults)."""

    seek_ttl: float = SeekSettings().ttl

    def context(self) -> dict[str, Any]:
        """As pydantic's validation context."""
        return asdict(self)


def limits_of(services: Any) -> Limits:
    """The limits of a running service (its Services)."""
    return Limits(seek_ttl=services.seeks.settings.ttl)


_WRITING: ContextVar[Limits | None] = ContextVar("limits being documented", default=None)


@contextlib.contextmanager
def documenting(limits: Limits) -> Iterator[None]:
    """Write the JSON Schemas of this block with these limits."""
    token = _WRITING.set(limits)
    try:
        yield
    finally:
        _WRITING.reset(token)


class Below:
    """Annotated metadata of a number: below the named setting (exclusiveMaximum), else refused with code."""

    def __init__(self, setting: str, code: Refusal) -> None:
        self.setting, self.code = setting, code

    def _check(self, value: float | None, info: core_schema.ValidationInfo) -> float | None:
        limit = float((info.context or Limits().context())[self.setting])
        if value is not None and not value < limit:
            raise PydanticCustomError(self.code.value, "must be below {limit}", {"limit": limit})
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """The number's schema, then the bound."""
        return core_schema.with_info_after_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(self, core: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """The number's schema with the bound of the document being written."""
        schema = handler(core)
        schema["exclusiveMaximum"] = getattr(_WRITING.get() or Limits(), self.setting)
        return schema
