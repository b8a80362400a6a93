"""What one accepted act costs the service over its floor: `python -m bench.api_load --floor`.

In one run: the service as bench/api_load.py starts it, and bench/floor.py's bare app (its own uvicorn process)
on the same Redis. The bench creates --matches seeded Great Fire matches (every seat joined by the bench, plus as
many in reserve) and mirrors each with the engine, so it knows the legal actions of the seat to act without a
read request. Then --rounds rounds, each of the targets in turn (each round's order rotated by one: rotated()):
the floor (POST /act on a copy of each match's stored state under the floor's own keys, the actions drawn from a
clone of the mirror), the rules floor (POST /act-rules: the same, with the engine applying each action to the
copy), GraphQL `act` and REST `POST /v1/matches/{id}/actions`, each round --warmup seconds of load and then a
window of --seconds, with the same HTTP clients (--client-pool) and one request in flight per match. Every act
submits a random legal action at the version the target holds; an accepted one is applied to the mirror. A match
that ends is replaced by one from the reserve (--reserve games per slot), refilled between rounds; a slot left
without a game idles, which raises the target's CPU per act (fewer requests share each turn of its event loop).

Per round and target: acts accepted in the window, acts/s, the target process's CPU (utime + stime of it and
its children, /proc) per accepted act, Redis's CPU and commands (those run inside scripts included, from every
client: the worker's polling too) per accepted act, and this process's CPU; then each target's mean and
range, and the ratios of GraphQL and REST to the floor (per round, then their mean and range) against the
targets of issue 15: CPU per act at most 1.8x the floor's for GraphQL, 1.3x for REST; then the rules floor's
ratio to the floor (what validating every act with the engine costs by itself) and GraphQL's and REST's to the
rules floor (what the service's API adds to the rules). Also per accepted act, the target process's context switches
(waiting and preempted), read-like and write-like system calls and minor page faults (harness.scheduling), and its
threads. --pin keeps the API and the floor on the last core and this bench, Redis and the worker on the others.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

from bench import floor
from bench.harness import (
    CREATE,
    DRAIN_SECONDS,
    JOIN,
    ROOT,
    SCHEDULING,
    BenchError,
    LocalService,
    cpu_split,
    event_loop,
    graphql,
    http_clients,
    local_service,
    pin,
    scheduling,
)
from firebreak.domain import titles
from firebreak.domain.contract import Action, Match
from firebreak.matches import connections
from firebreak.matches.embedded import free_port

TARGETS = ("floor", "floor-lean", "rules", "graphql", "rest", "rest-minimal")
FLOORS = ("floor", "floor-lean", "rules")  # served by bench/floor.py on copies of the matches' states
# issue 28: CPU per accepted act at most this many times the floor's
CPU_RATIO_TARGETS = {"graphql": 1.8, "rest": 1.8, "rest-minimal": 1.3}
ACT = """mutation($input: ActInput!) { act(input: $input) { __typename ... on ActionAccepted { version events } } }"""
SETUP_CONCURRENCY = 10  # matches created at once


# ---------------------------------------------------------------------------------------------------------
# Matches and their mirrors


@dataclass
class Game:
    """A match of the service the bench holds every seat of, and the bench's engine copy of it."""

    match_id: str
    tokens: dict[int, str]
    mirror: Match


@dataclass
class Play:
    """What a slot plays in a round: the engine match its actions come from and the version the target holds."""

    game: Game
    match: Match      # the game's mirror (the service's targets) or a clone of it (the floor)
    version: int


async def new_game(client: httpx.AsyncClient, title_id: str, seats: int, seed: int) -> Game:
    """Create a seeded match, join every seat, and build its mirror from the same seed and default options."""
    created = (await graphql(client, CREATE, {"input": {"title": title_id, "seats": seats, "seed": seed}}))
    if created["createMatch"]["__typename"] != "MatchCreated":
        raise BenchError(f"createMatch: {created['createMatch']}")
    match_id: str = created["createMatch"]["matchId"]
    tokens: dict[int, str] = {}
    for seat in range(seats):
        joined = (await graphql(client, JOIN, {"input": {"matchId": match_id, "name": f"floor{seat}",
                                                         "seat": seat}}))["joinMatch"]
        if joined["__typename"] != "SeatJoined":
            raise BenchError(f"joinMatch: {joined['__typename']}")
        tokens[int(joined["seat"])] = joined["token"]
    title = titles.get(title_id)
    mirror = title.new_match(seats=seats, seed=seed, options=title.check_options(seats, None))
    return Game(match_id, tokens, mirror)


