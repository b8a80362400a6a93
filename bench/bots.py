"""Bot ladder: seeded tournaments between bot levels, with win rates, score margins and decision times.

Each game g uses seed (--seed + g) and the lineup rotated by g places, so every level sits in every seat
equally often. Per level it prints: seat-games played, wins (a shared win counts 1/k), the win rate with a
95% Wilson interval (a fair share is 1/seats), the mean margin (own total minus the best other total), the
decision time percentiles (all decisions, and those with more than one legal action), and how it played:
per seat-game, cones put out, Hero of London awards taken, demolitions, double-move tokens played and own
houses left at the end. A last line gives the same per game over all seats, with the share of games that
emptied the cone supply. --title london plays London instead (no oracle levels there; its bench-only level is
`deliberate`, a good player's plan without look-ahead: domain/london/bots/deliberate.py), and its play figures
per seat-game are: final prestige, the prestige of the seat-games it won (wonAt, over those only), city runs,
loans taken, loans repaid, loans unpaid at the end (-7 each), the share of seat-games ending with an unpaid loan,
poverty at the end (before the end-game comparison, hand included) and boroughs bought; its last line adds the
mean winner prestige per game (the top total).

Run: python -m bench.bots --seats 4 --games 40 --lineup search,greedy,greedy,greedy [--budget 0.4]
     python -m bench.bots --preset ladder --games 40
     python -m bench.bots ... --budget 0 --iterations 250 --log run.jsonl   (load-independent; then:)
     python -m bench.bots --report run.jsonl
     python -m bench.bots --report new.jsonl --versus old.jsonl   (two logs game by game, on the seeds both hold)
     python -m bench.bots --lineup oracle,greedy,greedy,greedy ...   (the search on the true state: bench/oracle.py,
                                                                      also knows-cards, knows-objectives, knows-tokens)
     python -m bench.bots --title london --seats 2 --lineup search,greedy --budget 0 --iterations 200
     python -m bench.bots --title london --seats 4 --lineup deliberate,greedy,greedy,greedy --procs 1
     python -m bench.bots --lineup reader,greedy,greedy,greedy --budget 0 --iterations 14   (the search that reads
                                                      the rivals' fire moves: fed every view of its seat by the loop)
     python -m bench.bots --lineup hand-weighted,greedy,greedy,greedy   (the search before the fitted outlook: its
                                                      rollouts play to the end of its next turn, lookahead.evaluate)
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench import horizons, oracle
from firebreak.domain import titles
from firebreak.domain.bots import Bot, bound, levels
from firebreak.domain.contract import Action, Budget, Match
from firebreak.domain.greatfire.bots.reader import ReadingBot
from firebreak.domain.greatfire.bots.search import DEFAULT_SECONDS, HAND_WEIGHTED, search_bot_with
from firebreak.domain.london.bots import deliberate
from firebreak.domain.london.state import UNPAID_LOAN_PRESTIGE

# (seats, lineup, share of --games): the 4-player runs are the targets, the others a smaller check.
PRESETS: dict[str, list[tuple[int, tuple[str, ...], float]]] = {
    "ladder": [
        (4, ("search", "greedy", "greedy", "greedy"), 1.0),
        (4, ("search", "random", "random", "random"), 1.0),
        (2, ("search", "greedy"), 0.5),
        (3, ("search", "greedy", "greedy"), 0.5),
        (6, ("search", "greedy", "greedy", "greedy", "greedy", "greedy"), 0.25),
        (4, ("greedy", "random", "random", "random"), 0.5),
    ],
    "targets": [
        (4, ("search", "greedy", "greedy", "greedy"), 1.0),
        (4, ("search", "random", "random", "random"), 1.0),
    ],
}


@dataclass(frozen=True)
class Game:
    """One game to play: its seed and the level in each seat."""

    seats: int
    seed: int
    lineup: tuple[str, ...]
    budget: float | None
    iterations: int | None
    title: str = "greatfire"


@dataclass
class Outcome:
    """What one game gives each seat: total, margin, win share, and the decision times of its level."""

    lineup: tuple[str, ...]
    totals: list[int]
    winners: list[int]
    times: list[list[float]] = field(default_factory=list)   # per seat: every decision
    choice_times: list[list[float]] = field(default_factory=list)  # per seat: decisions with a choice
    plays: list[dict[str, int]] = field(default_factory=list)  # per seat: counts of the title's STATS
    supply_emptied: bool = False
    title: str = "greatfire"
    seed: int | None = None  # the game's seed (logs written before it was kept have none)


PLAY_STATS = ("putOut", "hero", "demolished", "doubleMove", "houses")  # per seat; houses: own houses left
EVENT_STATS = {"firePutOut": "putOut", "heroOfLondon": "hero", "demolished": "demolished"}
# London, per seat: final prestige, city runs, loans taken / repaid / unpaid at the end, 1 if any was unpaid, poverty
# at the end (hand included, before the comparison), boroughs bought (a run ends with its povertyGained event)
LONDON_STATS = ("prestige", "runs", "loans", "repaid", "unpaid", "inDebt", "poverty", "boroughs")
LONDON_EVENTS = {"povertyGained": "runs", "loanTaken": "loans", "loanRepaid": "repaid", "landBought": "boroughs"}
STATS = {"greatfire": PLAY_STATS, "london": LONDON_STATS}
TITLES = tuple(STATS)


def _count(plays: list[dict[str, int]], events: list[dict[str, object]], title: str = "greatfire") -> None:
    """Add one step's events to the seats' play counts."""
    for event in events:
        seat = event.get("seat")
        if not isinstance(seat, int):
            continue
        if title == "london":
            if str(event["type"]) in LONDON_EVENTS:
                plays[seat][LONDON_EVENTS[str(event["type"])]] += 1
            continue
        kind = EVENT_STATS.get(str(event["type"]))
        if kind is None and event["type"] == "tokenPlayed" and event.get("token") == "doubleMove":
            kind = "doubleMove"
        if kind is not None:
            plays[seat][kind] += 1


def _bots(budget: float | None, iterations: int | None, title_id: str = "greatfire") -> dict[str, Bot]:
    title = titles.get(title_id)
    spent = Budget(seconds=budget, iterations=iterations)
    extra = _bench_levels(spent) if title_id == "greatfire" else _london_levels(spent)
    return {**{name: bound(title, name, spent) for name in levels(title)}, **extra}


def _london_levels(budget: Budget) -> dict[str, Bot]:
    """London's bench-only level: `deliberate`, a good player's plan without look-ahead (issue 51)."""
    level = deliberate.LEVEL
    return {level.name: lambda match, seat, rng: level.choose(match, seat, rng, budget)}


def _bench_levels(budget: Budget) -> dict[str, Bot]:
    """Great Fire's bench-only levels: the cheating ones (oracle.py), the searches that stop their rollouts
    elsewhere (horizons.py), `reader`, which must be fed every view, and `hand-weighted`, the search as it was
    before the fitted outlook (search.HAND_WEIGHTED)."""
    return {**oracle.levels(budget), **horizons.levels(budget), "reader": ReadingBot(budget),
            "hand-weighted": search_bot_with(budget.seconds, budget.iterations, HAND_WEIGHTED)}


def _observe(game: Game, bots: dict[str, Bot], match: Match) -> None:
    """Feed each seat whose bot reads the table (reader.ReadingBot) the seat's view of the new version."""
    for seat, name in enumerate(game.lineup):
        bot = bots[name]
        if isinstance(bot, ReadingBot):
            bot.observe(match.view(seat), seat)


