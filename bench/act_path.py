"""CPU of one act along its path, in one process: the pipeline alone, GraphQL `act`, REST with and without the match.

Builds the real app (api.app.create_app) over a private redis-server and plays one seeded 4-seat Great Fire match
(a new one when it ends) one act at a time through httpx's in-process ASGI transport (no sockets, no uvicorn), the
bench holding every seat and mirroring the match with the engine to choose legal actions. Prints the process's CPU
per act (client, app and mirror together: compare paths with each other, not with a server's figures) and the app's
alone (the CPU spent inside the app's ASGI calls, or inside the pipeline's act on the pipeline path: two thirds
of the whole is the client and the mirror, whose noise hides a change of the app's) for each path, in --rounds
interleaved rounds; --profile NAME prints a cProfile of that path's last round.

Run: python -m bench.act_path [--acts 800] [--rounds 2] [--paths pipeline,graphql,rest,rest-minimal] [--title london]
         [--players] [--profile graphql --sort cumulative [--profile-out F]] [--origin https://app.example]
         [--gc-young 700] [--instructions] [--protocol 2|3] [--push-subscribed [--settle 3]]

--instructions runs the bench under valgrind's callgrind (bench/instructions.py) and prints the instructions the
app runs per act on each path, the same from run to run whatever the machine's load (about 50 times slower: a few
hundred acts, e.g. --acts 200 --rounds 1): compare two trees by running it from each.

Each round also prints the garbage collector's collections (per 1000 acts, their CPU per act, the longest).

--players binds every seat to a signed-in guest player (acting with its access token), so each act also writes the
players' my-matches rows and feed events (matches/mine.py, matches/feed.py); by default seats are anonymous.

--labels (issue 50) runs each of --paths twice a round, with the labels of legal actions and events (api/labels.py)
and without (api.labels.ENABLED off), one after the other, the client asking for --language (German by default, so
the catalogues are read, not only the English ids), and prints the app's CPU per act with labels against without:
e.g. --labels --paths rest,graphql --acts 600 --rounds 6.

--push-subscribed (issue 48) instead starts the service as users do (the API by `firebreak api`, a worker, a Redis)
and a loopback push service, and plays signed-in players with every seat subscribed to Web Push against players
subscribed nowhere, interleaved, printing per act the API's, the worker's and Redis's CPU and the ratio push/none
with its spread (bench/act_push.py): e.g. --push-subscribed --paths rest --acts 400 --rounds 6.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import pstats
import random
import statistics
import sys
import time
from collections.abc import Awaitable
from typing import Any

import httpx

from bench import floor, instructions
from bench.harness import in_process_app
from firebreak.api import labels
from firebreak.api.metrics import collections_timed
from firebreak.domain import titles
from firebreak.domain.contract import Match
from firebreak.matches import connections
from firebreak.matches.embedded import scratch_redis

CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) {
  __typename ... on MatchCreated { matchId } } }"""
JOIN = """mutation($input: JoinMatchInput!) { joinMatch(input: $input) {
  __typename ... on SeatJoined { seat token } } }"""
GUEST = """mutation($input: SignInAsGuestInput!) { signInAsGuest(input: $input) {
  __typename ... on Session { accessToken } } }"""
ACT = """mutation($input: ActInput!) { act(input: $input) { __typename ... on ActionAccepted { version events } } }"""
PATHS = ("pipeline", "graphql", "rest", "rest-minimal", "floor", "rules")
LABELLED = ("graphql", "rest", "rest-minimal")  # the paths --labels compares
UNLABELLED = "/no-labels"  # --labels: the twin path run with labels off
FLOORS = {"floor": "/act", "rules": "/act-rules"}  # bench/floor.py's routes: the floor and the rules floor
SEATS = 4