class Pool:
    """The live games (one per slot) and a reserve of started ones that replace a game that ends in a round."""

    def __init__(self, client: httpx.AsyncClient, title: str, size: int, seats: int, rng: random.Random,
                 reserve: int = 1) -> None:
        self.client = client
        self.title = title
        self.size = size
        self.kept = reserve * size  # games in reserve after each fill
        self.seats = seats
        self.rng = rng
        self.live: list[Game] = []
        self.reserve: list[Game] = []
        self.created = 0

    async def fill(self) -> None:
        """Replace every live game that ended and top the reserve up to `kept` (between rounds)."""
        self.live = [game for game in self.live if not game.mirror.is_over()]
        wanted = self.size + self.kept - len(self.live) - len(self.reserve)
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one() -> Game:
            async with gate:
                return await new_game(self.client, self.title, self.seats, self.rng.randrange(2**31))

        self.reserve += await asyncio.gather(*(one() for _ in range(wanted)))
        self.created += wanted
        while len(self.live) < self.size:
            self.live.append(self.reserve.pop())

    def replace(self, slot: int) -> Game | None:
        """The reserve game that now plays in the slot whose game ended; None when the reserve is empty."""
        if not self.reserve:
            return None
        self.live[slot] = self.reserve.pop()
        return self.live[slot]


# ---------------------------------------------------------------------------------------------------------
# The targets: each submits one action and answers the version the target is at after it

Submit = Callable[[httpx.AsyncClient, Play, int, Action], Awaitable[int]]


async def _floor(client: httpx.AsyncClient, route: str, play: Play, action: Action, what: str) -> int:
    response = await client.post(route, json={"matchId": play.game.match_id, "expectedVersion": play.version,
                                              "action": action})
    if response.status_code != 200:
        raise BenchError(f"{what} answered HTTP {response.status_code}: {response.text[:200]}")
    version: int = response.json()["version"]
    return version


async def act_floor(client: httpx.AsyncClient, play: Play, seat: int, action: Action) -> int:
    """POST /act to the floor."""
    return await _floor(client, "/act", play, action, "the floor")


async def act_floor_lean(client: httpx.AsyncClient, play: Play, seat: int, action: Action) -> int:
    """POST /act-lean to the floor: the floor on the service's Redis connection class."""
    return await _floor(client, "/act-lean", play, action, "the lean floor")


async def act_rules(client: httpx.AsyncClient, play: Play, seat: int, action: Action) -> int:
    """POST /act-rules to the floor: the floor's work and the engine's."""
    response = await client.post("/act-rules", json={"matchId": play.game.match_id, "expectedVersion": play.version,
                                                     "seat": seat, "action": action})
    if response.status_code != 200:
        raise BenchError(f"the rules floor answered HTTP {response.status_code}: {response.text[:200]}")
    version: int = response.json()["version"]
    return version


async def act_graphql(client: httpx.AsyncClient, play: Play, seat: int, action: Action) -> int:
    """The GraphQL act mutation, selecting the accepted version and the caller's events."""
    variables = {"input": {"matchId": play.game.match_id, "action": action, "expectedVersion": play.version}}
    result = (await graphql(client, ACT, variables, play.game.tokens[seat]))["act"]
    if result["__typename"] != "ActionAccepted":
        raise BenchError(f"GraphQL act answered {result['__typename']}: the mirror and the service disagree")
    version: int = result["version"]
    return version


async def _rest(client: httpx.AsyncClient, play: Play, seat: int, action: Action, minimal: bool) -> int:
    headers = {"authorization": f"Bearer {play.game.tokens[seat]}", **({"prefer": "return=minimal"} if minimal else {})}
    response = await client.post(f"/v1/matches/{play.game.match_id}/actions",
                                 json={"action": action, "expectedVersion": play.version}, headers=headers)
    if response.status_code != 200:
        raise BenchError(f"REST act answered HTTP {response.status_code}: {response.text[:200]}")
    version: int = response.json()["version"]
    return version


