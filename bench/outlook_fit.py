"""Fit the weights of a title's outlook (domain/<title>/bots/outlook.py) to the final margins of seeded games.

Plays --games seeded games (game g: seed --seed + g, the lineup rotated by g seats, as bench/bots.py does) and,
before a sampled share of the decisions (--sample, drawn from a seeded stream), records every seat's outlook
features. Each ordered pair of seats at a sampled position is one row: the difference of their features against
the difference of their final totals. A least-squares fit on four games in five (game index not a multiple of 5)
is checked on the fifth: the share of the final margin's variance it explains (R², after a linear rescaling) and
how often its sign is the final margin's, beside the same for the title's hand-weighted standing (what the search
scored its playouts by before: London's rating.py, Great Fire's lookahead.standings). Prints both, the spread of
the held-out residual (London's outlook scales its lead by it: SPREAD) and the Coefficients to paste into
outlook.py.

Run: python -m bench.outlook_fit --title london|greatfire [--seats N] [--games G] [--seed S] [--sample 0.25]
     [--procs 2]
(bench/london_fit.py and bench/greatfire_fit.py run it with their title's defaults.)
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from bench.bots import Game, _bots, _decide
from firebreak.domain import titles
from firebreak.domain.greatfire.bots import lookahead
from firebreak.domain.greatfire.bots import outlook as greatfire_outlook
from firebreak.domain.london.bots import outlook as london_outlook
from firebreak.domain.london.bots.rating import rate


@dataclass(frozen=True)
class Subject:
    """What the fit reads of a title: every seat's features, the hand-weighted standings it is compared with,
    the feature names and the Coefficients class they are pasted as, and the defaults of its run."""

    features: Callable[[Any], Sequence[Any]]
    standings: Callable[[Any], list[float]]
    names: tuple[str, ...]
    coefficients: type
    seats: int
    seed: int


def _london_standings(match: Any) -> list[float]:
    return [rate(match, seat) for seat in range(match.seats)]


SUBJECTS = {
    "london": Subject(london_outlook.features, _london_standings, london_outlook.NAMES, london_outlook.Coefficients,
                      seats=2, seed=300000),
    "greatfire": Subject(greatfire_outlook.features, lookahead.standings, greatfire_outlook.NAMES,
                         greatfire_outlook.Coefficients, seats=4, seed=320000),
}


@dataclass
class Position:
    """Every seat's features and hand-weighted standing at one sampled decision."""

    features: list[Any]
    ratings: list[float]


@dataclass
class Played:
    """One game's sampled positions and final totals."""

    index: int
    positions: list[Position]
    totals: list[int]


def play_one(args: tuple[int, Game, float]) -> Played:
    """Play the game, sampling positions before a share of its decisions."""
    index, game, share = args
    subject = SUBJECTS[game.title]
    bots = _bots(game.budget, game.iterations, game.title)
    match = titles.get(game.title).new_match(seats=game.seats, seed=game.seed)
    sampler = random.Random(game.seed * 7 + 1)
    times: list[list[float]] = [[] for _ in range(game.seats)]
    choice_times: list[list[float]] = [[] for _ in range(game.seats)]
    positions = []
    while not match.is_over():
        if match.system_due():  # Great Fire's 2-player non-player turn
            match.run_system_step()
            continue
        if sampler.random() < share:
            positions.append(Position(list(subject.features(match)), subject.standings(match)))
        seat, action = _decide(game, bots, match, times, choice_times)
        match.apply(seat, action)
    result = match.result()
    assert result is not None
    return Played(index, positions, [s.total for s in sorted(result.scores, key=lambda s: s.seat)])


