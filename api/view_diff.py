"""A small JSON differ: the RFC 6902 JSON Patch that turns one JSON document into another.

Objects are compared key by key (remove, then recurse, then add). Arrays keep their common head and tail (so one
card drawn, played or discarded anywhere in a list is one op), pair the rest element by element and remove or add
what is left over at the end. Anything else that differs is replaced whole. Values are compared strictly by JSON
type (true is not 1, 1 is not 1.0), so that a patched document serializes exactly as the target does.

Time is linear in the two documents' size, times their nesting depth at worst (a view's is a handful): each
value is first compared whole, in C, and only a value found to differ is walked in Python, so the Python work
follows the paths to what changed.

The patch's values are the target's own objects (not copies): treat both documents as read-only.
"""

from __future__ import annotations

import marshal
from typing import Any

Op = dict[str, Any]


def diff(old: Any, new: Any) -> list[Op]:
    """The JSON Patch (a list of {op, path, value?}) that turns old into new; [] when they are equal."""
    ops: list[Op] = []
    if not same(old, new):
        _diff(old, new, "", ops)
    return ops


def pointer_token(key: str) -> str:
    """One JSON Pointer reference token for an object key (RFC 6901: "~" as "~0", "/" as "~1")."""
    return key.replace("~", "~0").replace("/", "~1")


def same(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal with their types (true != 1, 1 != 1.0, -0.0 != 0.0, unlike Python's ==).

    Containers are compared by Python's == (which stops at the first difference) and, when equal, by their marshal
    bytes (format 2: no shared references or interning, so equal bytes are equal values of equal types), both in
    C. Two objects holding the same members in another order count as different: that only costs a diff that
    finds nothing."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict or kind is list:
        return bool(a == b) and marshal.dumps(a, 2) == marshal.dumps(b, 2)
    if kind is float:
        return repr(a) == repr(b)  # -0.0 == 0.0 in Python, but they serialize differently
    return bool(a == b)


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    """Append to ops what turns old into new (which differ)."""
    kind = type(new)
    if kind is not type(old):
        ops.append({"op": "replace", "path": path, "value": new})
    elif kind is dict:
        _diff_objects(old, new, path, ops)
    elif kind is list:
        _diff_arrays(old, new, path, ops)
    else:  # two scalars of one type that differ (callers diff only what same() says differs)
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_objects(old: dict[str, Any], new: dict[str, Any], path: str, ops: list[Op]) -> None:
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{pointer_token(key)}"})
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{pointer_token(key)}", "value": value})
        elif not same(old[key], value):
            _diff(old[key], value, f"{path}/{pointer_token(key)}", ops)


def _diff_arrays(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    shortest = min(len(old), len(new))
    head = 0
    while head < shortest and same(old[head], new[head]):
        head += 1
    tail = 0
    while tail < shortest - head and same(old[-1 - tail], new[-1 - tail]):
        tail += 1
    old_rest, new_rest = len(old) - head - tail, len(new) - head - tail
    paired = min(old_rest, new_rest)
    for n in range(head, head + paired):
        if not same(old[n], new[n]):
            _diff(old[n], new[n], f"{path}/{n}", ops)
    at = head + paired
    for _ in range(old_rest - paired):
        ops.append({"op": "remove", "path": f"{path}/{at}"})
    for n in range(at, at + new_rest - paired):
        ops.append({"op": "add", "path": f"{path}/{n}", "value": new[n]})
