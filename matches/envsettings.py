"""What every settings model of the service shares: a pydantic-settings model read from environment variables (one
variable per field, named on the field), whose refusal names every bad variable at once and never shows a secret.

Each layer keeps its own model beside the code that uses it (matches/config.py, players/config.py, ...); a model is
read with `from_env(environ)` (default: os.environ) and built with keyword arguments by field name in code and
tests (then nothing is read from the environment: a model's defaults are the documented ones wherever it runs).
The reference of every setting (docs/reference/settings.md, `firebreak --help`) is generated from these models
(firebreak/settings_reference.py), so the documentation and the code cannot drift.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterable, Mapping
from types import UnionType
from typing import Any, ClassVar, Literal, Self, TypeVar, Union, cast, get_args, get_origin

import annotated_types
from pydantic import Field, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, EnvSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict

M = TypeVar("M", bound="EnvSettings")


class SettingsError(ValueError):
    """Raised when one or more settings are not usable; the message names every bad variable (never a secret's
    value), one per line after the first."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        if len(self.problems) == 1:
            message = self.problems[0]
        else:
            message = f"{len(self.problems)} settings are not usable:\n  " + "\n  ".join(self.problems)
        super().__init__(message)


def env(name: str, default: Any, description: str, *, secret: bool = False, **bounds: Any) -> Any:
    """A setting's field: the variable that sets it, its default, what it does (for the reference), and its
    bounds (pydantic's gt, ge, le, min_length...; floats are always finite). A secret is kept out of repr and of
    every error message."""
    extra: dict[str, Any] = {"secret": True} if secret else {}
    return Field(default, validation_alias=name, description=description, repr=not secret,
                 json_schema_extra=extra or None, **bounds)


class EnvSettings(BaseSettings):
    """A frozen settings model read from environment variables (see the module's docstring)."""

    model_config = SettingsConfigDict(
        frozen=True,
        case_sensitive=True,        # FIREBREAK_QUEUE, never firebreak_queue
        env_ignore_empty=True,      # an empty variable counts as unset (the default applies)
        extra="ignore",             # the environment holds much else
        validate_by_name=True,      # code and tests build a model by field name...
        validate_by_alias=True,     # ...from_env by variable name
        hide_input_in_errors=True,  # pydantic's own messages never carry a value (it could be a secret)
        allow_inf_nan=False,        # no infinite or NaN number anywhere
    )
    section: ClassVar[str] = ""  # the heading of this model's table in the reference (docs/reference/settings.md)

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise SettingsError(problems(type(self), exc, values)) from None

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only what the caller passes: from_env passes what it read from its mapping (never a .env file)."""
        return (init_settings,)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Self:
        """The settings the environment (default: os.environ) gives, over the defaults; SettingsError (a
        ValueError) names every bad variable. The same values give the same (frozen) settings object: a worker
        reads its settings for every job, in microseconds."""
        env = os.environ if environ is None else environ
        return cast(Self, _built(cls, tuple(env.get(name) for name in cls.variables())))

    @classmethod
    def variables(cls) -> tuple[str, ...]:
        """The environment variables this model reads, in field order."""
        found = _VARIABLES.get(cls)
        if found is None:
            found = _VARIABLES[cls] = tuple(variable(cls, name) for name in cls.model_fields)
        return found

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The values the environment (default: os.environ) gives this model's variables, by variable name."""
        return MappingSource(cls, os.environ if environ is None else environ)()


_VARIABLES: dict[type[EnvSettings], tuple[str, ...]] = {}


@functools.lru_cache(maxsize=256)
def _built(model: type[EnvSettings], raw: tuple[str | None, ...]) -> EnvSettings:
    """The settings these raw values (one per variable, None: unset) give (a refusal is raised, never cached)."""
    return model(**model.read({name: value for name, value in zip(model.variables(), raw, strict=True)
                               if value is not None}))


