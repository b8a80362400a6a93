"""The ladder script (bench/bots.py): its statistics and a tiny seeded tournament, so the script keeps working."""

from __future__ import annotations

import pytest

from bench import bots


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = bots.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = bots.wilson(91, 100)
    assert low == pytest.approx(0.8377, abs=1e-4) and high == pytest.approx(0.9519, abs=1e-4)
    assert bots.wilson(0, 0) == (0.0, 1.0)
    assert bots.wilson(10, 10)[1] == 1.0


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert bots.percentile(values, 50) == 50.0
    assert bots.percentile(values, 99) == 99.0
    assert bots.percentile([3.0], 90) == 3.0


def test_a_tiny_tournament_rotates_seats_and_reports_every_level() -> None:
    lineup = ("search", "greedy", "random")
    outcomes = bots.tournament(3, lineup, games=3, seed=7, budget=None, iterations=2, procs=1)
    assert [o.lineup for o in outcomes] == [lineup, lineup[1:] + lineup[:1], lineup[2:] + lineup[:2]]
    for o in outcomes:
        assert len(o.totals) == 3 and o.winners and set(o.winners) <= {0, 1, 2}
        assert all(o.times[seat] for seat in range(3))
    table = bots.report(outcomes, 3)
    assert table.splitlines()[0] == "fair share 33%"
    rows = {line.split()[0]: line.split() for line in table.splitlines()[2:]}
    assert set(rows) == set(lineup)
    assert all(row[1] == "3" for row in rows.values())  # each level played three seat-games
    assert sum(float(row[2]) for row in rows.values()) == pytest.approx(3.0)  # one win shared out per game


def test_the_same_seeds_give_the_same_games() -> None:
    """With an iteration budget the ladder is reproducible."""
    first = bots.tournament(2, ("search", "greedy"), games=1, seed=3, budget=None, iterations=2, procs=1)
    again = bots.tournament(2, ("search", "greedy"), games=1, seed=3, budget=None, iterations=2, procs=1)
    assert [(o.totals, o.winners) for o in first] == [(o.totals, o.winners) for o in again]


def test_a_bad_lineup_is_refused() -> None:
    with pytest.raises(SystemExit, match="names 2 levels for 3 seats"):
        bots.tournament(3, ("search", "greedy"), games=1, seed=1, budget=None, iterations=2, procs=1)
    with pytest.raises(SystemExit, match="unknown level"):
        bots.tournament(2, ("search", "genius"), games=1, seed=1, budget=None, iterations=2, procs=1)