def _decide(game: Game, bots: dict[str, Bot], match: Match, times: list[list[float]],
            choice_times: list[list[float]]) -> tuple[int, Action]:
    """The seat to act and its bot's action, timed (also among decisions with more than one legal action)."""
    (seat,) = match.to_act()
    choice = len(match.legal_actions(seat)) > 1
    rng = random.Random(f"{game.seed}:{match.version}")
    started = time.perf_counter()
    action = bots[game.lineup[seat]](match, seat, rng)
    elapsed = time.perf_counter() - started
    times[seat].append(elapsed)
    if choice:
        choice_times[seat].append(elapsed)
    return seat, action


def play(game: Game) -> Outcome:
    """Play one game to its end."""
    if game.title == "london":
        return _play_london(game)
    bots = _bots(game.budget, game.iterations)
    match = titles.get("greatfire").new_match(seats=game.seats, seed=game.seed)
    times: list[list[float]] = [[] for _ in range(game.seats)]
    choice_times: list[list[float]] = [[] for _ in range(game.seats)]
    plays = [dict.fromkeys(PLAY_STATS, 0) for _ in range(game.seats)]
    emptied = False
    while not match.is_over():
        _observe(game, bots, match)
        emptied = emptied or getattr(match, "supply", 1) == 0
        if match.system_due():
            match.run_system_step()
            continue
        seat, action = _decide(game, bots, match, times, choice_times)
        _count(plays, match.apply(seat, action))
    result = match.view(None)["result"]  # the title's own breakdown (housesLeft is not a score column)
    totals = [row["total"] for row in result["scores"]]
    for seat, row in enumerate(result["scores"]):
        plays[seat]["houses"] = row["housesLeft"]
    return Outcome(game.lineup, totals, list(result["winners"]), times, choice_times, plays, emptied, seed=game.seed)


