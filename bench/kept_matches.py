"""API memory per kept match: what FIREBREAK_KEPT_MATCHES costs an API process per match it keeps.

Plays --matches all-human matches of each title in-process (the service's own lobby and pipeline, random legal
actions, on a private redis-server), one act of each in turn, until each is at --version or over, with every one
of them kept (FIREBREAK_KEPT_MATCHES = --matches). Then it drops the kept matches and prints the memory that freed
(Python's allocations, traced by tracemalloc from before the first match), per kept match: the engine, the state's
stored text and the match's records as its last act left them.

Run: python -m bench.kept_matches [--matches 100] [--version 120] [--titles greatfire,london] [--seats 4]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tracemalloc

from redis.asyncio import Redis

from firebreak.domain import titles
from firebreak.matches.config import Settings
from firebreak.matches.embedded import scratch_redis
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.store import MatchStore


async def kept_bytes(redis_url: str, title: str, matches: int, seats: int, version: int, seed: int) -> tuple[int, int]:
    """Bytes freed by dropping the kept matches, and how many were kept."""
    settings = Settings(redis_url=redis_url, queue="firebreak-bench-kept", kept_matches=matches)
    redis = Redis.from_url(redis_url, decode_responses=True)
    store = MatchStore(redis, settings)
    scheduler = Scheduler(redis, settings)
    lobby, pipeline = Lobby(store, scheduler), Pipeline(store, scheduler)
    try:
        games = []
        for n in range(matches):
            created = await lobby.create(title, seats, None, seed + n)
            tokens = {seat: (await lobby.join(created.match_id, None, f"p{seat}")).token for seat in range(seats)}
            loaded = await store.load(created.match_id)
            assert loaded is not None
            games.append((created.match_id, tokens, titles.get(title).match_from_dict(loaded.data)))
        rng = random.Random(seed)
        playing = list(games)
        while playing:
            for game in list(playing):
                match_id, tokens, mirror = game
                if mirror.is_over() or mirror.version >= version or mirror.system_due() or not mirror.to_act():
                    playing.remove(game)
                    continue
                seat = mirror.to_act()[0]
                action = rng.choice(mirror.legal_actions(seat))
                outcome, _ = await pipeline.act(match_id, tokens[seat], action, mirror.version)
                assert outcome.kind == "accepted", outcome
                mirror.apply(seat, action)
        del games, playing
        kept = len(pipeline.recent)
        gc.collect()
        holding = tracemalloc.get_traced_memory()[0]
        pipeline.recent.clear()
        gc.collect()
        return holding - tracemalloc.get_traced_memory()[0], kept
    finally:
        await redis.aclose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100, help="matches kept per title")
    parser.add_argument("--version", type=int, default=120, help="the version each match is played to")
    parser.add_argument("--titles", default="greatfire,london")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with scratch_redis() as redis_url:
        tracemalloc.start()
        for title in args.titles.split(","):
            freed, kept = asyncio.run(kept_bytes(redis_url, title, args.matches, args.seats, args.version, args.seed))
            print(f"{title}: {kept} matches kept at version {args.version} (or their end): {freed / max(1, kept):,.0f} "
                  f"bytes each")
        tracemalloc.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