async def act_rest(client: httpx.AsyncClient, play: Play, seat: int, action: Action) -> int:
    """POST /v1/matches/{id}/actions with expectedVersion: the full answer (version, events and the match as the
    caller now sees it)."""
    return await _rest(client, play, seat, action, minimal=False)


async def act_rest_minimal(client: httpx.AsyncClient, play: Play, seat: int, action: Action) -> int:
    """The same with Prefer: return=minimal (the version and events, as the GraphQL round selects, not the match)."""
    return await _rest(client, play, seat, action, minimal=True)


SUBMIT: dict[str, Submit] = {"floor": act_floor, "floor-lean": act_floor_lean, "rules": act_rules,
                             "graphql": act_graphql, "rest": act_rest, "rest-minimal": act_rest_minimal}


# ---------------------------------------------------------------------------------------------------------
# One round


@dataclass
class Round:
    """One target's figures over one window."""

    number: int
    target: str
    seconds: float
    accepted: int        # acts answered inside the window
    cpu: float           # the target process's CPU seconds in the window
    redis_cpu: float
    redis_commands: int
    client_cpu: float    # this process's CPU seconds in the window
    starved: int         # slots left without a game when the reserve ran out
    gc: GcPauses | None = None  # the service's collector in the window (None: a floor's round)
    redis_bytes: int = 0  # bytes Redis read and wrote on its connections in the window (every client's)
    system: float = 0.0  # of cpu, the kernel's on the target's behalf (system time)
    kernel: dict[str, int] = field(default_factory=dict)  # the target process's scheduling() counts in the window

    @property
    def rate(self) -> float:
        """Accepted acts per second."""
        return self.accepted / self.seconds

    @property
    def us_per_act(self) -> float:
        """The target's CPU µs per accepted act."""
        return self.cpu / max(1, self.accepted) * 1e6

    @property
    def system_us_per_act(self) -> float:
        """The kernel's share of the target's CPU µs per accepted act."""
        return self.system / max(1, self.accepted) * 1e6

    @property
    def redis_us_per_act(self) -> float:
        """Redis's CPU µs per accepted act."""
        return self.redis_cpu / max(1, self.accepted) * 1e6


@dataclass(frozen=True)
class GcPauses:
    """The API's garbage-collector pauses (firebreak_gc_pause_seconds, every generation): how many, their total
    seconds, and the count at or under each bucket's bound."""

    count: float
    seconds: float
    buckets: tuple[tuple[float, float], ...]  # (upper bound, cumulative count), ascending

    @classmethod
    def scraped(cls, text: str) -> GcPauses:
        """Read from a Prometheus text exposition (the generations added up)."""
        count = seconds = 0.0
        buckets: dict[float, float] = {}
        for line in text.splitlines():
            if not line.startswith("firebreak_gc_pause_seconds"):
                continue
            name, value = line.rsplit(" ", 1)
            if name.startswith("firebreak_gc_pause_seconds_count"):
                count += float(value)
            elif name.startswith("firebreak_gc_pause_seconds_sum"):
                seconds += float(value)
            elif name.startswith("firebreak_gc_pause_seconds_bucket"):
                bound = float(name.split('le="')[1].split('"')[0])
                buckets[bound] = buckets.get(bound, 0.0) + float(value)
        return cls(count, seconds, tuple(sorted(buckets.items())))

    def since(self, before: GcPauses) -> GcPauses:
        """The pauses between two scrapes."""
        earlier = dict(before.buckets)
        return GcPauses(self.count - before.count, self.seconds - before.seconds,
                        tuple((bound, n - earlier.get(bound, 0.0)) for bound, n in self.buckets))

    def quantile(self, q: float) -> float | None:
        """The upper bound of the bucket holding the q-quantile pause (None: no pause)."""
        if self.count <= 0:
            return None
        return next((bound for bound, n in self.buckets if n >= q * self.count), float("inf"))


async def gc_pauses(client: httpx.AsyncClient) -> GcPauses | None:
    """The service's collector figures from its /metrics (None when it has none)."""
    answer = await client.get("/metrics")
    return GcPauses.scraped(answer.text) if answer.status_code == 200 else None