def rows(games: list[Played], names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The design matrix, the final margins, the hand-weighted standings' differences and each row's game index."""
    x, y, base, gid = [], [], [], []
    for g in games:
        for p in g.positions:
            for a in range(len(p.features)):
                for b in range(len(p.features)):
                    if a == b:
                        continue
                    fa, fb = p.features[a], p.features[b]
                    x.append([getattr(fa, n) - getattr(fb, n) for n in names])
                    y.append(g.totals[a] - g.totals[b])
                    base.append(p.ratings[a] - p.ratings[b])
                    gid.append(g.index)
    return np.array(x, dtype=float), np.array(y, dtype=float), np.array(base), np.array(gid)


def explained(estimate: np.ndarray, actual: np.ndarray) -> float:
    """R² of the actual values on a linear rescaling of the estimate (0 for an estimate that never varies)."""
    if np.ptp(estimate) == 0:
        return 0.0
    slope, intercept = np.polyfit(estimate, actual, 1)
    return float(1 - (actual - (slope * estimate + intercept)).var() / actual.var())


def same_sign(estimate: np.ndarray, actual: np.ndarray) -> float:
    """The share of rows with a nonzero margin whose estimate has its sign."""
    decided = actual != 0
    return float(np.mean(np.sign(estimate[decided]) == np.sign(actual[decided])))


@dataclass(frozen=True)
class Fit:
    coefficients: Any
    spread: float
    rows: int
    rating_r2: float
    rating_sign: float
    fitted_r2: float
    fitted_sign: float


def fit(games: list[Played], title: str) -> Fit:
    """Least squares on the games whose index is not a multiple of 5; figures on those that are."""
    subject = SUBJECTS[title]
    x, y, base, gid = rows(games, subject.names)
    held = gid % 5 == 0
    weights, *_ = np.linalg.lstsq(x[~held], y[~held], rcond=None)
    estimate = x[held] @ weights
    coefficients = subject.coefficients(**{n: round(float(w), 3) for n, w in zip(subject.names, weights, strict=True)})
    return Fit(coefficients, float((y[held] - estimate).std()), len(y), explained(base[held], y[held]),
               same_sign(base[held], y[held]), explained(estimate, y[held]), same_sign(estimate, y[held]))


def play_all(games: list[Game], share: float, procs: int) -> list[Played]:
    jobs = [(g, game, share) for g, game in enumerate(games)]
    if procs <= 1:
        return [play_one(job) for job in jobs]
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        return list(pool.imap(play_one, jobs, chunksize=4))


def main(argv: list[str] | None = None, title: str | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    if title is None:
        parser.add_argument("--title", choices=sorted(SUBJECTS), required=True)
    parser.add_argument("--seats", type=int, default=None, help="default: London 2, Great Fire 4")
    parser.add_argument("--lineup", default="", help="one level per seat (default: greedy in every seat)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=None, help="default: London 300000, Great Fire 320000")
    parser.add_argument("--sample", type=float, default=0.25, help="the share of decisions sampled")
    parser.add_argument("--procs", type=int, default=2)
    args = parser.parse_args(argv)
    title = title or args.title
    subject = SUBJECTS[title]
    seats = args.seats or subject.seats
    seed = subject.seed if args.seed is None else args.seed
    lineup = tuple(args.lineup.split(",")) if args.lineup else ("greedy",) * seats
    if len(lineup) != seats:
        parser.error("--lineup needs one level per seat")
    games = [Game(seats, seed + g, lineup[g % seats:] + lineup[:g % seats], None, 20, title)
             for g in range(args.games)]
    result = fit(play_all(games, args.sample, args.procs), title)
    print(f"{result.rows} rows (ordered seat pairs at sampled positions) from {args.games} games")
    print(f"held-out games: the hand-weighted difference R² {result.rating_r2:.3f}, "
          f"same sign {result.rating_sign:.3f}")
    print(f"                the fitted sum               R² {result.fitted_r2:.3f}, "
          f"same sign {result.fitted_sign:.3f}, spread {result.spread:.2f}")
    k = result.coefficients
    print(f"{seats}: Coefficients(" + ", ".join(f"{f.name}={getattr(k, f.name)}" for f in fields(k)) + ")")
    print(f"command  python -m bench.{title}_fit " + " ".join(argv if argv is not None else sys.argv[1:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
