"""The bot ladder as ratings: rated bot-vs-bot matches of every bot level of every title, each match applied through
the ratings' own code (ratings.ledger on a scratch archive database, places by ratings.model as the service ranks
them), then each title's table of displayed ratings.

    .venv/bin/python -m bench.ratings_ladder --games 30 --iterations 30 --workers 2

Every match seats each of the title's levels once (a title whose seat range does not fit them all rotates them), in
a rotating seat order, seeded by its number: the run is reproducible. The search level thinks `--iterations`
iterations per decision (no time limit), so the table does not depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from firebreak.archive.database import Database
from firebreak.domain import titles
from firebreak.domain.bots import bound, levels
from firebreak.domain.contract import Budget
from firebreak.ratings import board, ledger, model


@dataclass(frozen=True)
class Game:
    """One match to play: the title, its seed and the level of each seat."""

    title: str
    seed: int
    lineup: tuple[str, ...]
    iterations: int


@dataclass(frozen=True)
class Played:
    """A match played out: its game and every seat's place."""

    game: Game
    places: dict[int, int]


def lineups(title_id: str, count: int) -> list[tuple[str, ...]]:
    """The seat orders of `count` matches of a title: every level once per match where the seat range allows."""
    title = titles.get(title_id)
    names = list(levels(title))
    seats = max(title.min_seats, min(len(names), title.max_seats))
    out = []
    for n in range(count):
        turned = names[n % len(names):] + names[:n % len(names)]
        out.append(tuple((turned * seats)[:seats]))
    return out


def play(game: Game) -> Played:
    """Play one match to its end with its lineup; return each seat's place."""
    title = titles.get(game.title)
    budget = Budget(seconds=None, iterations=game.iterations)
    bots = {name: bound(title, name, budget) for name in set(game.lineup)}
    match = title.new_match(seats=len(game.lineup), seed=game.seed)
    while not match.is_over():
        if match.system_due():
            match.run_system_step()
            continue
        seat = match.to_act()[0]
        match.apply(seat, bots[game.lineup[seat]](match, seat, random.Random(f"{game.seed}:{match.version}")))
    result = match.result()
    assert result is not None
    totals = {score.seat: score.total for score in result.scores}
    return Played(game, model.places([model.Standing(seat, totals.get(seat), seat in result.winners)
                                      for seat in range(len(game.lineup))]))


def table(db: Database, title_id: str) -> str:
    """The title's ladder as a Markdown table."""
    with db.read() as conn:
        page = board.leaderboard(conn, title_id, 100, None)
    rows = ["| rank | bot level | rating | mu | sigma | rated matches |", "|---:|---|---:|---:|---:|---:|"]
    for entry in page.items:
        rating = entry.rating
        rows.append(f"| {rating.rank} | {rating.bot_level} | {rating.display} | {rating.skill.mu:.2f} | "
                    f"{rating.skill.sigma:.2f} | {rating.games} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Play the ladder's matches and print every title's table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="rated matches per title")
    parser.add_argument("--iterations", type=int, default=30, help="the search level's iterations per decision")
    parser.add_argument("--workers", type=int, default=2, help="processes playing matches")
    parser.add_argument("--seed", type=int, default=1, help="the first match's seed")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{Path(folder) / 'ladder.sqlite3'}")
        db.create()
        for title in titles.all_titles():
            games = [Game(title.id, args.seed + n, lineup, args.iterations)
                     for n, lineup in enumerate(lineups(title.id, args.games))]
            with ProcessPoolExecutor(args.workers) as pool:
                played = list(pool.map(play, games))
            for n, done in enumerate(played):  # in match order: the ratings do not depend on which process was first
                keys = {seat: model.bot_key(level) for seat, level in enumerate(done.game.lineup)}
                ledger.apply(db, ledger.RatedMatch(f"{title.id}-{n}", title.id, keys, done.places, at=float(n)))
            seats = sorted({len(g.lineup) for g in games})
            print(f"### {title.name} ({args.games} rated matches of {'/'.join(map(str, seats))} seats, search "
                  f"{args.iterations} iterations a decision)\n")
            print(table(db, title.id) + "\n")
        db.close()
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
