"""Checking a match's seat count and options against a title's typed option specs (contract.OptionSpec)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from firebreak.domain.contract import OptionKind, OptionSpec
from firebreak.domain.errors import BadOptions


def check_seats(name: str, least: int, most: int, seats: object) -> int:
    """The seat count; raise BadOptions unless it is a whole number from least to most."""
    if not isinstance(seats, int) or isinstance(seats, bool) or not least <= seats <= most:
        raise BadOptions(f"{name} takes {least}-{most} seats, not {seats!r}")
    return seats


def checked(specs: Sequence[OptionSpec], seats: int, options: object) -> dict[str, Any]:
    """Every option's value (defaults filled in); raise BadOptions naming an unknown option, a value of the wrong
    kind or out of range, or a value other than the default for an option that does not apply at this seat count."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions("options must be an object of option values by name")
    unknown = sorted(set(options) - {spec.name for spec in specs})
    if unknown:
        raise BadOptions(f"unknown option(s): {', '.join(map(str, unknown))}")
    out: dict[str, Any] = {}
    for spec in specs:
        value = options.get(spec.name, spec.default)
        if spec.seats and seats not in spec.seats and value != spec.default:
            counts = ", ".join(map(str, spec.seats))
            raise BadOptions(f"option {spec.name} is only for {counts} seats, not {seats}")
        out[spec.name] = _value(spec, seats, value)
    return out


def _value(spec: OptionSpec, seats: int, value: object) -> Any:
    if value is None and spec.nullable:
        return None
    if spec.kind is OptionKind.BOOL:
        if not isinstance(value, bool):
            raise BadOptions(f"option {spec.name} must be true or false")
        return value
    if spec.kind is OptionKind.CHOICE:
        if value not in spec.choices:
            raise BadOptions(f"option {spec.name} must be one of {', '.join(spec.choices)}")
        return value
    least = spec.minimum
    most = spec.maximum if spec.maximum is not None else seats - 1  # no maximum: a seat number
    if not isinstance(value, int) or isinstance(value, bool) or (least is not None and value < least) \
            or value > most:
        bounds = f"{'' if least is None else least}-{most}"
        raise BadOptions(f"option {spec.name} must be {'null or ' if spec.nullable else ''}a whole number {bounds}")
    return value
