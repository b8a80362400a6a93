"""What one accepted act costs the served processes, counted: `python -m bench.api_load --floor --instructions`.

bench/act_cost.py times the API's and the floor's CPU per accepted act; on a shared machine the same code's ratio
moves by tenths between runs. Here the API and the floor each run under valgrind's callgrind (their command lines
unchanged, bench/instructions.py's callgrind_command before them), and the bench counts every instruction the
process runs while it serves a number of acts: uvicorn, the event loop, the collector, the tasks that outlive a
request, all of it in user space (the kernel's work is left out on both sides). Callgrind runs them some 50 times
slower, so a round is a number of acts, not seconds.

Each round and target, as act_cost's rounds (the same matches, slots and order, rotated): --warmup-acts acts,
then with nothing in flight the count starts from zero; IDLE_SECONDS with no request (what the process runs by
itself: its timers and the readiness of callgrind's own server); then --acts acts (and those in flight when they
are reached), and the count is read. Per target: instructions per accepted act, the same less the idle rate over
the window's time (a served process slowed 50 times runs its timers 50 times as often per act), and the ratios to
the floor round by round. --dumps FOLDER keeps callgrind's dumps (api.cg.out.N, floor.cg.out.N, each with the
target and round in its description) for callgrind_annotate: where in C the instructions went; with
FIREBREAK_CALLGRIND_ARGS=--cache-sim=yes callgrind also simulates the caches (misses per act in the dumps).
A full collection of the API's heap (the built matches it keeps among it) costs tens of millions of instructions
and lands in one round or another: count three rounds or more of several hundred acts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import instructions
from bench.act_cost import CPU_RATIO_TARGETS, FLOORS, TARGETS, Pool, Slots, floor_process, interleaved, plays_of, spread
from bench.harness import LocalService, event_loop, http_clients, local_service

IDLE_SECONDS = 2.0  # the idle count of a round: no request in flight
START_SECONDS = 600.0  # a process under callgrind takes a minute or more to import and start
ACTS_SECONDS = 1800.0  # the most a round's acts may take


@dataclass(frozen=True)
class Counted:
    """One target's count over one round's acts."""

    number: int
    target: str
    accepted: int
    instructions: int
    seconds: float  # the window's wall time
    idle_per_second: float  # what the process ran by itself in the round's idle count

    @property
    def per_act(self) -> float:
        """Instructions per accepted act."""
        return self.instructions / max(1, self.accepted)

    @property
    def busy_per_act(self) -> float:
        """The same less the idle rate over the window's time."""
        return max(0.0, self.instructions - self.idle_per_second * self.seconds) / max(1, self.accepted)


async def counted_round(number: int, target: str, base: str, pool: Pool, redis: Any, served: instructions.Served,
                        args: argparse.Namespace, rngs: list[random.Random]) -> Counted:
    """Warm the target up, count its idle rate, then count --acts acts."""
    plays = await plays_of(target, pool, redis)
    slots = Slots(target, pool, plays, rngs, redis)
    async with contextlib.AsyncExitStack() as stack:
        clients = await http_clients(stack, base, len(plays), args.client_pool)
        if args.warmup_acts:
            await slots.play(clients, args.warmup_acts, ACTS_SECONDS)
        await asyncio.to_thread(served.zero)
        started = time.perf_counter()
        await asyncio.sleep(IDLE_SECONDS)
        idle = await asyncio.to_thread(served.dump, f"{target} idle {number}")
        idle_rate = idle / (time.perf_counter() - started)
        started = time.perf_counter()
        accepted = await slots.play(clients, args.acts, ACTS_SECONDS)
        seconds = time.perf_counter() - started
        count = await asyncio.to_thread(served.dump, f"{target} {number}")
    return Counted(number, target, accepted, count, seconds, idle_rate)


async def measure(service: LocalService, floor_base: str, served: dict[str, instructions.Served],
                  args: argparse.Namespace) -> list[Counted]:
    """Set the matches up, then run the interleaved counted rounds."""
    async def play(number: int, target: str, base: str, pool: Pool, redis: Any,
                   rngs: list[random.Random]) -> Counted:
        return await counted_round(number, target, base, pool, redis, served[target], args, rngs)

    return await interleaved(service, floor_base, args, play,
                             lambda r: f"{r.accepted} acts, {r.per_act:,.0f} instructions an act "
                                       f"({r.busy_per_act:,.0f} less the idle rate)", setup_timeout=120.0)


