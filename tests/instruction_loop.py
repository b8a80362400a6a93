"""Run by tests/test_bench_instructions.py under callgrind: counts a loop, the same loop twice as long, and a block
counted inside another (nested counting counts once)."""

from __future__ import annotations

import sys

from bench import instructions


def spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def main() -> None:
    n = int(sys.argv[1])
    counter = instructions.Counter()
    spin(n)  # warm: the first call's work is not the loop's
    with counter.counting():
        spin(n)
    counter.dump("once")
    spin(n)  # not counted
    with counter.counting():
        spin(2 * n)
    counter.dump("twice")
    with counter.counting():
        spin(n)
        with counter.counting():
            spin(n)
    counter.dump("nested")


if __name__ == "__main__":
    main()