def next_move(match: Match, rng: random.Random) -> tuple[int, Action]:
    """A random legal action of a seat to act; a match whose next step is the service's cannot be mirrored."""
    if match.system_due() or not match.to_act():
        raise BenchError("the match's next step is the service's: --floor needs a seat count without "
                         "non-player steps (4 or more seats for Great Fire)")
    seat = rng.choice(match.to_act())
    return seat, rng.choice(match.legal_actions(seat))


class Slots:
    """One closed loop per live game: submit, apply on acceptance, count what is answered inside the window."""

    def __init__(self, target: str, pool: Pool, plays: list[Play], rngs: list[random.Random], redis: Any) -> None:
        self.target = target
        self.redis = redis
        self.submit = SUBMIT[target]
        self.pool = pool
        self.plays = plays
        self.rngs = rngs
        self.window = (float("inf"), float("inf"))
        self.accepted = 0
        self.starved = 0
        self.stopping = False
        self.quota = float("inf")  # stop once this many acts are accepted in the window (counted rounds)

    async def run(self, slot: int, client: httpx.AsyncClient) -> None:
        """Play the slot's game until told to stop (or until its game ends with no reserve left)."""
        play, rng = self.plays[slot], self.rngs[slot]
        while not self.stopping:
            seat, action = next_move(play.match, rng)
            version = await self.submit(client, play, seat, action)
            ended = time.perf_counter()
            if version != play.version + 1:
                raise BenchError(f"{self.target} answered version {version} after {play.version}")
            play.match.apply(seat, action)
            play.version = version
            if self.window[0] <= ended <= self.window[1]:
                self.accepted += 1
                if self.accepted >= self.quota:
                    self.stopping = True
            if not play.match.is_over():
                continue
            if self.target in FLOORS:  # the floors play a copy of the service's state: start it over
                play.match = play.game.mirror.clone()
                play.version = await floor.copy_state(self.redis, play.game.match_id)
                continue
            game = self.pool.replace(slot)
            if game is None:
                self.starved += 1
                return
            play = self.plays[slot] = Play(game, game.mirror, game.mirror.version)

    async def play(self, clients: list[httpx.AsyncClient], quota: int, timeout: float) -> int:
        """Every slot plays until `quota` acts are accepted in all, and the acts then in flight are answered;
        return the acts accepted (no request is in flight when it returns)."""
        self.window, self.accepted, self.quota, self.stopping = (float("-inf"), float("inf")), 0, quota, False
        tasks = [asyncio.create_task(self.run(n, clients[n % len(clients)])) for n in range(len(self.plays))]
        await settle(tasks, timeout, self.target, f"{quota} acts not played in {timeout:.0f} s")
        return self.accepted


async def settle(tasks: list[asyncio.Task[None]], timeout: float, target: str, late: str) -> None:
    """Wait for the slots' tasks to end, at most timeout seconds (BenchError `late` when some did not), raise the
    first failure as a BenchError; every task is ended on the way out."""
    try:
        done, pending = await asyncio.wait(tasks, timeout=timeout)
        if pending:
            raise BenchError(f"{target}: {len(pending)} slots: {late}")
        for task in done:
            if task.exception() is not None:
                raise BenchError(f"a {target} slot failed: {task.exception()!r}")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _cpu(pid: int) -> tuple[float, float]:
    seconds = cpu_split(pid)
    if seconds is None:
        raise BenchError(f"no CPU figures for process {pid}: --floor needs Linux's /proc")
    return seconds


async def _counters(target: int, redis_pid: int,
                    redis: Any) -> tuple[tuple[float, float, float, float, float, float], dict[str, int]]:
    """The target's CPU seconds and its system share, Redis's CPU seconds, the commands Redis has processed, this
    process's CPU seconds, the bytes Redis has read and written on its connections; and the target's scheduling
    counts."""
    info = await redis.info("stats")
    user, system = _cpu(target)
    return ((user + system, system, sum(_cpu(redis_pid)), float(info["total_commands_processed"]), time.process_time(),
             float(info["total_net_input_bytes"]) + float(info["total_net_output_bytes"])), scheduling(target) or {})


