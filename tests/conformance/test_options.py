"""Option specs and seat counts: what a form offers is accepted, everything else raises BadOptions."""

from __future__ import annotations

import json
from typing import Any

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import OptionKind, OptionSpec, Title
from firebreak.domain.errors import BadOptions
from tests.conformance.support import applies, invalid_values, valid_values


def _seat_counts(title: Title) -> range:
    return range(title.min_seats, title.max_seats + 1)


def test_the_registry_finds_the_title_by_its_id(title: Title) -> None:
    """The title is reachable through the registry under its own id (the reference title while this suite runs)."""
    assert titles.get(title.id) is title
    assert title.id in [t.id for t in titles.all_titles()]


def test_option_specs_are_well_formed(title: Title) -> None:
    """Unique names, a one-line description, a default the spec itself allows, choices only for a choice,
    bounds in order, seat counts within the title's; the specs are JSON."""
    specs = title.option_specs()
    assert all(isinstance(s, OptionSpec) for s in specs)
    names = [s.name for s in specs]
    assert len(set(names)) == len(names)
    assert 1 <= title.min_seats <= title.max_seats
    for spec in specs:
        assert spec.name and spec.description.strip(), spec
        assert bool(spec.choices) == (spec.kind is OptionKind.CHOICE), spec
        if spec.minimum is not None and spec.maximum is not None:
            assert spec.minimum <= spec.maximum, spec
        assert set(spec.seats) <= set(_seat_counts(title)), spec
        for seats in _seat_counts(title):
            if not applies(spec, seats):
                continue
            allowed = valid_values(spec, seats)
            if spec.kind is OptionKind.INT and isinstance(spec.default, int):
                assert min(v for v in allowed if v is not None) <= spec.default <= max(
                    v for v in allowed if v is not None), spec
            else:
                assert spec.default in allowed, spec
        json.dumps(spec.to_dict(), allow_nan=False)


def test_defaults_pass_and_are_filled_in(title: Title) -> None:
    """With no options (None or {}) every seat count gets every applicable option at its default."""
    for seats in _seat_counts(title):
        empty: list[dict[str, Any] | None] = [None, {}]
        for given in empty:
            options = title.check_options(seats, given)
            for spec in title.option_specs():
                if applies(spec, seats):
                    assert options[spec.name] == spec.default, (seats, spec.name)
        defaults = {s.name: s.default for s in title.option_specs() if applies(s, seats)}
        assert title.check_options(seats, defaults) == title.check_options(seats, None)
        title.new_match(seats, 1, defaults)


def test_each_valid_value_is_accepted(title: Title) -> None:
    """Every value a spec allows (ints: bounds and middle) is accepted alone, at every seat count it applies to."""
    for seats in _seat_counts(title):
        for spec in title.option_specs():
            if not applies(spec, seats):
                continue
            for value in valid_values(spec, seats):
                assert title.check_options(seats, {spec.name: value})[spec.name] == value, (seats, spec.name, value)


def test_bad_values_unknown_options_and_seat_counts_raise_bad_options(title: Title) -> None:
    """Wrong types, out-of-range numbers, unknown choices, null where not nullable, unknown names and seat
    counts outside the title's range raise BadOptions, from check_options and from new_match."""
    bad: list[tuple[Any, dict[str, Any]]] = [(title.min_seats - 1, {}), (title.max_seats + 1, {}),
                                             (str(title.min_seats), {}), (True, {}), (None, {}),
                                             (title.min_seats, {"noSuchOption": 1})]
    for seats in _seat_counts(title):
        for spec in title.option_specs():
            if applies(spec, seats):
                bad.extend((seats, {spec.name: value}) for value in invalid_values(spec, seats))
    for seats, options in bad:
        with pytest.raises(BadOptions):
            title.check_options(seats, options)
        with pytest.raises(BadOptions):
            title.new_match(seats, 1, options)
    with pytest.raises(BadOptions):
        title.new_match(title.min_seats, "1", None)  # type: ignore[arg-type]
