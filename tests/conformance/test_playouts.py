"""Seeded random playouts of every title at every seat count (like OpenSpiel's random_sim_test).

At every step: whose step it is is coherent (a seat's, the service's, or nobody's once over), exactly the seats
owing a decision have legal actions, the state is JSON (the same copied or not) and survives a to_dict /
match_from_dict round trip (at sampled steps every view too), the version rises by one per step, events are JSON
with a string type.
At sampled steps every legal action applies on a clone without touching the match. The end comes, with a typed
Result; replaying the seed and the log (automated steps included) gives the same state and the same events.
"""

from __future__ import annotations

import json
import random
from typing import Any

from firebreak.domain.contract import Match, Result, Title
from tests.conformance.support import Case, sampled, take, trace, walk


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, allow_nan=False)


def _check_turn(match: Match, seats: int, where: str) -> list[int]:
    """The pending step is exactly one of: over, the service's, some seats' (with legal actions for them alone)."""
    acting = match.to_act()
    assert all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats for s in acting), where
    assert len(set(acting)) == len(acting), f"{where}: a seat is listed twice in to_act {acting}"
    over, system = match.is_over(), match.system_due()
    assert [over, system, bool(acting)].count(True) == 1, f"{where}: over={over} system={system} to_act={acting}"
    for seat in range(seats):
        legal = match.legal_actions(seat)
        assert bool(legal) == (seat in acting), f"{where}: seat {seat} has {len(legal)} legal actions"
        assert all(isinstance(a, dict) and isinstance(a.get("type"), str) for a in legal), where
        texts = [_json(a) for a in legal]
        assert len(set(texts)) == len(texts), f"{where}: seat {seat} lists an action twice"
    return acting


def _check_state(title: Title, match: Match, seats: int, where: str, deep: bool) -> None:
    """The state is JSON and round-trips through match_from_dict; the spectator's view is JSON (deep: every
    viewer's, and the rebuilt match shows each the same and offers the same choices)."""
    data = match.to_dict()
    text = _json(data)
    assert _json(match.to_dict(copied=False)) == text, f"{where}: to_dict(copied=False) saves another state"
    rebuilt = title.match_from_dict(json.loads(text))
    assert _json(rebuilt.to_dict()) == text, f"{where}: to_dict / match_from_dict is not a round trip"
    for viewer in [None, *range(seats)] if deep else [None]:
        view = _json(match.view(viewer))
        if deep:
            assert _json(rebuilt.view(viewer)) == view, f"{where}: the rebuilt match shows {viewer} otherwise"
    assert rebuilt.to_act() == match.to_act() and rebuilt.system_due() == match.system_due(), where
    for seat in match.to_act():
        assert rebuilt.legal_actions(seat) == match.legal_actions(seat), where


def test_random_playouts_reach_the_end_through_coherent_steps(case: Case) -> None:
    """Every step of a seeded random playout keeps the contract's invariants; the match ends with a Result."""
    t = trace(case)
    title, seats = case.title, case.seats
    match = t.new_match()
    version = -1
    deep = sampled(t, 12)
    for k in range(len(t.log) + 1):
        where = f"{case} step {k}"
        acting = _check_turn(match, seats, where)
        _check_state(title, match, seats, where, k in deep)
        assert isinstance(match.version, int) and (k == 0 or match.version == version + 1), (
            f"{where}: the version went from {version} to {match.version}, not up by one")
        version = match.version
        if k == len(t.log):
            break
        assert match.result() is None, f"{where}: a result before the end"
        step = t.log[k]
        if step is not None:
            assert step[0] in acting
        events = take(match, step)
        assert isinstance(events, list) and all(isinstance(e, dict) and isinstance(e.get("type"), str)
                                                for e in events), where
        _json(events)
    assert match.is_over() and isinstance(match.result(), Result)


def test_the_end_has_a_typed_result_with_the_titles_score_columns(case: Case) -> None:
    """result() is a contract.Result: one SeatScore per seat, int totals, parts keyed by score_columns() in their
    order, winners a non-empty set of seats; its to_dict is JSON."""
    t = trace(case)
    *_, (_, match, _) = walk(t)
    result = match.result()
    assert isinstance(result, Result)
    keys = [c.key for c in case.title.score_columns()]
    assert len(set(keys)) == len(keys) and keys, "score columns must be named, without repeats"
    assert sorted(s.seat for s in result.scores) == list(range(case.seats))
    for score in result.scores:
        assert isinstance(score.total, int) and not isinstance(score.total, bool)
        assert list(score.parts) == keys, f"seat {score.seat}: parts {list(score.parts)} vs columns {keys}"
        assert all(isinstance(v, int) and not isinstance(v, bool) for v in score.parts.values())
    assert result.winners and len(set(result.winners)) == len(result.winners)
    assert set(result.winners) <= set(range(case.seats))
    assert isinstance(result.reason, str) and result.reason
    _json(result.to_dict())
    assert match.result() == result, "result() must not change once over"


def test_replaying_seed_and_log_gives_the_same_match(case: Case) -> None:
    """A match is reproducible from (title, options, seed, action log): same events at every step, same state."""
    t = trace(case)
    first, second = t.new_match(), t.new_match()
    assert _json(first.to_dict()) == _json(second.to_dict())
    for k, step in enumerate(t.log):
        assert _json(take(first, step)) == _json(take(second, step)), f"{case} step {k}: different events"
    assert _json(first.to_dict()) == _json(second.to_dict())
    again = t.new_match()
    for step in t.log:
        take(again, step)
    assert _json(again.to_dict()) == _json(first.to_dict())


def test_every_legal_action_applies_on_a_clone(case: Case) -> None:
    """At sampled steps each legal action of each seat owing a decision applies (on a clone), and neither the
    clone's step nor the clone itself changes the match."""
    t = trace(case)
    probe = sampled(t, 8)
    rng = random.Random(case.seed)
    tried = 0
    for k, match, _ in walk(t):
        if k not in probe or match.is_over():
            continue
        before = _json(match.to_dict())
        for seat in match.to_act():
            legal = match.legal_actions(seat)
            for action in rng.sample(legal, min(len(legal), 40)):
                clone = match.clone()
                events = clone.apply(seat, action)
                assert isinstance(events, list), f"{case} step {k}"
                assert clone.version == match.version + 1
                tried += 1
        if match.system_due():
            match.clone().run_system_step()
        assert _json(match.to_dict()) == before, f"{case} step {k}: a clone's step changed the match"
    assert tried > 0