class Table:
    """One match played by the bench: its id, seat tokens and the engine's mirror of it."""

    def __init__(self, client: httpx.AsyncClient, seed: int, players: bool = False, title: str = "greatfire",
                 device: str = "act-path-bench-device") -> None:
        self.client = client
        self.device = device  # the guest players' device ids: another prefix, other players
        self.title = title
        self.seed = seed
        self.players = players  # seats bound to signed-in players (acting with their access tokens), not anonymous
        self.accesses: list[str] = []
        self.match_id = ""
        self.tokens: dict[int, str] = {}
        self.mirror: Match | None = None
        self.floor_redis: Any = None  # set for a floor path's table: the floor's keys are seeded from each new match
        self.floor_version = 0  # the version the floor's copy of the match is at

    async def start(self) -> None:
        """Create and fill a new match, and its mirror."""
        self.seed += 1
        created = await self._graphql(CREATE, {"input": {"title": self.title, "seats": SEATS, "seed": self.seed}})
        self.match_id = created["createMatch"]["matchId"]
        self.tokens = {}
        if self.players and not self.accesses:
            for n in range(SEATS):
                device = f"{self.device}-{n}"
                session = await self._graphql(GUEST, {"input": {"name": f"p{n}", "deviceId": device}})
                self.accesses.append(session["signInAsGuest"]["accessToken"])
        for n in range(SEATS):
            access = self.accesses[n] if self.players else None
            joined = (await self._graphql(JOIN, {"input": {"matchId": self.match_id, "name": f"p{n}"}},
                                          access))["joinMatch"]
            self.tokens[joined["seat"]] = access or joined["token"]
        title = titles.get(self.title)
        self.mirror = title.new_match(seats=SEATS, seed=self.seed, options=title.check_options(SEATS, None))
        if self.floor_redis is not None:
            self.floor_version = await floor.copy_state(self.floor_redis, self.match_id)

    async def _graphql(self, query: str, variables: dict[str, Any], token: str | None = None) -> Any:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        answer = await self.client.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
        return answer.json()["data"]


class AppClock:
    """The app as the client's transport calls it, adding up the CPU spent inside its calls (requests are sent one at
    a time, so what runs meanwhile is the app's own work and the event loop's)."""

    def __init__(self, app: Any, counter: instructions.Counter | None = None) -> None:
        self.app = app
        self.cpu = 0.0
        self.counter = counter  # under callgrind: the app's instructions are counted too
        self.paused = False  # while a new match is created and joined: not an act's work

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.paused:
            await self.app(scope, receive, send)
            return
        with self.counted():
            started = time.process_time()
            try:
                await self.app(scope, receive, send)
            finally:
                self.cpu += time.process_time() - started

    def counted(self) -> contextlib.AbstractContextManager[None]:
        """Count the block's instructions (under callgrind; else nothing)."""
        return self.counter.counting() if self.counter else contextlib.nullcontext()


async def play_act(path: str, table: Table, services: Any, rng: random.Random, clock: AppClock,
               floor_client: httpx.AsyncClient | None = None) -> None:
    """One act along the path, checked accepted, then applied to the mirror."""
    if table.mirror is None or table.mirror.is_over():
        clock.paused = True
        try:
            await table.start()
        finally:
            clock.paused = False
    mirror = table.mirror
    assert mirror is not None
    seat = mirror.to_act()[0]
    action = rng.choice(mirror.legal_actions(seat))
    token, version = table.tokens[seat], mirror.version
    if path in FLOORS:
        assert floor_client is not None
        answer = await floor_client.post(FLOORS[path], json={"matchId": table.match_id, "seat": seat, "action": action,
                                                              "expectedVersion": table.floor_version})
        accepted = answer.status_code == 200
        if accepted:
            table.floor_version = answer.json()["version"]
    elif path == "pipeline":
        with clock.counted():
            started = time.process_time()
            outcome, _ = await services.pipeline.act(table.match_id, token, action, version)
            clock.cpu += time.process_time() - started
        accepted = outcome.kind == "accepted"
    elif path == "graphql":
        data = await table._graphql(ACT, {"input": {"matchId": table.match_id, "action": action,
                                                    "expectedVersion": version}}, token)
        accepted = data["act"]["__typename"] == "ActionAccepted"
    else:
        headers = {"authorization": f"Bearer {token}", **({"prefer": "return=minimal"} if path == "rest-minimal"
                                                            else {})}
        answer = await table.client.post(f"/v1/matches/{table.match_id}/actions", headers=headers,
                                         json={"action": action, "expectedVersion": version})
        accepted = answer.status_code == 200
    if not accepted:
        raise RuntimeError(f"{path}: the act was refused; the mirror and the service disagree")
    mirror.apply(seat, action)


