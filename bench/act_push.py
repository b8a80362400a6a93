"""The act path with every seat's player subscribed to Web Push against none (issue 48), on the service as users
start it: `python -m bench.act_path --push-subscribed` (bench/act_path.py's options, served paths only).

Starts a private Redis, the API (`firebreak api`, bench.harness.api_command) and one worker (whose threads forward
the feeds' events into pushes and send them: notifications/webhooks/sender.py, push/sender.py), and a loopback
push service that answers 201 at once (bench/push.py's). Two tables of four signed-in guest players are played
over HTTP, one act at a time: every player of the "push" table has registered a browser's PushSubscription
(a fresh P-256 key pair and auth secret, so each push is encrypted and VAPID-signed as for a browser), the "none"
table's players none. Each round plays --acts acts of every path on each table, in alternating order, and prints
per act: the API's CPU (creating and joining a new match left out), the worker's and Redis's CPU from the first
act until the pushes are all sent (their idle CPU, measured before the rounds, taken off), and the pushes the
service got. Then the ratio push/none of each and of the three together, as mean (min-max) over the rounds, and
the worker's CPU per push sent."""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import tempfile
import time
from types import ModuleType
from typing import Any

import httpx

from bench import harness
from bench.push import Service, browser_keys
from firebreak.matches import connections
from firebreak.push import keys as push_keys

MODES = ("none", "push")
SERVED = ("graphql", "rest", "rest-minimal")
STABLE_SECONDS = 1.0   # no new push for this long (and none due): the worker is done with a round
DRAIN_LIMIT = 120.0    # seconds a round's pushes may take to be sent at most
REGISTER = """mutation($input: RegisterPushSubscriptionInput!) { registerPushSubscription(input: $input) {
  __typename } }"""
ROLES = ("api", "worker", "redis")
RATIOS = (*ROLES, "all")  # all: the three together


class Cpu:
    """The CPU seconds of the service's processes (with their children), read from /proc."""

    def __init__(self, service: harness.LocalService) -> None:
        self.pids = service.pids()

    def read(self) -> dict[str, float]:
        """role -> CPU seconds so far."""
        return {role: harness.cpu_seconds(self.pids[role]) or 0.0 for role in ROLES}


class Bench:
    """The two tables, the push service and the accounting of one served run."""

    def __init__(self, args: argparse.Namespace, service: harness.LocalService, peer: Service,
                 client: httpx.AsyncClient, act_path: ModuleType) -> None:
        self.args = args
        self.act_path = act_path
        self.peer = peer
        self.cpu = Cpu(service)
        self.redis = connections.async_client(service.redis_url, decode_responses=True)
        self.tables = {mode: act_path.Table(client, args.seed + 1000 * n, True, args.title,
                                            device=f"act-push-bench-{mode}") for n, mode in enumerate(MODES)}
        self.clock = act_path.AppClock(None)  # the app is served: its CPU is read from /proc
        self.rng = random.Random(args.seed)
        self.idle: dict[str, float] = dict.fromkeys(ROLES, 0.0)  # CPU seconds per second while nothing is played

    async def setup(self) -> None:
        """Sign the players in, subscribe the push table's, and warm every path up on both tables."""
        for table in self.tables.values():
            await table.start()
        for n, access in enumerate(self.tables["push"].accesses):
            p256dh, auth = browser_keys()
            data = await harness.graphql(self.tables["push"].client, REGISTER, {"input": {
                "endpoint": self.peer.endpoint(f"seat{n}"), "keys": {"p256dh": p256dh, "auth": auth}}}, access)
            if data["registerPushSubscription"]["__typename"] != "PushSubscriptionRegistered":
                raise harness.BenchError(f"the push subscription was refused: {data}")
        for path in self.args.paths:
            for mode in MODES:
                for _ in range(20):
                    await self.step(mode, path)
        await self.drained(self.args.settle)
        began, before = time.monotonic(), self.cpu.read()
        await asyncio.sleep(max(self.args.settle, 1.0))
        after, seconds = self.cpu.read(), time.monotonic() - began
        self.idle = {role: (after[role] - before[role]) / seconds for role in ROLES}

    async def step(self, mode: str, path: str) -> float:
        """One act of a table; the API CPU a new match took before it (0.0 when none was needed)."""
        table = self.tables[mode]
        spent = 0.0
        if table.mirror is None or table.mirror.is_over():
            before = self.cpu.read()["api"]
            await table.start()
            spent = self.cpu.read()["api"] - before
        await self.act_path.play_act(path, table, None, self.rng, self.clock)
        return spent

    async def drained(self, settle: float) -> None:
        """Wait at least settle seconds, until no push is due and none came for STABLE_SECONDS."""
        began = time.monotonic()
        count, since = self.peer.count, began
        while True:
            await asyncio.sleep(0.1)
            now = time.monotonic()
            if self.peer.count != count:
                count, since = self.peer.count, now
            if now - began >= settle and now - since >= STABLE_SECONDS and \
                    not await self.redis.zcard(push_keys.due(harness.QUEUE)):
                return
            if now - began > DRAIN_LIMIT:
                raise harness.BenchError(f"the pushes were not all sent in {DRAIN_LIMIT:.0f} s")

    async def timed(self, mode: str, path: str) -> dict[str, float]:
        """Play --acts acts of a table: per act, each role's CPU in µs and the pushes sent."""
        acts = self.args.acts
        sent, began, before = self.peer.count, time.monotonic(), self.cpu.read()
        creating = 0.0
        for _ in range(acts):
            creating += await self.step(mode, path)
        api = self.cpu.read()["api"]
        await self.drained(self.args.settle)
        after, seconds = self.cpu.read(), time.monotonic() - began
        figures = {"api": (api - before["api"] - creating) / acts * 1e6}
        for role in ("worker", "redis"):
            figures[role] = (after[role] - before[role] - self.idle[role] * seconds) / acts * 1e6
        figures["pushes"] = (self.peer.count - sent) / acts
        if mode == "none" and figures["pushes"]:
            raise harness.BenchError(f"players subscribed nowhere got {self.peer.count - sent} pushes")
        return figures


