"""Only listed actions are accepted: anything else raises a RulesError and changes nothing.

At every step of the seeded playouts one legal action is mutated and offered, and a legal action is offered by
a wrong seat. At sampled steps each of a few legal actions is mutated in every way (unknown type, no type,
another value in one field, a field of the wrong type, an extra key, not an object at all) and offered by the
seat, and offered by the wrong seats (one not owing a decision, or no seat at all); an automated step asked for
when none is due, and any action after the end, are refused the same way.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from firebreak.domain.contract import Action, Match
from firebreak.domain.errors import RulesError
from tests.conformance.support import Case, sampled, trace, walk


def _key(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def _other_values(value: Any) -> list[Any]:
    """Values of another type or content for one field of an action."""
    if isinstance(value, bool):
        return [not value, 1 if value else 0, None]
    if isinstance(value, int):
        return [value + 1000, -value - 1, str(value), float(value) + 0.5, True, None]
    if isinstance(value, str):
        return [value + "-nope", "", 0, None]
    if isinstance(value, list):
        return [[*value, value[0] if value else 0], [], None, "x"]
    if value is None:
        return [0, "x"]
    return [None, "x"]


def mutations(action: Action, rng: random.Random) -> list[Any]:
    """Near misses of a legal action (some may happen to be legal too: the caller filters them out)."""
    out: list[Any] = [None, "x", 3, [action], dict(action, type="noSuchActionType"),
                      {k: v for k, v in action.items() if k != "type"}, dict(action, extraKey=1),
                      dict(action, type=action["type"].upper())]
    for key, value in action.items():
        if key == "type":
            continue
        out.append({k: v for k, v in action.items() if k != key})
        out.extend(dict(action, **{key: other}) for other in rng.sample(_other_values(value), 2))
    return out


def _refused(match: Match, seat: Any, action: Any, where: str) -> None:
    before = match.to_dict()
    with pytest.raises(RulesError):
        match.apply(seat, action)
    assert match.to_dict() == before, f"{where}: a refused {action!r} by seat {seat!r} changed the match"


def test_actions_outside_the_legal_list_raise_and_change_nothing(case: Case) -> None:
    """At every step one near miss of a legal action, and at sampled steps many near misses, wrong seats,
    untimely automated steps and moves after the end: all raise a RulesError and leave to_dict as it was."""
    t = trace(case)
    probe = sampled(t, 6)
    rng = random.Random(case.seed)
    seats = case.seats
    refused = 0
    for k, match, _ in walk(t):
        where = f"{case} step {k}"
        acting = match.to_act()
        idle = [s for s in range(seats) if s not in acting]
        if k not in probe:
            if acting:  # the light check of every step
                seat = rng.choice(acting)
                legal = match.legal_actions(seat)
                keys = {_key(a) for a in legal}
                near = [bad for bad in mutations(rng.choice(legal), rng) if _key(bad) not in keys]
                _refused(match, seat, rng.choice(near), where)
                _refused(match, rng.choice([*idle, -1, seats]), legal[0], where)
                refused += 2
            continue
        for seat in acting:
            legal = match.legal_actions(seat)
            keys = {_key(a) for a in legal}
            for action in rng.sample(legal, min(len(legal), 4)):
                for bad in mutations(action, rng):
                    if _key(bad) not in keys:
                        _refused(match, seat, bad, where)
                        refused += 1
                for wrong in [*idle[:2], -1, seats, True, "0"]:
                    _refused(match, wrong, action, where)
                    refused += 1
        if not match.system_due():
            before = match.to_dict()
            with pytest.raises(RulesError):
                match.run_system_step()
            assert match.to_dict() == before, f"{where}: an untimely automated step changed the match"
        if match.is_over():
            for seat in range(seats):
                _refused(match, seat, {"type": "anything"}, where)
        else:
            for seat in idle[:2]:
                _refused(match, seat, {"type": "noSuchActionType"}, where)
    assert refused > len(t.log)