def _play_london(game: Game) -> Outcome:
    """Play one London game to its end, counting loans, poverty and boroughs."""
    bots = _bots(game.budget, game.iterations, "london")
    match = titles.get("london").new_match(seats=game.seats, seed=game.seed)
    times: list[list[float]] = [[] for _ in range(game.seats)]
    choice_times: list[list[float]] = [[] for _ in range(game.seats)]
    plays = [dict.fromkeys(LONDON_STATS, 0) for _ in range(game.seats)]
    while not match.is_over():
        seat, action = _decide(game, bots, match, times, choice_times)
        _count(plays, match.apply(seat, action), "london")
    result = match.result()
    assert result is not None
    view = match.view(None)
    for row in result.scores:
        unpaid = -row.parts["loans"] // UNPAID_LOAN_PRESTIGE
        plays[row.seat].update(prestige=row.total, unpaid=unpaid, inDebt=int(unpaid > 0),
                               poverty=_london_poverty(view, row.seat))
    return Outcome(game.lineup, [s.total for s in result.scores], list(result.winners), times, choice_times, plays,
                   title="london", seed=game.seed)


def _london_poverty(view: dict[str, Any], seat: int) -> int:
    """The seat's poverty at the end, its hand counted as the end-game's step 1 does."""
    row = view["players"][seat]
    return int(row["poverty"]) + int(row["handSize"])


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of values; nan when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def report(outcomes: Iterable[Outcome], seats: int) -> str:
    """The per-level table, then the per-game play figures over all seats (the title's own figures)."""
    outcomes = list(outcomes)
    title = outcomes[0].title if outcomes else "greatfire"
    stats = STATS[title]
    rows: dict[str, dict[str, list[float]]] = {}
    for o in outcomes:
        for seat, level in enumerate(o.lineup):
            row = rows.setdefault(level, {"wins": [], "margin": [], "times": [], "choice": [], "wonAt": [],
                                          **{k: [] for k in stats}})
            if seat in o.winners:
                row["wonAt"].append(o.totals[seat])
            best_other = max(t for k, t in enumerate(o.totals) if k != seat)
            row["wins"].append(seat_share(o, seat))
            row["margin"].append(o.totals[seat] - best_other)
            row["times"].extend(o.times[seat])
            row["choice"].extend(o.choice_times[seat])
            for k in stats:
                row[k].append(o.plays[seat][k])
    won_at = title == "london"  # London also gives the mean prestige of the level's won seat-games
    lines = [f"fair share {1 / seats:.0%}",
             "level    seat-games   wins  win rate  95% CI          margin   time p50/p90/p99 (ms)"
             "   with a choice p50/p90/p99 (ms)   " + ("wonAt   " if won_at else "")
             + "per seat-game: " + " ".join(stats)]
    for level, row in rows.items():
        n, wins = len(row["wins"]), sum(row["wins"])
        low, high = wilson(wins, n)
        t, c = row["times"], row["choice"]
        lines.append(
            f"{level:<8} {n:>10} {wins:>6.1f} {wins / n:>8.1%}  [{low:.1%}, {high:.1%}]  "
            f"{sum(row['margin']) / n:>+6.1f}   {_ms(t, 50)}/{_ms(t, 90)}/{_ms(t, 99)}"
            f"   {_ms(c, 50)}/{_ms(c, 90)}/{_ms(c, 99)}   "
            + (f"{_mean(row['wonAt']):>5.1f}   " if won_at else "")
            + " ".join(f"{sum(row[k]) / n:.2f}" for k in stats))
    games = max(1, len(outcomes))
    per_game = {k: sum(p[k] for o in outcomes for p in o.plays) / games for k in stats}
    last = "per game, all seats: " + ", ".join(f"{k} {v:.2f}" for k, v in per_game.items())
    if title == "greatfire":
        last += f", supply emptied in {sum(o.supply_emptied for o in outcomes) / games:.0%} of games"
    else:
        last += f", winner prestige {_mean([float(max(o.totals)) for o in outcomes]):.2f}"
    lines.append(last)
    return "\n".join(lines)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:.0f}"


