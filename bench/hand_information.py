"""How much of the rivals' hands a Great Fire seat can read from their play (issue 26: "close the information gap").

Seeded 4-seat games of `greedy` bots; seat 0 follows every view it receives with both beliefs (the last fire
move of each rival, bots/belief.py, and every fire move, bots/hands.py). At each of seat 0's fire decisions after
the opening it scores, for each rival, what each way of guessing knows of the true hand:

- nats: log(P(true composition) / P(dealt)), where P(dealt) is the chance of the composition dealt at random from
  the cards seat 0 has not seen (what a uniform guess gives it); the prior's own -log P(dealt) is what knowing the
  hand would add, the ceiling;
- cards right: the expected overlap of a guessed hand with the true one (of five cards), over --samples worlds
  drawn as the search draws them (uniform: hidden.py; last move: belief.BeliefWorlds; every move:
  hands.HandWorlds).

"true objectives" is bench-only: the every-move belief with each rival's choice rated with its real objectives,
which no seat can know; the most a model of greedy's choices could read.

    python -m bench.hand_information [--games 6] [--seed 90000] [--samples 20]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from typing import Any

from firebreak.domain import titles
from firebreak.domain.greatfire.bots.belief import Belief, BeliefWorlds, best_ratings, rival_moves
from firebreak.domain.greatfire.bots.greedy import greedy
from firebreak.domain.greatfire.bots.hands import HandBelief, HandWorlds, Rate, composition, dealt, unseen
from firebreak.domain.greatfire.bots.search import Worlds
from firebreak.domain.greatfire.match import Determinizer, GreatFireMatch
from firebreak.domain.rng import Rng

RIVALS = (1, 2, 3)


def knowing_objectives(match: GreatFireMatch) -> Rate:
    """Rate a rival's cards with its real objectives (bench-only: the truth no seat sees)."""
    def rate(view: dict[str, Any], viewer: int, rival: int) -> dict[str, float]:
        return best_ratings(rival_moves(view, viewer, rival), match.objectives[rival])
    return rate


def overlap(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Cards two compositions share."""
    return sum(min(x, y) for x, y in zip(a, b, strict=True))


def measure(games: int, seed: int, samples: int) -> dict[str, list[float]]:
    """Per rival position: the nats of each composition belief and the cards right of each way of guessing."""
    title = titles.get("greatfire")
    out: dict[str, list[float]] = {k: [] for k in (
        "ceiling nats", "every move nats", "true objectives nats",
        "uniform cards", "last move cards", "every move cards")}
    for game in range(seed, seed + games):
        m = title.new_match(seats=4, seed=game)
        assert isinstance(m, GreatFireMatch)
        last, every, cheat = Belief(0), HandBelief(0), HandBelief(0, knowing_objectives(m))
        while not m.is_over():
            view = m.view(0)
            for belief in (last, every, cheat):
                belief.observe(view)
            if m.system_due():
                m.run_system_step()
                continue
            (seat,) = m.to_act()
            if seat == 0 and m.phase.value == "fire" and m.card is None and m.version > 40:
                pool = unseen(view)
                guessers: dict[str, Worlds] = {
                    "uniform": Determinizer(view, 0), "last move": BeliefWorlds(view, 0, last),
                    "every move": HandWorlds(view, 0, every)}
                drawn = {name: [w.sample(Rng(1000 * k + m.version)) for k in range(samples)]
                         for name, w in guessers.items()}
                for r in RIVALS:
                    true = composition(m.hands[r])
                    prior = dealt(len(m.hands[r]), pool)[true]
                    out["ceiling nats"].append(-math.log(prior))
                    out["every move nats"].append(math.log(every.hand(r).get(true, 1e-12) / prior))
                    out["true objectives nats"].append(math.log(cheat.hand(r).get(true, 1e-12) / prior))
                    for name, worlds in drawn.items():
                        right = [overlap(composition(w.hands[r]), true) for w in worlds]
                        out[f"{name} cards"].append(statistics.fmean(right))
            m.apply(seat, greedy(m, seat, random.Random(m.version)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=90000)
    parser.add_argument("--samples", type=int, default=20, help="worlds drawn per position for cards right")
    args = parser.parse_args()
    out = measure(args.games, args.seed, args.samples)
    n = len(out["ceiling nats"])
    print(f"{args.games} games of 4 greedy bots (seeds {args.seed}..{args.seed + args.games - 1}), "
          f"{n} rival hands at seat 0's fire decisions")
    print("| measure | mean | 95% interval of the mean |")
    print("|---|---|---|")
    for name, values in out.items():
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        print(f"| {name} | {mean:.3f} | [{mean - half:.3f}, {mean + half:.3f}] |")
    for name in ("last move", "every move"):
        gains = [a - b for a, b in zip(out[f"{name} cards"], out["uniform cards"], strict=True)]
        mean, half = statistics.fmean(gains), 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
        print(f"| {name} cards less uniform's, paired | {mean:+.3f} | [{mean - half:+.3f}, {mean + half:+.3f}] |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
