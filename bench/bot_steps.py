"""Worker cost of bot steps: all-bot matches played to the end by one worker; CPU per step by role.

For each layout (one Redis, or a 3-master Redis Cluster beside a queue Redis) the bench starts the service as
bench/api_load.py does (one API process, one worker), creates --matches all-bot matches of --seats seats at
--level, waits until every one is over, and prints the steps played (the sum of the final versions), the
worker's CPU per step, the Redis servers' CPU per step and the steps per second of wall time.

Run: python -m bench.bot_steps [--matches 20] [--seats 4] [--level random] [--layout single|cluster|both]
"""

from __future__ import annotations

import argparse
import sys
import time

import httpx

from bench.harness import cpu_seconds, local_service

CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) {
  __typename ... on MatchCreated { matchId hostToken } ... on Problem { code message } } }"""
BOT = """mutation($input: AddBotInput!) { addBot(input: $input) { __typename ... on Problem { code message } } }"""
STATUS = """query($id: ID!) { match(id: $id) { status version } }"""
DEADLINE = 600.0


def gql(http: httpx.Client, query: str, variables: dict[str, object], token: str | None = None) -> dict[str, object]:
    """POST a GraphQL request that must succeed; its data."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    body = http.post("/graphql", json={"query": query, "variables": variables}, headers=headers).json()
    if body.get("errors"):
        raise RuntimeError(str(body["errors"]))
    data: dict[str, object] = body["data"]
    return data


def play(layout: str, matches: int, seats: int, level: str) -> str:
    """One layout's line."""
    with local_service(1, None, layout) as service, httpx.Client(base_url=service.base, timeout=60) as http:
        pids = service.pids()
        workers = {role: pid for role, pid in pids.items() if role == "worker"}
        redises = {role: pid for role, pid in pids.items() if "redis" in role}
        before = {role: cpu_seconds(pid) or 0.0 for role, pid in {**workers, **redises}.items()}
        started = time.monotonic()
        ids = []
        for n in range(matches):
            created: dict[str, str] = gql(http, CREATE, {"input": {"title": "greatfire", "seats": seats,
                                                                   "seed": 7000 + n}})["createMatch"]  # type: ignore[assignment]
            for _ in range(seats):
                gql(http, BOT, {"input": {"matchId": created["matchId"], "level": level}}, created["hostToken"])
            ids.append(created["matchId"])
        versions: dict[str, int] = {}
        while len(versions) < len(ids):
            if time.monotonic() - started > DEADLINE:
                raise RuntimeError(f"{len(ids) - len(versions)} matches unfinished after {DEADLINE:.0f} s")
            for match_id in ids:
                if match_id not in versions:
                    m: dict[str, object] = gql(http, STATUS, {"id": match_id})["match"]  # type: ignore[assignment]
                    if m["status"] == "OVER":
                        versions[match_id] = int(str(m["version"]))
            time.sleep(0.5)
        wall = time.monotonic() - started
        after = {role: cpu_seconds(pid) or 0.0 for role, pid in {**workers, **redises}.items()}
    steps = sum(versions.values())
    worker = sum(after[r] - before[r] for r in workers)
    redis = sum(after[r] - before[r] for r in redises)
    return (f"{layout:<8}  {steps:6d} steps in {wall:6.1f} s  worker CPU {worker / steps * 1000:6.2f} ms/step  "
            f"Redis CPU {redis / steps * 1000:5.2f} ms/step  {steps / wall:6.1f} steps/s")


def main() -> int:
    """Parse the options and print a line per layout."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--level", default="random", help="the bots' level (random, greedy, search)")
    parser.add_argument("--layout", choices=("single", "cluster", "both"), default="both")
    args = parser.parse_args()
    layouts = ["single", "cluster"] if args.layout == "both" else [args.layout]
    for layout in layouts:
        print(play(layout, args.matches, args.seats, args.level), flush=True)
    print(f"command  python -m bench.bot_steps {' '.join(sys.argv[1:])}".rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
