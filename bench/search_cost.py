"""CPU per Great Fire search decision at a fixed number of rollouts, and a digest of the decisions.

Positions come from seeded 4-seat games of `greedy` bots (every --every-th decision with a choice); each is
searched from the deciding seat's view at --iterations rollouts with a seeded rng, so two trees whose search
decides alike print the same digest, and their CPU per decision compares the cost of the same work. Run it from
each tree in turn (the baseline in the same session, interleaved rounds) to measure a change to the hot path:

    python -m bench.search_cost [--games 3] [--every 9] [--iterations 14] [--rounds 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

from firebreak.domain import titles
from firebreak.domain.bots import bound
from firebreak.domain.contract import Budget
from firebreak.domain.greatfire.bots.search import search_from_view


def positions(games: int, every: int, seed: int = 880) -> Iterator[tuple[dict[str, Any], int]]:
    """(view, seat) at every every-th decision with a choice of seeded 4-seat greedy games."""
    title = titles.get("greatfire")
    greedy = bound(title, "greedy")
    for game in range(seed, seed + games):
        m = title.new_match(seats=4, seed=game)
        rng = random.Random(game)
        k = 0
        while not m.is_over():
            if m.system_due():
                m.run_system_step()
                continue
            (seat,) = m.to_act()
            view = m.view(seat)
            if len(m.legal_actions(seat)) > 1 and view["phase"] in ("fire", "actions"):
                k += 1
                if k % every == 0:
                    yield view, seat
            m.apply(seat, greedy(m, seat, rng))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=9)
    parser.add_argument("--iterations", type=int, default=14)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    cases = list(positions(args.games, args.every))
    budget = Budget(seconds=None, iterations=args.iterations)
    for round_ in range(args.rounds):
        spent: dict[str, list[float]] = {"fire": [], "actions": []}
        digest = hashlib.sha256()
        for view, seat in cases:
            started = time.process_time()
            action = search_from_view(view, seat, random.Random(seat), budget)
            spent[view["phase"]].append(time.process_time() - started)
            digest.update(json.dumps(action, sort_keys=True).encode())
        ms = {kind: 1000 * statistics.mean(times) for kind, times in spent.items()}
        every = 1000 * statistics.mean(spent["fire"] + spent["actions"])
        print(f"round {round_ + 1}: {len(cases)} decisions, {every:.1f} ms a decision (fire {ms['fire']:.1f}, "
              f"actions {ms['actions']:.1f}), decisions {digest.hexdigest()[:16]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