class Collections:
    """The garbage collector's collections while a block runs: how many, and the CPU each took."""

    def __init__(self) -> None:
        self.cpu: list[float] = []

    def counted(self) -> contextlib.AbstractContextManager[None]:
        """Count the collections of the block."""
        return collections_timed(lambda _, seconds: self.cpu.append(seconds), time.process_time)

    def line(self, acts: int) -> str:
        """Collections per 1000 acts, their CPU per act, the longest one."""
        longest = max(self.cpu, default=0.0)
        return (f"collector: {len(self.cpu) / acts * 1000:.0f} per 1000 acts, {sum(self.cpu) / acts * 1e6:.0f} µs "
                f"CPU per act, longest {longest * 1000:.2f} ms (threshold {gc.get_threshold()[0]})")


async def run(args: argparse.Namespace, redis_url: str) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    # --origin: CORS on for that origin (FIREBREAK_CORS_ORIGINS), every request sent from it as a browser would
    # a token's mutations limited at 100,000/s, not 100/s: one London seat makes many steps in a row, faster than
    # a person (the limit is still checked, as every act's is)
    extra = {"FIREBREAK_CORS_ORIGINS": args.origin} if args.origin else {}
    if args.gc_young:
        extra["FIREBREAK_GC_YOUNG"] = str(args.gc_young)
    app, built = in_process_app(redis_url, FIREBREAK_RATE_TOKEN_PER_SECOND="100000", **extra)
    headers = {"origin": args.origin} if args.origin else {}
    if args.labels:
        headers["accept-language"] = args.language
    figures: dict[str, list[float]] = {path: [] for path in args.paths}
    app_figures: dict[str, list[float]] = {path: [] for path in args.paths}
    counter = instructions.Counter() if instructions.active() else None
    clock = AppClock(app, counter)
    floors = [path for path in args.paths if path in FLOORS]
    floor_app = floor.create_app(redis_url, args.title)  # served only when a floor path is asked for
    floor_clock = AppClock(floor_app, counter)
    floor_redis = connections.async_client(redis_url, decode_responses=True)
    async with app.router.lifespan_context(app), floor_app.router.lifespan_context(floor_app):
        transport, floor_transport = httpx.ASGITransport(app=clock), httpx.ASGITransport(app=floor_clock)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench", headers=headers) as client, \
                httpx.AsyncClient(transport=floor_transport, base_url="http://floor") as floors_client:
            # the service's paths share one match; each floor path plays its own, copied into the floor's keys
            tables = {path: Table(client, args.seed, args.players, args.title) for path in ("service", *floors)}
            for path in floors:
                tables[path].floor_redis = floor_redis
            rng = random.Random(args.seed)

            def step(path: str) -> Awaitable[None]:
                base = path.removesuffix(UNLABELLED)
                labels.ENABLED = base == path  # (the twin of --labels runs without)
                table = tables[base if base in FLOORS else "service"]
                return play_act(base, table, built[0], rng, clock, floors_client)

            for path in args.paths:  # warm every path up
                for _ in range(50):
                    await step(path)
            if counter:
                counter.dump("warm-up")  # not reported
            for round_ in range(args.rounds):
                for path in args.paths:
                    last = path == args.profile and round_ == args.rounds - 1
                    profile = cProfile.Profile(time.process_time) if last else None  # CPU time, not the wall's
                    collections = Collections()
                    clock.cpu = floor_clock.cpu = 0.0
                    started = time.process_time()
                    if profile:
                        profile.enable()
                    with collections.counted():
                        for _ in range(args.acts):
                            await step(path)
                    if profile:
                        profile.disable()
                    figures[path].append((time.process_time() - started) / args.acts * 1e6)
                    if counter:
                        counter.dump(path)
                    app_figures[path].append((clock.cpu + floor_clock.cpu) / args.acts * 1e6)
                    print(f"round {round_ + 1} {path:<13} {figures[path][-1]:>7.0f} µs CPU per act, the app "
                          f"{app_figures[path][-1]:.0f}"
                          + (" (profiled)" if profile else "") + f"; {collections.line(args.acts)}")
                    if profile:
                        pstats.Stats(profile).sort_stats(args.sort).print_stats(40)
                        if args.profile_out:
                            profile.dump_stats(args.profile_out)
    await floor_redis.aclose()
    labels.ENABLED = True
    return figures, app_figures


