"""bench/outlook_fit.py on London (bench/london_fit.py): it recovers weights that made the margins, and its rows are
the games it plays."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from bench import outlook_fit
from bench.bots import Game
from bench.outlook_fit import Played, Position
from firebreak.domain.greatfire.bots.outlook import Coefficients as GreatFireCoefficients
from firebreak.domain.greatfire.bots.outlook import Features as GreatFireFeatures
from firebreak.domain.london.bots.outlook import COEFFICIENTS, NAMES, Coefficients, Features, weighted


def _synthetic(games: int, seed: int) -> list[Played]:
    """Two-seat games whose final totals differ by exactly the shipped outlook's margin at every position."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        positions = []
        for _ in range(12):
            seats = [Features(**{f.name: rng.uniform(-5, 5) for f in fields(Features)}) for _ in range(2)]
            positions.append(Position(seats, [0.0, 0.0]))
        out.append(Played(g, positions, [0, 0]))
    return out


def test_the_fit_recovers_the_weights_that_made_the_margins() -> None:
    games = _synthetic(40, 3)
    # one position a game: its final margin is the shipped outlook's estimate there
    for g in games:
        p = g.positions[:1]
        g.positions = p
        a, b = p[0].features
        m = weighted(a) - weighted(b)
        g.totals = [round(m * 1000), 0]  # integer totals as the game has; scaled so rounding is negligible
    result = outlook_fit.fit(games, "london")
    for name in NAMES:
        assert getattr(result.coefficients, name) == pytest.approx(1000 * getattr(COEFFICIENTS, name), abs=2.0)
    assert result.fitted_r2 > 0.999


def test_rows_are_both_orders_of_every_pair() -> None:
    games = _synthetic(3, 4)
    for g in games:
        g.totals = [7, 2]
    x, y, _, gid = outlook_fit.rows(games, NAMES)
    assert x.shape == (3 * 12 * 2, len(NAMES))
    assert sorted(set(y)) == [-5.0, 5.0]
    assert list(gid[:2]) == [0, 0]
    assert list(x[0]) == pytest.approx(list(-x[1]))


def test_played_games_fit_better_than_the_rules_of_thumb() -> None:
    """A small real run: seeded greedy games, sampled positions, and a fit whose held-out figures beat rating.py's
    (the claim outlook.py's docstring makes for 2,000 games, shown here on 40)."""
    games = [Game(2, 301000 + g, ("greedy", "greedy"), None, 20, "london") for g in range(40)]
    played = outlook_fit.play_all(games, 0.3, procs=1)
    assert [p.index for p in played] == list(range(40))
    assert all(p.positions for p in played)
    assert all(len(pos.features) == 2 for p in played for pos in p.positions)
    result = outlook_fit.fit(played, "london")
    assert isinstance(result.coefficients, Coefficients)
    assert result.fitted_r2 > result.rating_r2
    assert result.coefficients.prestige > 0


def test_great_fire_games_are_sampled_at_every_seat_count() -> None:
    """Great Fire's games: 4 seats, and 2 seats, whose non-player turns the bench runs as the service does; each
    position holds every seat's features and the hand-weighted standings the fit compares with."""
    games = [Game(4, 321000, ("greedy",) * 4, None, 20, "greatfire"),
             Game(2, 321001, ("greedy",) * 2, None, 20, "greatfire")]
    played = outlook_fit.play_all(games, 0.2, procs=1)
    for game, p in zip(games, played, strict=True):
        assert p.positions and len(p.totals) == game.seats
        assert all(len(pos.features) == len(pos.ratings) == game.seats for pos in p.positions)
        assert all(isinstance(f, GreatFireFeatures) for pos in p.positions for f in pos.features)
    # five copies of each: both games are in the fit (indices 1-4, 6-9) and in the check (0: 4 seats, 5: 2 seats)
    copies = [Played(i, p.positions, p.totals) for i, p in enumerate(played * 5)]
    result = outlook_fit.fit(copies, "greatfire")
    assert isinstance(result.coefficients, GreatFireCoefficients)
    assert result.fitted_r2 > 0
    assert result.rows == 5 * sum(len(pos.features) * (len(pos.features) - 1) for p in played for pos in p.positions)