def render(rounds: list[Counted], args: argparse.Namespace, command: str) -> str:
    """A line per round and target, each target's mean (range), and the ratios to the floor round by round."""
    lines = [f"{args.matches} concurrent {args.title} matches ({args.seats} seats), {args.warmup_acts} acts of warm-up "
             f"and {args.acts} counted per round and target; instructions of the whole served process (callgrind), "
             "per accepted act; 'busy': less what the process runs idle over the window's time",
             f"{'round':>5}  {'target':<12} {'accepted':>8} {'instructions/act':>16} {'busy/act':>12} "
             f"{'idle/s':>12} {'window s':>8}"]
    for r in rounds:
        lines.append(f"{r.number:>5}  {r.target:<12} {r.accepted:>8} {r.per_act:>16,.0f} {r.busy_per_act:>12,.0f} "
                     f"{r.idle_per_second:>12,.0f} {r.seconds:>8.1f}")
    by_target = {t: rs for t in args.targets if (rs := [r for r in rounds if r.target == t])}
    lines.append("mean (min-max) over the rounds:")
    for target, rs in by_target.items():
        lines.append(f"  {target:<12} instructions/act {spread([r.per_act for r in rs], grouped=',')}, "
                     f"busy {spread([r.busy_per_act for r in rs], grouped=',')}")
    for base in ("floor", "rules"):
        if base not in by_target:
            continue
        lines.append(f"ratios to the {'floor' if base == 'floor' else 'rules floor'} (each round against its round "
                     "in the same round), all instructions; busy:")
        for target, rs in by_target.items():
            if target in (base, "floor") or (base == "rules" and target not in CPU_RATIO_TARGETS):
                continue
            pairs = list(zip(by_target[base], rs, strict=True))
            whole = [r.per_act / b.per_act for b, r in pairs]
            busy = [r.busy_per_act / b.busy_per_act for b, r in pairs if b.busy_per_act]
            limit = CPU_RATIO_TARGETS.get(target) if base == "floor" else None
            verdict = ""
            if limit is not None:
                verdict = f" (target <= {limit}x: {'met' if sum(whole) / len(whole) <= limit else 'MISSED'})"
            lines.append(f"  {target:<12} {spread(whole, 2)}x{verdict}; busy {spread(busy, 2)}x")
    lines.append(f"command  {command}")
    return "\n".join(lines)


def main(args: argparse.Namespace, command: str) -> int:
    """Start the service's API and the floor under callgrind, run the counted rounds, print the report."""
    if args.api_processes != 1:
        raise SystemExit("--instructions counts one API process: --api-processes 1")
    os.environ.setdefault("PYTHONHASHSEED", "0")  # the same sets and dicts in every run
    print("starting Redis, the API (under callgrind), a worker and the floor (under callgrind); a few minutes...",
          file=sys.stderr)
    with contextlib.ExitStack() as stack:
        if args.dumps:
            out = Path(args.dumps)
            out.mkdir(parents=True, exist_ok=True)
        else:
            out = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="firebreak-served-cg-")))
        api_out, floor_out = out / "api.cg.out", out / "floor.cg.out"
        service = stack.enter_context(local_service(
            1, api_prefix=tuple(instructions.callgrind_command(api_out)), timeout=START_SECONDS))
        floor_base, floor_pid = stack.enter_context(floor_process(
            service.redis_url, service.folder, args.title, START_SECONDS,
            tuple(instructions.callgrind_command(floor_out))))
        api = instructions.Served(service.pids()["api"], api_out)
        floor = instructions.Served(floor_pid, floor_out)
        served = {target: floor if target in FLOORS else api for target in TARGETS}
        rounds = stack.enter_context(event_loop()).run(measure(service, floor_base, served, args))
    report = render(rounds, args, command)
    if args.dumps:  # beside the dumps, for bench/cache_misses.py (the acts each round counted)
        (Path(args.dumps) / "report.txt").write_text(report + "\n")
    print(report)
    return 0
