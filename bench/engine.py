"""Engine speed: complete random games per second and mean microseconds per decision, by player count.

A decision is a seat's action or, with 2 players, one automated step of a non-player turn.

Run: python -m bench.engine [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

from domain import titles
from domain.bots import random_bot


def run(seats: int, seconds: float) -> tuple[int, int, float]:
    """Play random games for about `seconds`; return games, decisions and elapsed time."""
    title = titles.get("greatfire")
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
    """Print the figures for 3, 4, 5 and 6 players."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per player count")
    args = parser.parse_args()
    print("players  games  games/s  decisions/game  us/decision")
    for seats in (2, 3, 4, 5, 6):
        games, decisions, elapsed = run(seats, args.seconds)
        print(f"{seats:>7} {games:>6} {games / elapsed:>8.1f} {decisions / games:>15.1f} "
              f"{elapsed / decisions * 1e6:>12.1f}")


if __name__ == "__main__":
    main()