def tournament(seats: int, lineup: tuple[str, ...], games: int, seed: int, budget: float | None,
               iterations: int | None, procs: int, log: Path | None = None, title: str = "greatfire") -> list[Outcome]:
    """Play the games (lineup rotated by the game index) on procs processes; log appends each finished game
    to a JSON-lines file (see --report), so a long run stopped early still gives its figures."""
    if len(lineup) != seats:
        raise SystemExit(f"the lineup names {len(lineup)} levels for {seats} seats")
    bench_only = _bench_levels(Budget()) if title == "greatfire" else _london_levels(Budget())
    known = {*levels(titles.get(title)), *bench_only}
    unknown = sorted(set(lineup) - known)
    if unknown:
        raise SystemExit(f"unknown level(s): {', '.join(unknown)}")
    specs = [Game(seats, seed + g, lineup[g % seats:] + lineup[:g % seats], budget, iterations, title)
             for g in range(games)]
    if procs <= 1:
        return [_logged(play(spec), log) for spec in specs]
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        out = []
        for k, outcome in enumerate(pool.imap_unordered(play, specs), 1):
            out.append(_logged(outcome, log))
            print(f"\r  {k}/{games} games", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        return out


def _logged(outcome: Outcome, log: Path | None) -> Outcome:
    if log is not None:
        with log.open("a") as f:
            f.write(json.dumps(asdict(outcome)) + "\n")
    return outcome


def read_log(log: Path) -> list[Outcome]:
    """The games a --log file holds."""
    out = []
    for line in log.read_text().splitlines():
        row = json.loads(line)
        out.append(Outcome(**{**row, "lineup": tuple(row["lineup"])}))
    return out


def seat_share(outcome: Outcome, seat: int) -> float:
    """The seat's share of the game's win: 1/k of a win shared by k winners."""
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


def win_share(outcome: Outcome, level: str) -> float:
    """The level's share of the game's win (in the first seat it sits in)."""
    return seat_share(outcome, outcome.lineup.index(level))


def _first_level(log: list[Outcome]) -> str:
    """The level in the first seat of the log's game of lowest seed: the lineup as given (game 0 is not rotated)."""
    return min(log, key=lambda o: o.seed if o.seed is not None else math.inf).lineup[0]


def paired(runs: list[Outcome], versus: list[Outcome]) -> str:
    """Each log's first level on the seeds both logs hold (same deal, same seat): wins of each, the games only one
    of them won, and the difference with a normal 95% interval of its paired mean."""
    first, other = (_first_level(log) for log in (runs, versus))
    mine = {o.seed: win_share(o, first) for o in runs if o.seed is not None}
    theirs = {o.seed: win_share(o, other) for o in versus if o.seed is not None}
    seeds = sorted(mine.keys() & theirs.keys())
    if not seeds:
        return "no seed is in both logs"
    diffs = [mine[s] - theirs[s] for s in seeds]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    half = 1.96 * sd / n ** 0.5
    return (f"{n} seeds in both logs ({seeds[0]}..{seeds[-1]}): {first} {100 * sum(mine[s] for s in seeds) / n:.1f}%, "
            f"{other} {100 * sum(theirs[s] for s in seeds) / n:.1f}%; only the first won {sum(d > 0 for d in diffs)}, "
            f"only the other {sum(d < 0 for d in diffs)}; difference {100 * mean:+.1f} points "
            f"[{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--title", choices=TITLES, default="greatfire")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--lineup", default="search,greedy,greedy,greedy", help="one level per seat, comma-separated")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="run a set of tournaments instead")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--budget", type=float, default=DEFAULT_SECONDS, help="search: seconds per decision")
    parser.add_argument("--iterations", type=int, help="search: iterations per decision (deterministic)")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--log", type=Path, help="append each finished game to this JSON-lines file")
    parser.add_argument("--report", type=Path, help="print the table of the games in a --log file and stop")
    parser.add_argument("--versus", type=Path, help="with --report: compare its first level game by game with this "
                        "log's first level on the seeds both logs hold")
    args = parser.parse_args(argv)
    if args.report and args.versus:
        print(paired(read_log(args.report), read_log(args.versus)))
        return 0
    if args.report:
        outcomes = read_log(args.report)
        print(f"{len(outcomes)} games from {args.report}")
        print(report(outcomes, len(outcomes[0].lineup) if outcomes else args.seats))
        return 0
    budget = None if args.iterations and args.budget <= 0 else args.budget
    title = titles.get(args.title)
    runs = ([(s, lineup, max(1, round(args.games * share))) for s, lineup, share in PRESETS[args.preset]
             if title.min_seats <= s <= title.max_seats]  # London seats 2-4: its ladder has no 6-seat run
            if args.preset else [(args.seats, tuple(args.lineup.split(",")), args.games)])
    print(f"search budget: {budget} s" + (f", {args.iterations} iterations" if args.iterations else ""))
    for seats, lineup, games in runs:
        started = time.perf_counter()
        outcomes = tournament(seats, lineup, games, args.seed, budget, args.iterations, args.procs, args.log,
                              args.title)
        named = "" if args.title == "greatfire" else f"{args.title}: "
        print(f"\n{named}{seats} players, {games} games, lineup {','.join(lineup)} (rotated), seeds {args.seed}.."
              f"{args.seed + games - 1}, {time.perf_counter() - started:.0f} s")
        print(report(outcomes, seats), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
