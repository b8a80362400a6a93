"""What the bots' rating keeps between states: fire.groups answers equal fire states with one object (bounded),
rating's threat is kept by that object and rates as a cold start does, and the plans and clones share rows of
houses, which no action changes in place."""

from __future__ import annotations

import pytest

from firebreak.domain.greatfire.bots import rating as rating_module
from firebreak.domain.greatfire.bots.plans import best_plans
from firebreak.domain.greatfire.bots.rating import exposure, rating, threat
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules import fire
from firebreak.domain.greatfire.state import Phase
from tests.greatfire.bot_positions import positions


def _states(seats: int, seed: int) -> list[GreatFireMatch]:
    """A clone of every position of a seeded random game where a seat owes a decision."""
    return [m.clone() for m in positions(seats, seed)]


def _forget() -> None:
    fire._KNOWN.clear()
    rating_module._THREATS.clear()


def test_equal_fire_states_get_one_answer_and_a_full_memo_starts_over(monkeypatch: pytest.MonkeyPatch) -> None:
    _forget()
    states = [s for s in _states(4, 21) if sum(s.cones) > 3]
    a, b = states[10].clone(), states[10].clone()
    a.groups_cache = b.groups_cache = None
    assert fire.groups(a) is fire.groups(b)
    b.cones[b.cones.index(0)] = 2  # a new burning district: another fire state
    assert fire.groups(b) is not fire.groups(a)
    monkeypatch.setattr(fire, "GROUPS_KEPT", 3)
    for s in states:
        s.groups_cache = None
        found = fire.groups(s)
        fresh = s.clone()
        fresh.groups_cache = None
        fire._KNOWN.clear()
        assert fire.groups(fresh) == found  # the kept answer is the one worked out from scratch
        assert len(fire._KNOWN) <= 3


@pytest.mark.parametrize("seats,seed", [(2, 31), (4, 32), (6, 33)])
def test_rating_is_the_same_with_the_threat_kept_or_worked_out_afresh(seats: int, seed: int) -> None:
    states = _states(seats, seed)
    _forget()
    warm = [[rating(s, seat) for seat in range(seats)] for s in states]
    for s, values in zip(states, warm, strict=True):
        _forget()
        s.groups_cache = None
        assert [rating(s, seat) for seat in range(seats)] == values
        found = fire.groups(s)
        kept = threat(s, found)
        assert set(kept.risks) == set(kept.bordering)
        for d, risk in kept.risks.items():  # each as exposure() has it
            assert d in kept.bordering and risk == exposure(s, d, found.label, found.live)
        assert kept.contained == tuple(d for d, c in enumerate(s.cones) if 0 < c <= s.bands[d])


@pytest.mark.parametrize("seats,seed", [(2, 41), (4, 42)])
def test_no_step_after_setup_changes_a_row_of_houses_in_place(seats: int, seed: int) -> None:
    """The action plans share rows of houses between their saved and tried states (plans._save), and a clone
    with its original (State.copy_into): a rule may replace a district's row (fire, demolition), never change
    the row itself."""
    replaced = 0
    before: dict[int, tuple[list[int], tuple[int, ...]]] = {}
    last: GreatFireMatch | None = None
    for m in positions(seats, seed):  # between two positions: a seat's step and any non-player steps
        if last is not None:
            replaced += _replaced_rows(m, before)
        before = {id(row): (row, tuple(row)) for row in m.houses}
        last = m
    assert last is not None and last.is_over()
    replaced += _replaced_rows(last, before)
    assert replaced  # fire and demolitions did replace rows


def _replaced_rows(m: GreatFireMatch, before: dict[int, tuple[list[int], tuple[int, ...]]]) -> int:
    """Rows of houses that are new objects since before was taken; a row still there must hold what it held."""
    replaced = 0
    for row in m.houses:
        kept = before.get(id(row))
        if kept is not None and kept[0] is row:
            assert tuple(row) == kept[1]
        else:
            replaced += 1
    return replaced


def test_the_plans_leave_the_state_as_they_found_it() -> None:
    checked = 0
    for s in _states(4, 51):
        if s.phase is not Phase.ACTIONS:
            continue
        before = s.to_dict()
        best_plans(s, s.turn)
        assert s.to_dict() == before
        checked += 1
    assert checked > 10
