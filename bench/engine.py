"""Engine speed: complete random games per second and mean microseconds per decision, by title and player count.

A decision is a seat's action or an automated step (a Great Fire non-player turn).

Run: python -m bench.engine [--seconds 5] [--title greatfire]
"""

from __future__ import annotations

import argparse
import random
import time

from firebreak.domain import titles
from firebreak.domain.bots import random_bot


def run(title_id: str, seats: int, seconds: float) -> tuple[int, int, float]:
    """Play random games for about `seconds`; return games, decisions and elapsed time."""
    title = titles.get(title_id)
    games = decisions = 0
    started = time.perf_counter()
    seed = 0
    while time.perf_counter() - started < seconds:
        match = title.new_match(seats=seats, seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            if match.system_due():
                match.run_system_step()
                decisions += 1
                continue
            seat = match.to_act()[0]
            match.apply(seat, random_bot(match, seat, rng))
            decisions += 1
        games += 1
        seed += 1
    return games, decisions, time.perf_counter() - started


def main() -> None:
    """Print the figures for every player count of every title (or of the one asked for)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per player count")
    parser.add_argument("--title", choices=[t.id for t in titles.all_titles()], help="one title (default: all)")
    args = parser.parse_args()
    chosen = [titles.get(args.title)] if args.title else titles.all_titles()
    print("title       players  games  games/s  decisions/game  us/decision")
    for title in chosen:
        for seats in range(title.min_seats, title.max_seats + 1):
            games, decisions, elapsed = run(title.id, seats, args.seconds)
            print(f"{title.id:<11} {seats:>7} {games:>6} {games / elapsed:>8.1f} {decisions / games:>15.1f} "
                  f"{elapsed / decisions * 1e6:>12.1f}")


if __name__ == "__main__":
    main()
