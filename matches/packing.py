"""How stored values are written: compact JSON (orjson), and compressed JSON for the values that are read rarely.

A packed value is "z:" + base64 of zlib-compressed JSON (the clients decode replies as text, so the bytes go as
base64); unpack() also reads plain JSON, so values written before packing existed still load.
"""

from __future__ import annotations

import base64
import zlib
from typing import Any

import orjson

from firebreak.domain.contract import RawJSON

PACKED = "z:"
LEVEL = 6  # zlib level: packed values are written once (a log chunk, an archive) and read rarely


RAW = orjson.Fragment  # JSON text written as it is: what a title's json_view is asked to make its written parts


def _written(value: Any) -> orjson.Fragment:
    """A value orjson does not write itself: a RawJSON's text, as it is."""
    if isinstance(value, RawJSON):
        return orjson.Fragment(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


def dumps(value: Any) -> str:
    """Compact JSON text (non-string keys written as strings, as the json module does; RawJSON as its text)."""
    return orjson.dumps(value, default=_written, option=orjson.OPT_NON_STR_KEYS).decode()


def dump_bytes(value: Any) -> bytes:
    """Compact JSON as UTF-8 bytes (an HTTP body; RawJSON as its text)."""
    return orjson.dumps(value, default=_written, option=orjson.OPT_NON_STR_KEYS)


def loads(text: str | bytes) -> Any:
    """Parse JSON text."""
    return orjson.loads(text)


def pack(value: Any) -> str:
    """The value as compressed JSON text."""
    raw = orjson.dumps(value, default=_written, option=orjson.OPT_NON_STR_KEYS)
    return PACKED + base64.b64encode(zlib.compress(raw, LEVEL)).decode("ascii")


def unpack(text: str) -> Any:
    """The value of pack() output, or of plain JSON text."""
    if text.startswith(PACKED):
        return orjson.loads(zlib.decompress(base64.b64decode(text[len(PACKED):])))
    return orjson.loads(text)


def is_packed(text: str) -> bool:
    """Whether the text is pack() output (not plain JSON)."""
    return text.startswith(PACKED)