async def plays_of(target: str, pool: Pool, redis: Any) -> list[Play]:
    """What each slot plays in a round: the live games (the floors: copies of their stored states)."""
    if target not in FLOORS:
        return [Play(game, game.mirror, game.mirror.version) for game in pool.live]
    plays = [Play(game, game.mirror.clone(), await floor.copy_state(redis, game.match_id)) for game in pool.live]
    if any(play.version != play.game.mirror.version for play in plays):
        raise BenchError("a match's stored version differs from its mirror's")
    return plays


async def one_round(number: int, target: str, base: str, pool: Pool, redis: Any, pids: dict[str, int],
                    args: argparse.Namespace, rngs: list[random.Random]) -> Round:
    """Load one target through a warm-up and a window; every in-flight act finishes before it returns."""
    plays = await plays_of(target, pool, redis)
    slots = Slots(target, pool, plays, rngs, redis)
    async with contextlib.AsyncExitStack() as stack:
        clients = await http_clients(stack, base, len(plays), args.client_pool)
        tasks = [asyncio.create_task(slots.run(n, clients[n % len(clients)])) for n in range(len(plays))]
        try:
            await asyncio.sleep(args.warmup)
            gc_before = None if target in FLOORS else await gc_pauses(clients[0])  # scraped outside the window
            before, kernel_before = await _counters(pids[target], pids["redis"], redis)
            start = time.perf_counter()
            slots.window = (start, start + args.seconds)
            await asyncio.sleep(args.seconds)
            seconds = time.perf_counter() - start
            after, kernel_after = await _counters(pids[target], pids["redis"], redis)
            gc_after = None if target in FLOORS else await gc_pauses(clients[0])
            slots.stopping = True
            await settle(tasks, DRAIN_SECONDS, target, f"acts still unanswered {DRAIN_SECONDS:.0f} s after the window "
                         "(their matches' mirrors can no longer be trusted)")
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    cpu, system, redis_cpu, commands, client_cpu, net = (b - a for a, b in zip(before, after, strict=True))
    gc = gc_after.since(gc_before) if gc_after is not None and gc_before is not None else None
    kernel = {name: kernel_after[name] - kernel_before[name] for name in SCHEDULING if name in kernel_after}
    if "threads" in kernel_after:
        kernel["threads"] = kernel_after["threads"]
    return Round(number, target, seconds, slots.accepted, cpu, redis_cpu, int(commands), client_cpu,
                 slots.starved, gc, int(net), system, kernel)


# ---------------------------------------------------------------------------------------------------------
# The floor process and the run


