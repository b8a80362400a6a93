"""What writing the whole state costs an act (matches/pipeline.py's saved()), warm and as an act finds its match
when many are live: the most that writing only the changed parts could save.

Plays --matches seeded 4-seat matches of each title with the engine alone (random legal actions, the service's own
steps run when due) to --version, then times saved() in interleaved rounds three ways: one match written again and
again (everything in the caches), the matches written in turn (as a process whose acts go to --matches matches in
turn), and each write after the bench has touched --evict-mb MiB of other memory (the match pushed out of the
core's private caches, as the seventh look of docs/benchmarks.md found the acts of 40 live matches do). Prints per
title the state's size and each way's median time a write with its range over the rounds.

Run: python -m bench.state_writes [--matches 40] [--version 120] [--rounds 7] [--writes 400] [--evict-mb 8]
         [--titles greatfire,london]
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Callable

from firebreak.domain import titles
from firebreak.domain.contract import Match
from firebreak.domain.search import playout
from firebreak.matches.pipeline import saved

SEATS = 4
LINE = 64  # bytes of a cache line: touching one byte of each brings the whole line in


def played(title: str, matches: int, version: int, seed: int) -> list[Match]:
    """Seeded matches played with random legal actions to the version (or their end): the search's playout, one
    step a version."""
    made = []
    for n in range(matches):
        match = titles.get(title).new_match(SEATS, seed + n)
        playout(match, 0, random.Random(seed + n), max_steps=version)
        made.append(match)
    return made


def per_write(matches: list[Match], writes: int, before: Callable[[], None] | None = None) -> float:
    """Mean µs of saved() over the writes, the matches in turn; before() runs ahead of each write, untimed."""
    spent = 0
    for n in range(writes):
        if before is not None:
            before()
        started = time.perf_counter_ns()
        saved(matches[n % len(matches)])
        spent += time.perf_counter_ns() - started
    return spent / writes / 1000


def evictor(mebibytes: int) -> Callable[[], None]:
    """A function that touches one byte of each cache line of that much memory of its own."""
    other = bytearray(mebibytes << 20)
    lines = len(other[::LINE])
    marks = itertools.cycle([b"\x01" * lines, b"\x00" * lines])  # a new value each time: every line written

    def touch() -> None:
        other[::LINE] = next(marks)

    return touch


def measure(title: str, args: argparse.Namespace) -> dict[str, list[float]]:
    """Each way's µs a write, one figure a round."""
    matches = played(title, args.matches, args.version, args.seed)
    touch = evictor(args.evict_mb)
    ways: dict[str, Callable[[], float]] = {
        "one match, warm": lambda: per_write(matches[:1], args.writes),
        f"{len(matches)} matches in turn": lambda: per_write(matches, args.writes),
        f"after touching {args.evict_mb} MiB": lambda: per_write(matches, max(1, args.writes // 4), touch),
    }
    figures: dict[str, list[float]] = {way: [] for way in ways}
    for _ in range(args.rounds):
        for way, timed in ways.items():
            figures[way].append(timed())
    size = statistics.mean(len(saved(match)) for match in matches)
    print(f"{title}: {len(matches)} matches at version {statistics.mean(m.version for m in matches):.0f}, "
          f"the state {size:,.0f} bytes of JSON")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--version", type=int, default=120, help="the version each match is played to")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--writes", type=int, default=400, help="writes a round and way (a quarter when evicting)")
    parser.add_argument("--evict-mb", type=int, default=8, help="MiB touched before each write of the third way")
    parser.add_argument("--titles", default="greatfire,london")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.matches < 1 or args.rounds < 1 or args.writes < 1 or args.evict_mb < 1:
        parser.error("--matches, --rounds, --writes and --evict-mb: at least 1")
    for title in args.titles.split(","):
        for way, values in measure(title, args).items():
            print(f"  {way:<26} {statistics.median(values):6.1f} µs a write (median of {len(values)} rounds, "
                  f"{min(values):.1f}-{max(values):.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
