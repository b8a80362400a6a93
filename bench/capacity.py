"""A capacity model of a deployment, built from measured unit costs and checked against a load run on this machine.

1. Calibrate: bench/api_load.py's load (every slot reads its match, then acts) at --rate accepted acts/s on one
   Redis and one API process, for --seconds. It gives the unit costs, per accepted act with its read: API CPU,
   Redis CPU (every server), worker CPU (the reconciler's polling included, though it hardly depends on the rate)
   and Redis network bytes; and MEMORY USAGE per live match.
2. Check: the same load at --check-rate with --check-api-processes API processes on a 3-master Redis Cluster beside
   a queue Redis (what a scaled deployment looks like). The model predicts each figure of that run (unit cost times
   the accepted acts/s it reached; memory per match as calibrated) and prints the error of each: the model's
   stated error is the largest of them.
3. Plan: for 10,000 and 1,000,000 concurrent live matches, one act every --act-every seconds per match (each
   with a read): API processes (each kept under --api-busy of a core), Redis Cluster masters (by CPU under
   --redis-busy of a core, and by memory: --redis-gb usable a master for live matches and the finished ones kept
   --finished-per-live to a live one), workers for the bot decisions (--bot-share of the acts, --bot-ms of worker
   CPU each: 1 ms is greedy's median, a search bot thinks FIREBREAK_SEARCH_SECONDS, 400 ms by default), and
   which resource needs the most machines first.

Run: python -m bench.capacity [--rate 120] [--check-rate 200] [--check-api-processes 2] [--seconds 20]
         [--act-every 20] [--bot-share 0.25] [--bot-ms 1]
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from bench import api_load
from bench.api_load import Report, Target


@dataclass(frozen=True)
class Units:
    """What one accepted act (with its read) costs, and what a live match holds."""

    api_ms: float
    redis_ms: float
    worker_ms_per_s: float  # the worker's CPU per second of wall time (its polling: it hardly grows with acts)
    match_bytes: float

    @classmethod
    def of(cls, report: Report) -> Units:
        """The unit costs of a calibration run."""
        rate = report.tally.accepted / report.measured
        cpu = report.cpu
        return cls(api_ms=cpu.get("api", 0.0) / report.measured / rate * 1000,
                   redis_ms=_redis_cpu(cpu) / report.measured / rate * 1000,
                   worker_ms_per_s=cpu.get("worker", 0.0) / report.measured * 1000,
                   match_bytes=report.redis.per_match if report.redis else 0.0)


def _redis_cpu(cpu: dict[str, float]) -> float:
    """Every Redis server's CPU seconds: a plain one ("redis"), or each cluster node and the queue Redis."""
    return sum(seconds for role, seconds in cpu.items() if "redis" in role)


def check(units: Units, report: Report) -> list[tuple[str, float, float]]:
    """(figure, predicted, measured) for the check run: cores busy by role, and bytes per live match."""
    rate = report.tally.accepted / report.measured
    cpu = report.cpu
    return [
        ("API cores", rate * units.api_ms / 1000, cpu.get("api", 0.0) / report.measured),
        ("Redis cores (all servers)", rate * units.redis_ms / 1000, _redis_cpu(cpu) / report.measured),
        ("worker cores", units.worker_ms_per_s / 1000, cpu.get("worker", 0.0) / report.measured),
        ("bytes per live match", units.match_bytes, report.redis.per_match if report.redis else float("nan")),
    ]


@dataclass(frozen=True)
class Plan:
    """What a deployment needs for a number of live matches."""

    matches: int
    acts_per_second: float
    api_processes: int
    redis_masters_cpu: int
    redis_masters_memory: int
    workers: int
    memory_gb: float

    @property
    def redis_masters(self) -> int:
        """Masters: the larger of what CPU and memory need."""
        return max(self.redis_masters_cpu, self.redis_masters_memory)

    @property
    def first_bottleneck(self) -> str:
        """The resource that needs the most machines (API processes, masters or workers, a core each)."""
        needs = {"API CPU": self.api_processes, "Redis CPU": self.redis_masters_cpu,
                 "Redis memory": self.redis_masters_memory, "worker CPU (bots)": self.workers}
        return max(needs, key=lambda name: needs[name])


def plan(units: Units, matches: int, args: argparse.Namespace) -> Plan:
    """The deployment for this many live matches at the arguments' act rate and limits."""
    rate = matches / args.act_every
    api = math.ceil(rate * units.api_ms / 1000 / args.api_busy)
    masters_cpu = math.ceil(rate * units.redis_ms / 1000 / args.redis_busy)
    memory = matches * (1 + args.finished_per_live) * units.match_bytes / 1e9
    masters_memory = math.ceil(memory / args.redis_gb)
    workers = math.ceil(rate * args.bot_share * args.bot_ms / 1000 / args.api_busy)
    return Plan(matches, rate, max(1, api), max(1, masters_cpu), max(1, masters_memory), max(1, workers), memory)


