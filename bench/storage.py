"""Redis bytes per match: a live match at a given version and a finished one, for each title.

Plays all-human matches in-process (the service's own lobby and pipeline, random legal actions) on a private
redis-server, and sums MEMORY USAGE over every key of each match (whatever the store's layout: the keys are found
by their {match id} hash tag), first at --version, then once the match is over. Idempotency keys are sent with
every act when --idempotency is given (they add their records to the figures).

Run: python -m bench.storage [--matches 5] [--version 200] [--titles greatfire,london] [--seats 4] [--idempotency]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics

from redis.asyncio import Redis

from firebreak.domain import titles
from firebreak.matches.config import Settings
from firebreak.matches.embedded import scratch_redis
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.store import MatchStore, engine

TARGET_LIVE = 16 * 1024
TARGET_FINISHED = 8 * 1024


async def match_bytes(redis: Redis, match_id: str) -> tuple[int, dict[str, int]]:
    """MEMORY USAGE summed over the match's keys, and per key kind (the key name's last part)."""
    per_key: dict[str, int] = {}
    async for key in redis.scan_iter(match=f"match:{{{match_id}}}:*", count=1000):
        per_key[key.rsplit(":", 1)[-1]] = int(await redis.memory_usage(key, samples=0) or 0)
    return sum(per_key.values()), per_key


async def play(lobby: Lobby, pipeline: Pipeline, redis: Redis, title: str, seats: int, seed: int, version: int,
               idempotency: bool) -> tuple[tuple[int, dict[str, int]] | None, tuple[int, dict[str, int]], int]:
    """One match to its end: its bytes at `version` (None if it ended first), its bytes when over, its length."""
    created = await lobby.create(title, seats, None, seed)
    tokens = {}
    for n in range(seats):
        tokens[n] = (await lobby.join(created.match_id, None, f"p{n}")).token
    rng = random.Random(seed)
    at_version = None
    while True:
        loaded = await pipeline.store.load(created.match_id)
        assert loaded is not None
        if loaded.version == version:
            at_version = await match_bytes(redis, created.match_id)
        if loaded.status == "over":
            return at_version, await match_bytes(redis, created.match_id), loaded.version
        match = engine(loaded)
        seat = match.to_act()[0]
        action = rng.choice(match.legal_actions(seat))
        key = f"bench-{loaded.version}" if idempotency else None
        outcome, _ = await pipeline.act(created.match_id, tokens[seat], action, loaded.version, key)
        assert outcome.kind == "accepted", outcome


def _line(label: str, figures: list[tuple[int, dict[str, int]]], target: int) -> str:
    if not figures:
        return f"{label:<34} (no match reached it)"
    totals = [total for total, _ in figures]
    kinds: dict[str, list[int]] = {}
    for _, per_key in figures:
        for kind, size in per_key.items():
            kinds.setdefault(kind, []).append(size)
    parts = " ".join(f"{kind} {sum(v) / len(figures) / 1024:.1f}K" for kind, v in sorted(kinds.items()))
    mean = statistics.mean(totals)
    verdict = "met" if mean < target else "MISSED"
    return (f"{label:<34} {mean:>8,.0f}  min {min(totals):,} max {max(totals):,}  target < {target:,}: {verdict}"
            f"  ({parts})")


async def run(args: argparse.Namespace, redis_url: str) -> list[str]:
    settings = Settings(redis_url=redis_url, queue="firebreak-bench-storage")
    redis = Redis.from_url(redis_url, decode_responses=True)
    store = MatchStore(redis, settings)
    scheduler = Scheduler(redis, settings)
    lobby, pipeline = Lobby(store, scheduler), Pipeline(store, scheduler)
    lines = []
    try:
        for title in args.titles.split(","):
            titles.get(title)
            live: list[tuple[int, dict[str, int]]] = []
            over: list[tuple[int, dict[str, int]]] = []
            lengths = []
            for n in range(args.matches):
                at, end, length = await play(lobby, pipeline, redis, title, args.seats, args.seed + n, args.version,
                                             args.idempotency)
                if at is not None:
                    live.append(at)
                over.append(end)
                lengths.append(length)
            lines.append(_line(f"{title}: live at version {args.version}", live, TARGET_LIVE))
            lines.append(_line(f"{title}: finished (mean {statistics.mean(lengths):.0f} steps)", over,
                               TARGET_FINISHED))
    finally:
        await redis.aclose()
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=5, help="matches per title")
    parser.add_argument("--version", type=int, default=200, help="the live match's version to measure at")
    parser.add_argument("--titles", default="greatfire,london", help="comma-separated title ids")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--idempotency", action="store_true", help="send an idempotency key with every act")
    args = parser.parse_args()
    with scratch_redis() as url:
        lines = asyncio.run(run(args, url))
    print(f"Redis bytes per match (MEMORY USAGE over the match's keys), {args.matches} matches per title, "
          f"{args.seats} seats" + (", an idempotency key on every act" if args.idempotency else ""))
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
