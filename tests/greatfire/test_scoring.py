"""Scoring and tie-breaks (R17), Example 5."""

from __future__ import annotations

from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules.scoring import result, score
from tests.greatfire.positions import blank, put


def own(m: GreatFireMatch, seat: int) -> str:
    return m.comps.colours[m.colours[seat][0]]


def remove_houses(m: GreatFireMatch, colour: int, count: int) -> None:
    for row in m.houses:
        while row[colour] and count:
            row[colour] -= 1
            count -= 1


def test_example_5_two_houses_lost_leave_36_vp() -> None:
    m = blank()
    remove_houses(m, m.colours[0][0], 2)
    assert score(m, 0)["houses"] == 36 and score(m, 0)["housesLeft"] == 18


def test_r17_objective_survives_with_houses_and_no_uncontained_fire() -> None:
    m = blank()
    target = m.objectives[0][2]  # deck III: 6 VP
    m.objectives[0] = [target]
    assert score(m, 0)["objectives"] == 6
    put(m, target, cones=2, bands=2)  # contained: still survives
    assert score(m, 0)["objectives"] == 6
    put(m, target, cones=3, bands=2)  # burning: lost
    assert score(m, 0)["objectives"] == 0
    put(m, target, cones=0, bands=0, houses={})  # burnt out: lost
    assert score(m, 0)["objectives"] == 0


def test_r17_put_out_tokens_and_hero() -> None:
    m = blank()
    m.put_out[0] = 4
    m.tokens[0] = ["victoryPoint", "victoryPoint", "demolition", "doubleMove"]
    m.hero = 0
    row = score(m, 0)
    assert (row["putOut"], row["tokens"], row["hero"]) == (4, 2, 2)
    assert row["total"] == row["houses"] + row["objectives"] + 4 + 2 + 2


def _tie(m: GreatFireMatch) -> None:
    """Seats 0 and 1 on the same total, all others far behind."""
    for seat in range(2, m.seats):
        remove_houses(m, m.colours[seat][0], 20)
    for seat in range(m.seats):
        m.objectives[seat] = []


def test_r17_tie_broken_by_put_out_cones() -> None:
    m = blank()
    _tie(m)
    remove_houses(m, m.colours[0][0], 1)  # -2 VP
    m.put_out[0] = 2                       # +2 VP
    assert score(m, 0)["total"] == score(m, 1)["total"]
    assert result(m)["winners"] == [0]


def test_r17_tie_then_broken_by_houses_on_the_map() -> None:
    m = blank()
    _tie(m)
    remove_houses(m, m.colours[0][0], 1)
    m.tokens[0] = ["victoryPoint", "victoryPoint"]
    assert score(m, 0)["total"] == score(m, 1)["total"]
    assert result(m)["winners"] == [1]


def test_r17_tie_then_broken_by_objective_vp_then_shared() -> None:
    m = blank()
    _tie(m)
    goal = next(d for d in m.geo.board.districts if d.objective and d.objective.vp == 2)
    m.objectives[0] = [goal.id]
    m.hero = 1  # seat 1: +2 hero, seat 0: +2 objective; same put-out cones and houses
    assert score(m, 0)["total"] == score(m, 1)["total"]
    assert result(m)["winners"] == [0]
    m.objectives[0] = []
    m.hero = None
    assert result(m)["winners"] == [0, 1]


def test_r17_houses_count_only_the_seats_own_colour() -> None:
    m = blank()
    m.houses = [[0] * 6 for _ in m.houses]
    put(m, "aldgate", houses={own(m, 0): 3, own(m, 1): 1})
    assert (score(m, 0)["housesLeft"], score(m, 0)["houses"]) == (3, 6)
    assert (score(m, 1)["housesLeft"], score(m, 1)["houses"]) == (1, 2)
    assert score(m, 2)["housesLeft"] == 0