class MappingSource(EnvSettingsSource):
    """pydantic-settings' environment source over a given mapping instead of os.environ."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self.environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {name: value for name, value in self.environ.items() if not self.env_ignore_empty or value != ""}


class Read:
    """Several models read at once (read_all): read[Model] is that model's settings."""

    def __init__(self, values: Mapping[type[EnvSettings], EnvSettings]) -> None:
        self.values = dict(values)

    def __getitem__(self, model: type[M]) -> M:
        return cast(M, self.values[model])


def read_all(models: Iterable[type[EnvSettings]], environ: Mapping[str, str] | None = None) -> Read:
    """Read several models at once: every model's bad variables in one SettingsError (a start refuses once, naming
    them all, instead of one per attempt)."""
    values: dict[type[EnvSettings], EnvSettings] = {}
    found: list[str] = []
    for model in models:
        try:
            values[model] = model.from_env(environ)
        except SettingsError as exc:
            found.extend(exc.problems)
    if found:
        raise SettingsError(found)
    return Read(values)


def variable(model: type[BaseSettings], field: str) -> str:
    """The environment variable that sets a field."""
    alias = model.model_fields[field].validation_alias
    return alias if isinstance(alias, str) else field


def is_secret(info: FieldInfo) -> bool:
    """Whether a field holds a secret (kept out of repr and error messages)."""
    return isinstance(info.json_schema_extra, dict) and bool(info.json_schema_extra.get("secret"))


def problems(model: type[BaseSettings], exc: ValidationError, given: Mapping[str, Any]) -> list[str]:
    """One line per bad variable: its name, what it must be, and (secrets aside) what it was."""
    by_key = {key: name for name in model.model_fields for key in (name, variable(model, name))}
    out: list[str] = []
    for error in exc.errors(include_input=False, include_url=False):
        field = by_key.get(str(error["loc"][0])) if error["loc"] else None
        if error["type"] == "value_error":  # our own validators' messages name the variable themselves
            line = str(error.get("ctx", {}).get("error", error["msg"]))
        elif field is None:
            line = error["msg"]
        else:
            info = model.model_fields[field]
            line = f"{variable(model, field)} must be {rule(info)}"
            key = next((k for k in (variable(model, field), field) if k in given), None)
            if key is not None and not is_secret(info):
                line += f", not {given[key]!r}"
        if line not in out:
            out.append(line)
    return out


def rule(info: FieldInfo) -> str:
    """What a field's value must be, in words, from its type and bounds (for errors and the reference)."""
    kind = info.annotation
    if get_origin(kind) in (UnionType, Union):  # X | None: an unset variable is None
        kind = next(arg for arg in get_args(kind) if arg is not type(None))
    if get_origin(kind) is Literal:
        return "one of " + ", ".join(str(choice) for choice in get_args(kind))
    names = {int: "a whole number", float: "a number", bool: "true or false"}
    words = names.get(kind) if isinstance(kind, type) else None
    if words is None:
        return "text" + _length(info)
    low = next((m for m in info.metadata if isinstance(m, annotated_types.Gt | annotated_types.Ge)), None)
    high = next((m for m in info.metadata if isinstance(m, annotated_types.Lt | annotated_types.Le)), None)
    if isinstance(low, annotated_types.Gt) and low.gt == 0 and high is None:
        return words.replace("a ", "a positive ", 1)
    parts = [words]
    if isinstance(low, annotated_types.Gt):
        parts.append(f"above {_number(low.gt)}")
    elif isinstance(low, annotated_types.Ge):
        parts.append(f">= {_number(low.ge)}")
    if isinstance(high, annotated_types.Lt):
        parts.append(f"below {_number(high.lt)}")
    elif isinstance(high, annotated_types.Le):
        parts.append(f"<= {_number(high.le)}")
    return " ".join(parts[:2]) + (f" and {parts[2]}" if len(parts) > 2 else "")


def _length(info: FieldInfo) -> str:
    least = next((m.min_length for m in info.metadata if isinstance(m, annotated_types.MinLen)), 0)
    return f" of at least {least} characters" if least > 1 else " (not empty)" if least == 1 else ""


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) and math.isfinite(value) else str(value)
