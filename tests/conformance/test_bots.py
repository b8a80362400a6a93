"""Each title's bot levels pick a legal action from a few positions of the seeded playouts and change nothing."""

from __future__ import annotations

import json
import random

from firebreak.domain.bots import choose_action
from firebreak.domain.contract import BotLevel, Budget, Title
from tests.conformance.support import Case, sampled, trace, walk

BUDGET = Budget(seconds=None, iterations=3)  # small: whole matches of every level are played below


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


def test_matches_of_every_level_end(case: Case) -> None:
    """A match where the seats play the bot levels in turn (and "random") ends, within a few times the length of
    the case's random playout: no level goes round in circles (London's search once went develop, cancel,
    develop... for ever, and a worker with it)."""
    t = trace(case)
    names = ["random", *(level.name for level in case.title.bots())]
    lineup = [names[(seat + case.index) % len(names)] for seat in range(case.seats)]
    match = t.new_match()
    cap = 4 * len(t.log) + 500
    for _ in range(cap):
        if match.is_over():
            break
        if match.system_due():
            match.run_system_step()
            continue
        seat = match.to_act()[0]
        rng = random.Random(f"{case}:{match.version}")
        action = choose_action(case.title, lineup[seat], match, seat, rng, BUDGET)
        match.apply(seat, action)
    assert match.is_over(), f"{case}: lineup {lineup} did not finish in {cap} steps"