@contextlib.contextmanager
def floor_process(redis_url: str, folder: Path, title: str = "greatfire", timeout: float = 20.0,
                  prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, int]]:
    """bench/floor.py under uvicorn on a free loopback port (its command line after prefix: e.g. callgrind's);
    yields its base URL and process id, stops it."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = folder / "floor.log"
    with log_path.open("wb") as log:
        child = subprocess.Popen([*prefix, sys.executable, "-m", "bench.floor", "--port", str(port), "--redis-url",
                                  redis_url, "--title", title],
                                 cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=log,
                                 stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + timeout
            while True:
                if child.poll() is not None:
                    raise BenchError(f"the floor exited at start:\n{log_path.read_text(errors='replace')[-2000:]}")
                try:  # an unknown match: a 404 means the app is up and reaches Redis
                    if httpx.post(f"{base}/act", json={"matchId": "none", "expectedVersion": 0, "action": {}},
                                  timeout=1.0).status_code == 404:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise BenchError(f"the floor was not ready in {timeout:.0f} s")
                time.sleep(0.1)
            yield base, child.pid
        finally:
            child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=5)


def rotated(targets: tuple[str, ...], by: int) -> tuple[str, ...]:
    """The round's order: each round starts one target further on, so no target is always the one that inherits
    the matches the others have played furthest (later in a game an act costs more), nor always the first."""
    k = by % len(targets)
    return targets[k:] + targets[:k]


R = TypeVar("R")
# One round of a target: (round number, target, its base URL, the pool, a Redis client, the slots' generators).
PlayRound = Callable[[int, str, str, Pool, Any, list[random.Random]], Awaitable[R]]


async def interleaved(service: LocalService, floor_base: str, args: argparse.Namespace, play: PlayRound[R],
                      told: Callable[[R], str], setup_timeout: float = 30.0) -> list[R]:
    """Set the matches up, then play --rounds rounds of every target (each round's order rotated), printing
    told(round) as each ends."""
    rng = random.Random(args.seed)
    rngs = [random.Random(f"{args.seed}:{n}") for n in range(args.matches)]
    redis = connections.async_client(service.redis_url, decode_responses=True)
    rounds: list[R] = []
    try:
        async with httpx.AsyncClient(base_url=service.base, timeout=setup_timeout) as setup:
            pool = Pool(setup, args.title, args.matches, args.seats, rng, args.reserve)
            for number in range(1, args.rounds + 1):
                for target in rotated(args.targets, number - 1):
                    await pool.fill()
                    base = floor_base if target in FLOORS else service.base
                    rounds.append(await play(number, target, base, pool, redis, rngs))
                    print(f"round {number} {target}: {told(rounds[-1])}", file=sys.stderr)
    finally:
        await redis.aclose()
    return rounds


async def measure(service: LocalService, floor_base: str, pids: dict[str, int],
                  args: argparse.Namespace) -> list[Round]:
    """Set the matches up, then run the interleaved timed rounds."""
    async def play(number: int, target: str, base: str, pool: Pool, redis: Any,
                   rngs: list[random.Random]) -> Round:
        return await one_round(number, target, base, pool, redis, pids, args, rngs)

    return await interleaved(service, floor_base, args, play,
                             lambda r: f"{r.rate:.0f} acts/s, {r.us_per_act:.0f} µs CPU per act")


# ---------------------------------------------------------------------------------------------------------
# The report


def spread(values: list[float], digits: int = 0, grouped: str = "") -> str:
    """The values' mean (min-max), to that many digits (grouped: "," puts commas between thousands)."""
    mean = sum(values) / len(values)
    return f"{mean:{grouped}.{digits}f} ({min(values):{grouped}.{digits}f}-{max(values):{grouped}.{digits}f})"


def render(rounds: list[Round], args: argparse.Namespace, command: str) -> str:
    """A line per round and target, then each target's mean (range) and the ratios to the floor."""
    lines = [f"{args.matches} concurrent {args.title} matches ({args.seats} seats), HTTP client: {args.client_pool}, "
             f"{args.warmup:g} s warm-up + {args.seconds:g} s window per round; CPU is the target process's "
             "(with its children), µs per accepted act",
             f"{'round':>5}  {'target':<12} {'accepted':>8} {'acts/s':>8} {'CPU %':>6} {'CPU µs/act':>10} "
             f"{'Redis µs/act':>12} {'Redis cmds/act':>14} {'client CPU %':>12}"]
    for r in rounds:
        commands = r.redis_commands / max(1, r.accepted)
        starved = f"  ({r.starved} slots ran out of matches)" if r.starved else ""
        lines.append(f"{r.number:>5}  {r.target:<12} {r.accepted:>8} {r.rate:>8.1f} {r.cpu / r.seconds * 100:>6.0f} "
                     f"{r.us_per_act:>10.0f} {r.redis_us_per_act:>12.0f} {commands:>14.1f} "
                     f"{r.client_cpu / r.seconds * 100:>12.0f}{starved}")
    by_target = {t: rs for t in args.targets if (rs := [r for r in rounds if r.target == t])}
    lines.append("mean (min-max) over the rounds:")
    for target, rs in by_target.items():
        lines.append(f"  {target:<12} CPU µs/act {spread([r.us_per_act for r in rs])} (the kernel's "
                     f"{spread([r.system_us_per_act for r in rs])}), acts/s "
                     f"{spread([r.rate for r in rs], 1)}, Redis µs/act {spread([r.redis_us_per_act for r in rs])}, "
                     f"Redis bytes/act {spread([r.redis_bytes / max(1, r.accepted) for r in rs])}")
    lines.append("ratios to the floor (each round against the floor's round in it):")
    for target in by_target:
        if target != "floor" and "floor" in by_target:
            lines.append(_ratio(by_target["floor"], by_target[target], target, "floor", CPU_RATIO_TARGETS.get(target)))
    if "floor-lean" in by_target:
        lines.append("ratios to the floor on the service's Redis connection class (LeanConnection):")
        for target in by_target:
            if target in CPU_RATIO_TARGETS:
                lines.append(_ratio(by_target["floor-lean"], by_target[target], target, "lean floor", None))
    if "rules" in by_target:
        lines.append("ratios to the rules floor (what the API adds to the engine's work):")
        for target in by_target:
            if target in CPU_RATIO_TARGETS:
                lines.append(_ratio(by_target["rules"], by_target[target], target, "rules floor", None))
    lines += _scheduling_lines(by_target)
    measured = [r for r in rounds if r.gc is not None]
    if measured:
        lines.append("the API's garbage collector in the windows (every generation): collections per 1000 acts, "
                     "µs of pause per act, the p99 pause (a bucket's upper bound)")
        for target in by_target:
            rs = [r for r in measured if r.target == target and r.gc is not None and r.accepted]
            if rs:
                lines.append(f"  {target:<12} " + _gc_line(rs))
    lines.append(f"command  {command}")
    return "\n".join(lines)


def _scheduling_lines(by_target: dict[str, list[Round]]) -> list[str]:
    """Each target process's context switches, system calls and page faults per accepted act, and its threads."""
    if not any(r.kernel for rs in by_target.values() for r in rs):
        return []
    lines = ["the target process's kernel counts per accepted act (mean (min-max) over the rounds), and its threads"]
    for target, rs in by_target.items():
        shown = [r for r in rs if r.kernel and r.accepted]
        if not shown:
            continue
        parts = [f"{name} {spread([r.kernel[name] / r.accepted for r in shown], 2)}" for name in SCHEDULING]
        threads = max(r.kernel.get("threads", 0) for r in shown)
        lines.append(f"  {target:<12} " + ", ".join(parts) + f"; threads {threads}")
    return lines


def _gc_line(rounds: list[Round]) -> str:
    """The collector's figures of a target's rounds, added up."""
    count = sum(r.gc.count for r in rounds if r.gc)
    seconds = sum(r.gc.seconds for r in rounds if r.gc)
    acts = sum(r.accepted for r in rounds)
    bounds = [bound for bound, _ in rounds[0].gc.buckets] if rounds[0].gc else []
    totals = tuple((bound, sum(dict(r.gc.buckets).get(bound, 0.0) for r in rounds if r.gc)) for bound in bounds)
    p99 = GcPauses(count, seconds, totals).quantile(0.99)
    shown = "none" if p99 is None else f"<= {p99 * 1000:g} ms"
    return f"{count / acts * 1000:.1f} collections per 1000 acts, {seconds / acts * 1e6:.0f} µs per act, p99 {shown}"


def _ratio(bases: list[Round], rounds: list[Round], target: str, base: str, limit: float | None) -> str:
    """One target's CPU per act and throughput over a base's, round by round (mean and range)."""
    pairs = list(zip(bases, rounds, strict=True))
    cpu = [r.us_per_act / b.us_per_act for b, r in pairs if b.accepted and r.accepted]
    rate = [r.rate / b.rate for b, r in pairs if b.accepted]
    if not cpu:
        return f"  {target:<12} no accepted acts to compare"
    verdict = ""
    if limit is not None:
        verdict = f" (target <= {limit}x: {'met' if sum(cpu) / len(cpu) <= limit else 'MISSED'})"
    return (f"  {target:<12} CPU per act {spread(cpu, 2)}x the {base}'s{verdict}; "
            f"throughput {spread(rate, 2)}x the {base}'s")


def main(args: argparse.Namespace, command: str) -> int:
    """Start the service and the floor, run the rounds, print the report (api_load's --floor)."""
    print("starting Redis, the API, a worker and the floor...", file=sys.stderr)
    with contextlib.ExitStack() as stack:
        service = stack.enter_context(local_service(args.api_processes))
        floor_base, floor_pid = stack.enter_context(floor_process(service.redis_url, service.folder, args.title))
        started = service.pids()
        pids = {target: floor_pid if target in FLOORS else started["api"] for target in TARGETS}
        pids["redis"] = started["redis"]
        if args.pin:
            last = (os.cpu_count() or 2) - 1
            for pid in (floor_pid, started["api"]):
                pin(pid, {last})
            for pid in (os.getpid(), started["redis"], started["worker"]):
                pin(pid, set(range(last)))
        rounds = stack.enter_context(event_loop()).run(measure(service, floor_base, pids, args))
    print(render(rounds, args, command))
    return 0