def _spread(values: list[float]) -> str:
    """Mean (min-max) of ratios; n/a when a round's base was 0 (too few acts to see)."""
    if not values or any(math.isnan(v) for v in values):
        return "n/a"
    return f"{statistics.mean(values):.2f} ({min(values):.2f}-{max(values):.2f})"


async def run(args: argparse.Namespace, service: harness.LocalService, peer: Service, act_path: ModuleType) -> None:
    """The rounds, printed as they go, then the ratios."""
    async with httpx.AsyncClient(base_url=service.base, timeout=30.0) as client:
        bench = Bench(args, service, peer, client, act_path)
        try:
            await bench.setup()
            print("idle CPU taken off, per second: " + ", ".join(f"{role} {bench.idle[role] * 1e3:.1f} ms"
                                                                  for role in ("worker", "redis")))
            ratios: dict[str, dict[str, list[float]]] = {path: {role: [] for role in RATIOS} for path in args.paths}
            per_push: dict[str, list[float]] = {path: [] for path in args.paths}  # the worker's extra CPU per push
            pushes = 0.0
            for round_ in range(args.rounds):
                for path in args.paths:
                    got: dict[str, dict[str, float]] = {}
                    for mode in MODES if round_ % 2 == 0 else MODES[::-1]:  # alternate which goes first
                        got[mode] = figures = await bench.timed(mode, path)
                        print(f"round {round_ + 1} {path:<13} {mode:<5} the API {figures['api']:>6.0f} µs CPU per "
                              f"act, the worker {figures['worker']:.0f} µs, Redis {figures['redis']:.0f} µs; "
                              f"{figures['pushes']:.2f} pushes per act")
                    for figures in got.values():
                        figures["all"] = sum(figures[role] for role in ROLES)
                    for role in RATIOS:
                        base = got["none"][role]
                        ratios[path][role].append(got["push"][role] / base if base > 0 else math.nan)
                    pushes += got["push"]["pushes"]
                    if got["push"]["pushes"]:
                        per_push[path].append((got["push"]["worker"] - got["none"]["worker"])
                                              / got["push"]["pushes"])
        finally:
            await bench.redis.aclose()
    if not pushes:
        raise harness.BenchError("the subscribed players got no push: the push table played no turn's end")
    print(f"push/none, mean (min-max) over {args.rounds} rounds of {args.acts} acts (all: the three together), and "
          "the worker's CPU per push sent (the difference per act over the pushes per act):")
    for path in args.paths:
        spent = per_push[path]
        print(f"  {path:<13} " + ", ".join(f"{role} {_spread(ratios[path][role])}" for role in RATIOS)
              + (f"; the worker {statistics.mean(spent):.0f} µs per push ({min(spent):.0f}-{max(spent):.0f})"
                 if spent else ""))


def main(args: argparse.Namespace, act_path: ModuleType) -> int:
    """Start the service and the push service, and run the rounds (act_path: bench/act_path.py, which calls this,
    passed in rather than imported back: its tables, clock and act are the ones played)."""
    if unserved := set(args.paths) - set(SERVED):
        raise harness.BenchError(f"--push-subscribed plays the served paths ({', '.join(SERVED)}), not "
                                 f"{', '.join(sorted(unserved))}")
    peer = Service()
    try:
        with tempfile.TemporaryDirectory(prefix="firebreak-act-push-") as data:
            settings: dict[str, Any] = {
                "FIREBREAK_PUSH_ALLOWED_HOSTS": "127.0.0.1",  # the push service is on loopback
                "FIREBREAK_RATE_TOKEN_PER_SECOND": "100000",  # a bench's seat acts faster than a person
                "FIREBREAK_DATA_DIR": data}                   # the VAPID key the API and the worker share
            with harness.local_service(1, settings=settings) as service, harness.event_loop() as loop:
                loop.run(run(args, service, peer, act_path))
    finally:
        peer.server.shutdown()
        peer.server.server_close()
    return 0
