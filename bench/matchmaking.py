"""Matchmaking against a real service: seekers matched per second and the time from seek to match (p50 / p99).

Starts a scratch redis-server, the API under uvicorn and one RQ worker (bench/harness.py's LocalService), signs
`--seekers` guests in, then has them all seek one pool at once over REST (a burst), and waits until every seek is
matched. The times are the service's own: each seek's createdAt and the moment its table settled it (endedAt), so
the client's polling does not enter them. Throughput: seekers matched / (last match - first seek).

Run: python -m bench.matchmaking [--seekers 200] [--seats 2] [--api-processes 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

import httpx

from bench.harness import local_service

GUEST_PATH = "/v1/auth/guest"


async def _guests(base: str, count: int) -> list[str]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        async def one(n: int) -> str:
            answer = await client.post(GUEST_PATH, json={"name": f"seeker{n}",
                                                         "deviceId": f"bench-seeker-device-{n:06d}-0123"})
            answer.raise_for_status()
            return str(answer.json()["accessToken"])
        return list(await asyncio.gather(*(one(n) for n in range(count))))


async def _burst(base: str, tokens: list[str], title: str, seats: int) -> list[tuple[str, str]]:
    limits = httpx.Limits(max_connections=len(tokens) + 10)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        async def one(token: str) -> tuple[str, str]:
            answer = await client.post("/v1/seeks", json={"title": title, "seats": seats},
                                       headers={"authorization": f"Bearer {token}"})
            answer.raise_for_status()
            return token, str(answer.json()["id"])
        return list(await asyncio.gather(*(one(token) for token in tokens)))


async def _settled(base: str, seeks: list[tuple[str, str]], deadline: float) -> list[dict[str, float]]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        pending = dict(seeks)
        done: list[dict[str, float]] = []
        while pending and time.monotonic() < deadline:
            for token in list(pending):
                record = (await client.get(f"/v1/seeks/{pending[token]}",
                                           headers={"authorization": f"Bearer {token}"})).json()
                if record["status"] == "MATCHED":
                    done.append(record)
                    del pending[token]
            await asyncio.sleep(0.2)
        if pending:
            raise SystemExit(f"{len(pending)} seeks not matched in time")
        return done


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> int:
    """Run the bench and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seekers", type=int, default=200)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--title", default="")
    parser.add_argument("--api-processes", type=int, default=1)
    args = parser.parse_args()
    os.environ.setdefault("FIREBREAK_RATE_REGISTRATION_BURST", str(args.seekers * 2))
    os.environ.setdefault("FIREBREAK_RATE_CLIENT_BURST", str(args.seekers * 4))
    with local_service(args.api_processes) as service:
        title = args.title or httpx.get(f"{service.base}/v1/titles").json()["items"][0]["id"]
        tokens = asyncio.run(_guests(service.base, args.seekers))
        started = time.monotonic()
        seeks = asyncio.run(_burst(service.base, tokens, title, args.seats))
        records = asyncio.run(_settled(service.base, seeks, started + 300))
    waits = [r["endedAt"] - r["createdAt"] for r in records]
    span = max(r["endedAt"] for r in records) - min(r["createdAt"] for r in records)
    matches = len({r["matchId"] for r in records})
    print(f"matchmaking: {len(records)} seekers of {title} ({args.seats} seats) seeking at once, "
          f"{args.api_processes} API process(es), 1 worker")
    print(f"  matched: {len(records)} seekers into {matches} matches in {span:.2f} s "
          f"= {len(records) / span:.0f} seekers/s")
    print(f"  seek to match: p50 {percentile(waits, 0.5) * 1000:.0f} ms, p99 {percentile(waits, 0.99) * 1000:.0f} ms, "
          f"max {max(waits) * 1000:.0f} ms, mean {statistics.fmean(waits) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