def labels_line(path: str, app_figures: dict[str, list[float]]) -> str:
    """--labels: the app's CPU per act with labels against without, its ratio (mean, min-max of the rounds')."""
    on, off = app_figures[path], app_figures[path + UNLABELLED]
    ratios = [a / b for a, b in zip(on, off, strict=True)]
    return (f"  {path:<13} with labels {statistics.mean(on):.0f} µs, without {statistics.mean(off):.0f} µs: "
            f"{statistics.mean(on) - statistics.mean(off):+.0f} µs, ratio {statistics.mean(ratios):.3f} "
            f"({min(ratios):.3f}-{max(ratios):.3f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--acts", type=int, default=800, help="acts per path and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--paths", type=lambda text: text.split(","), default=list(PATHS),
                        help=f"comma-separated, from {', '.join(PATHS)}")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--title", default="greatfire", choices=("greatfire", "london"), help="the title played")
    parser.add_argument("--players", action="store_true",
                        help="seat signed-in players (each act then updates their my-matches rows and feeds)")
    parser.add_argument("--profile", choices=PATHS, help="profile this path's last round (its figure then counts "
                                                         "the profiler too)")
    parser.add_argument("--sort", default="cumulative", help="the profile's order (a pstats key)")
    parser.add_argument("--profile-out", help="also write the profile to this file (pstats format)")
    parser.add_argument("--gc-young", type=int, help="the app's FIREBREAK_GC_YOUNG (the collector's young threshold)")
    parser.add_argument("--origin", help="turn CORS on for this origin and send it with every request (e.g. "
                                         "https://app.example)")
    parser.add_argument("--protocol", type=int, choices=(2, 3), default=connections.PROTOCOL,
                        help=f"the Redis protocol the app's clients speak (default: the service's, RESP"
                             f"{connections.PROTOCOL})")
    parser.add_argument("--push-subscribed", action="store_true",
                        help="the served comparison of issue 48 (bench/act_push.py): the API, a worker and a push "
                             "service started, every seat's player subscribed to Web Push against none, "
                             "interleaved; --paths from graphql, rest, rest-minimal (default rest)")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="with --push-subscribed: seconds the worker is given after each round at least")
    parser.add_argument("--labels", action="store_true",
                        help="each of --paths (from graphql, rest, rest-minimal) with labels and without, interleaved")
    parser.add_argument("--language", default="de", help="with --labels: the Accept-Language the client sends")
    parser.add_argument("--instructions", action="store_true",
                        help="count the app's instructions per act under callgrind (needs valgrind and a C compiler)")
    args = parser.parse_args()
    connections.PROTOCOL = args.protocol
    if args.push_subscribed:
        if args.instructions or args.profile:
            parser.error("--push-subscribed measures the served processes: no --instructions or --profile")
        if args.paths == list(PATHS):
            args.paths = ["rest"]
        from bench import act_push  # only when asked: it starts a push service

        return act_push.main(args, sys.modules[__name__])
    if args.players and "pipeline" in args.paths:
        parser.error("--players: the pipeline path acts with seat tokens; leave it out of --paths")
    if unknown := set(args.paths) - set(PATHS):
        parser.error(f"unknown paths: {', '.join(sorted(unknown))}")
    if args.labels:
        if args.paths == list(PATHS):
            args.paths = ["rest", "graphql"]
        if set(args.paths) - set(LABELLED):
            parser.error(f"--labels compares {', '.join(LABELLED)} only")
        args.paths = [twin for path in args.paths for twin in (path, path + UNLABELLED)]
    if args.instructions and not instructions.active():
        totals = instructions.under_callgrind(["bench.act_path", *sys.argv[1:]])
        print(f"instructions the app ran per act (callgrind), {args.rounds} rounds of {args.acts} acts:")
        for path in args.paths:
            print(f"  {path:<13} {totals.get(path, 0) / (args.rounds * args.acts):>12,.0f}")
        return 0
    with scratch_redis() as url:
        figures, app_figures = asyncio.run(run(args, url))
    print(f"mean (min-max) over {args.rounds} rounds of {args.acts} acts, client and app CPU together, and the app's:")
    for path, values in figures.items():
        app_values = app_figures[path]
        print(f"  {path:<13} {statistics.mean(values):>7.0f} µs ({min(values):.0f}-{max(values):.0f}), the app "
              f"{statistics.mean(app_values):.0f} µs ({min(app_values):.0f}-{max(app_values):.0f})")
    if args.labels:
        print(f"the app's CPU per act with labels ({args.language}) against without, each round's pair run "
              "one after the other:")
        for path in figures:
            if not path.endswith(UNLABELLED):
                print(labels_line(path, app_figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