def render(units: Units, calibration: Report, checked: list[tuple[str, float, float]], check_report: Report,
           plans: list[Plan], args: argparse.Namespace, command: str) -> str:
    """The unit costs, the check with its errors, and the plans."""
    lines = [f"unit costs (one Redis, 1 API process, {calibration.tally.accepted / calibration.measured:.0f} "
             f"accepted acts/s, each with a read): API {units.api_ms:.2f} ms CPU an act, Redis {units.redis_ms:.3f} "
             f"ms, worker {units.worker_ms_per_s:.1f} ms CPU a second (polling), {units.match_bytes:,.0f} B a live "
             "match",
             f"check (3-master cluster + queue Redis, {args.check_api_processes} API processes, "
             f"{check_report.tally.accepted / check_report.measured:.0f} accepted acts/s):"]
    errors = []
    for name, predicted, measured in checked:
        error = (predicted - measured) / measured if measured else float("nan")
        errors.append(abs(error))
        lines.append(f"  {name:<26} predicted {predicted:10.3f}  measured {measured:10.3f}  error {error:+.0%}")
    worst = max((e for e in errors if not math.isnan(e)), default=float("nan"))
    lines.append(f"  the model's error here: within {worst:.0%} (the largest above)")
    lines.append(f"plans: one act every {args.act_every:g} s per live match (each with a read); API processes at "
                 f"<= {args.api_busy:.0%} of a core; Redis masters at <= {args.redis_busy:.0%} of a core and "
                 f"{args.redis_gb:g} GB for matches ({args.finished_per_live:g} finished kept per live one); "
                 f"{args.bot_share:.0%} of the acts by bots at {args.bot_ms:g} ms of worker CPU each")
    for p in plans:
        lines.append(f"  {p.matches:>9,} matches: {p.acts_per_second:9,.0f} acts/s, {p.api_processes:>5} API "
                     f"processes, {p.redis_masters:>4} Redis masters (CPU {p.redis_masters_cpu}, memory "
                     f"{p.redis_masters_memory}: {p.memory_gb:,.1f} GB), {p.workers:>5} workers; first bottleneck: "
                     f"{p.first_bottleneck}")
    lines.append(f"command  {command}")
    return "\n".join(lines)


def _load(args: argparse.Namespace, rate: float, api_processes: int, layout: str) -> Report:
    """One api_load run, started and stopped by it."""
    run_args = argparse.Namespace(**{**vars(args), "rate": rate, "api_processes": api_processes})
    return api_load.run(run_args, None, Target(layout, layout=layout))


def main() -> int:
    """Calibrate, check, plan; print it all."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=120.0, help="the calibration's offered acts/s")
    parser.add_argument("--check-rate", type=float, default=200.0, help="the check's offered acts/s")
    parser.add_argument("--check-api-processes", type=int, default=2)
    parser.add_argument("--matches", type=int, default=40, help="concurrent matches of each load")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0, help="each load's measured window")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--client-pool", choices=("shared", "per-match"), default="per-match")
    parser.add_argument("--act-every", type=float, default=20.0, help="seconds between acts of a live match")
    parser.add_argument("--api-busy", type=float, default=0.6, help="the share of a core an API process or worker "
                                                                    "may use (headroom for bursts)")
    parser.add_argument("--redis-busy", type=float, default=0.5, help="the share of a core a Redis master may use")
    parser.add_argument("--redis-gb", type=float, default=8.0, help="GB of a master's memory for matches")
    parser.add_argument("--finished-per-live", type=float, default=1.0,
                        help="finished matches kept in Redis (FIREBREAK_FINISHED_TTL) per live one, same size")
    parser.add_argument("--bot-share", type=float, default=0.25, help="the share of acts decided by bots")
    parser.add_argument("--bot-ms", type=float, default=1.0, help="worker CPU ms per bot decision")
    args = parser.parse_args()
    command = shlex.join([Path(sys.executable).name, "-m", "bench.capacity", *sys.argv[1:]])
    calibration = _load(args, args.rate, 1, "single")
    units = Units.of(calibration)
    check_report = _load(args, args.check_rate, args.check_api_processes, "cluster")
    plans = [plan(units, matches, args) for matches in (10_000, 1_000_000)]
    print(render(units, calibration, check(units, check_report), check_report, plans, args, command))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
