"""The first page of `me { matches }` for a player with 1,000 matches, against one `match` query and against the same
page for a player with 10 matches, in one process and one run (issue 24, section 2: the index makes a page cost the
same whatever the number of matches behind it).

Builds the real app (api.app.create_app) over a scratch redis-server, signs two guests in, gives them 1,000 and 10
matches through the lobby directly (a third where it is their turn, a third where it is the other seat's, a third
waiting), then runs interleaved rounds of GraphQL requests through httpx's in-process ASGI transport (no sockets):
the first page (20) of the big player's list, one `match` query (a seat's read of a started match: view and legal
actions), the first page of the small player's list (its 10 matches) and a page of 10 of the big player's (as many
rows: the cost of a page follows its rows, not the matches behind it). Prints wall-clock µs per request (client, app
and the local Redis's round trips together) and the ratios, with their spread over the rounds.

Run: python -m bench.my_matches [--matches 1000] [--requests 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import httpx

from bench.harness import graphql, in_process_app
from firebreak.matches.embedded import scratch_redis

GUEST = """mutation($input: SignInAsGuestInput!) { signInAsGuest(input: $input) {
  ... on Session { accessToken player { id } } } }"""
PAGE = """query($first: Int!) { me { matches(first: $first) { edges { cursor node { id title status version seat
  yourTurn clockDeadline lastActivity others { seat name kind } endReason winners outcome } }
  pageInfo { endCursor hasNextPage } } } }"""
MATCH = """query($id: ID!) { match(id: $id) { id status version you toAct legalActions view
  seats { seat name kind } } }"""
PATHS = ("page-1000", "match", "page-10", "page-1000-10")


async def _player(client: httpx.AsyncClient, name: str) -> tuple[str, str]:
    session = (await graphql(client, GUEST, {"input": {"name": name, "deviceId": f"bench-device-{name}-0123456789"}}))
    answer = session["signInAsGuest"]
    return answer["player"]["id"], answer["accessToken"]


async def _give(services: Any, player: str, count: int) -> str:
    """Give a player `count` matches through the lobby; return a started one's id."""
    lobby = services.lobby
    started = ""
    for n in range(count):
        kind = n % 3  # 0: my turn (seat 0 acts first with seed 0), 1: the other's turn (seed 1), 2: waiting
        created = await lobby.create("greatfire", 2, None, 0 if kind == 0 else 1)
        await lobby.join(created.match_id, 0, "me", player=player)
        if kind != 2:
            await lobby.join(created.match_id, 1, "other")
            started = started or created.match_id
    return started


async def run(args: argparse.Namespace, redis_url: str) -> dict[str, list[float]]:
    app, built = in_process_app(redis_url, FIREBREAK_RATE_REGISTRATION_BURST="1000")
    figures: dict[str, list[float]] = {path: [] for path in PATHS}
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            big, big_token = await _player(client, "big")
            small, small_token = await _player(client, "small")
            started = time.perf_counter()
            match_id = await _give(built[0], big, args.matches)
            await _give(built[0], small, 10)
            print(f"gave {args.matches} + 10 matches in {time.perf_counter() - started:.1f} s")
            requests = {
                "page-1000": lambda: graphql(client, PAGE, {"first": 20}, big_token),
                "match": lambda: graphql(client, MATCH, {"id": match_id}, big_token),
                "page-10": lambda: graphql(client, PAGE, {"first": 20}, small_token),  # its 10 matches
                "page-1000-10": lambda: graphql(client, PAGE, {"first": 10}, big_token),  # as many rows as page-10
            }
            first = await requests["page-1000"]()
            assert len(first["me"]["matches"]["edges"]) == 20
            for path in PATHS:  # warm every path up
                for _ in range(20):
                    await requests[path]()
            for round_ in range(args.rounds):
                for path in PATHS:
                    began = time.perf_counter()
                    for _ in range(args.requests):
                        await requests[path]()
                    figures[path].append((time.perf_counter() - began) / args.requests * 1e6)
                print(f"round {round_ + 1}: " + ", ".join(f"{path} {figures[path][-1]:.0f} µs" for path in PATHS))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000, help="the big player's matches")
    parser.add_argument("--requests", type=int, default=200, help="requests per path and round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with scratch_redis() as url:
        figures = asyncio.run(run(args, url))
    print(f"mean (min-max) over {args.rounds} interleaved rounds of {args.requests} requests, wall clock:")
    for path, values in figures.items():
        print(f"  {path:<13} {statistics.mean(values):>7.0f} µs ({min(values):.0f}-{max(values):.0f})")
    for name, top, over in (("page-1000 / match", "page-1000", "match"),
                            ("page-1000-10 / page-10", "page-1000-10", "page-10")):
        ratios = [a / b for a, b in zip(figures[top], figures[over], strict=True)]
        print(f"  {name:<23} {statistics.mean(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
