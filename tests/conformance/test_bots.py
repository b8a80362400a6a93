"""Each title's bot levels pick a legal action from a few positions of the seeded playouts and change nothing."""

from __future__ import annotations

import json
import random

from domain.contract import BotLevel, Budget, Title
from tests.conformance.support import Case, sampled, trace, walk

BUDGET = Budget(seconds=None, iterations=6)


def test_bot_levels_are_named_once_and_the_takeover_level_exists(title: Title) -> None:
    """bots() gives BotLevels with distinct names other than the generic "random"; takeover_level is one of them
    or "random"."""
    levels = title.bots()
    assert all(isinstance(level, BotLevel) and level.description for level in levels)
    names = [level.name for level in levels]
    assert len(set(names)) == len(names) and "random" not in names
    assert title.takeover_level in [*names, "random"]


def test_bot_levels_choose_legal_actions(case: Case) -> None:
    """At a few positions every level returns one of the seat's legal actions (iteration budget) and leaves the
    match as it was."""
    t = trace(case)
    probe = set(sorted(sampled(t, 3))[1:3]) | {0}
    levels = case.title.bots()
    chosen = 0
    for k, match, _ in walk(t):
        if k not in probe or match.is_over():
            continue
        before = json.dumps(match.to_dict(), sort_keys=True)
        for seat in match.to_act():
            for level in levels:
                action = level.choose(match, seat, random.Random(k), BUDGET)
                assert action in match.legal_actions(seat), f"{case} step {k}: {level.name} chose {action}"
                chosen += 1
        assert json.dumps(match.to_dict(), sort_keys=True) == before, f"{case} step {k}: a bot changed the match"
    assert chosen > 0 or not levels
