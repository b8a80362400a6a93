"""Printable text as the layers behind the routes check it (str.strip, then a length and str.isprintable: display
and token names, a device id, a webhook's description) as a pydantic type: it enforces that very rule, and its JSON
Schema pattern is written from the same predicates over every code point, so the document says exactly what is
accepted (a fuzzer generates names the service takes) without a regex engine's idea of "printable"."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from firebreak.matches.refusals import Refusal

SPECIAL = set("\\]^-[")  # escaped inside a character class


def _class(marks: str) -> str:
    """A regex character class (without brackets) of the code points marked 1 in marks, as ranges."""
    parts = []
    for run in re.finditer("1+", marks):
        first, last = _char(run.start()), _char(run.end() - 1)
        parts.append(first if run.end() - run.start() == 1 else f"{first}-{last}")
    return "".join(parts)


def _char(code: int) -> str:
    char = chr(code)
    return f"\\{char}" if char in SPECIAL else char


def _marks(keep: Callable[[str], bool]) -> str:
    return "".join(["1" if keep(chr(code)) else "0" for code in range(sys.maxunicode + 1)])


@functools.cache
def classes() -> tuple[str, str, str]:
    """W: what str.strip removes; P: printable but not whitespace; Q: printable (P and the space)."""
    space, printable = _marks(str.isspace), _marks(str.isprintable)
    solid = "".join(["1" if p == "1" and s == "0" else "0" for p, s in zip(printable, space, strict=True)])
    return _class(space), _class(solid), _class(printable)


class Printable:
    """Annotated metadata of a str: once trimmed (trim) it has least to most characters, all printable; otherwise
    refused with code. The schema's pattern says the same."""

    def __init__(self, least: int, most: int, trim: bool, code: Refusal) -> None:
        self.least, self.most, self.trim, self.code = least, most, trim, code

    def accepts(self, value: str) -> bool:
        """The rule of the layer behind the route."""
        text = value.strip() if self.trim else value
        return self.least <= len(text) <= self.most and text.isprintable()

    def pattern(self) -> str:
        """The same rule as an anchored regex."""
        w, p, q = classes()
        if not self.trim:
            return f"^[{q}]{{{self.least},{self.most}}}$"
        body = f"[{p}](?:[{q}]{{0,{self.most - 2}}}[{p}])?"  # 1 to most, first and last not whitespace
        if self.least == 0:
            body = f"(?:{body})?"
        return f"^[{w}]*{body}[{w}]*$"

    def _check(self, value: str) -> str:
        if not self.accepts(value):
            raise PydanticCustomError(self.code.value, "must be {least} to {most} printable characters",
                                      {"least": self.least, "most": self.most})
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """The str's schema, then the rule."""
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(self, core: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """The str's schema with the rule's pattern."""
        schema = handler(core)
        schema["pattern"] = self.pattern()
        return schema
