"""The API's peak memory while it streams a player's data export (GET /v1/me/export), against the size of the
player's history: 100, 1,000 and 10,000 matches by default (issue 48, section 1: the export is written as it is read,
a page of matches at a time, so its memory should not follow the history's length).

Builds the real app (api.app.create_app) over a scratch redis-server, signs one guest in per size and gives it that
many matches through the lobby directly (each a waiting 2-seat match with the player in seat 0), then sends the
export request straight to the ASGI app, whose body chunks are counted and dropped as they arrive (httpx's ASGI
transport would keep the whole body: the client's memory, not the API's). The API's peak is measured with
tracemalloc, started just before the request: the most Python memory the request held at once beyond what was
allocated before it (Redis's own memory not included). Prints, per size, the document's bytes, its chunks and the
peak, and the peak per match.

Run: python -m bench.export [--sizes 100 1000 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import time
import tracemalloc
from typing import Any

import httpx

from bench.harness import graphql, in_process_app
from firebreak.matches.embedded import scratch_redis

GUEST = """mutation($input: SignInAsGuestInput!) { signInAsGuest(input: $input) {
  ... on Session { accessToken player { id } } } }"""


async def _give(services: Any, player: str, count: int) -> None:
    """Give a player `count` waiting matches through the lobby."""
    for n in range(count):
        created = await services.lobby.create("greatfire", 2, None, n)
        await services.lobby.join(created.match_id, 0, "me", player=player)


async def _export(app: Any, token: str) -> tuple[int, int, int, int]:
    """Send the export request to the ASGI app: status, body bytes and chunks (dropped as they arrive), and the
    request's peak traced memory in bytes."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": "/v1/me/export", "raw_path": b"/v1/me/export", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"bench"), (b"authorization", f"Bearer {token}".encode())],
             "client": ("127.0.0.1", 50000), "server": ("bench", 80)}
    got = {"status": 0, "bytes": 0, "chunks": 0}
    sent = asyncio.Event()  # the request's body goes once; then the client stays connected until the answer ends

    async def receive() -> dict[str, Any]:
        if not sent.is_set():
            sent.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # never: cancelled by the response once it is sent
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            got["status"] = message["status"]
        elif message["type"] == "http.response.body":
            got["bytes"] += len(message.get("body", b""))
            got["chunks"] += 1

    tracemalloc.start()
    try:
        await app(scope, receive, send)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return got["status"], got["bytes"], got["chunks"], peak


async def run(sizes: list[int], redis_url: str) -> list[tuple[int, int, int, int]]:
    """Per size: matches, document bytes, chunks, peak traced bytes."""
    app, built = in_process_app(redis_url, FIREBREAK_RATE_REGISTRATION_BURST="1000")
    rows: list[tuple[int, int, int, int]] = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for size in sizes:
                answer = (await graphql(client, GUEST, {"input": {"name": f"p{size}",
                                                                  "deviceId": f"bench-export-device-{size}-0123"}}))
                player, token = answer["signInAsGuest"]["player"]["id"], answer["signInAsGuest"]["accessToken"]
                began = time.perf_counter()
                await _give(built[0], player, size)
                print(f"gave {size} matches in {time.perf_counter() - began:.1f} s", flush=True)
                await _export(app, token)  # warm up (imports, caches), not counted
                status, size_bytes, chunks, peak = await _export(app, token)
                assert status == 200, status
                rows.append((size, size_bytes, chunks, peak))
                print(f"{size:>6} matches: document {size_bytes / 1024:>9.0f} KiB in {chunks:>6} chunks, "
                      f"API peak {peak / 1024:>7.0f} KiB ({peak / size:>6.0f} B a match)", flush=True)
    return rows


def main() -> int:
    """Run the bench and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000], help="history sizes")
    args = parser.parse_args()
    with scratch_redis() as url:
        rows = asyncio.run(run(args.sizes, url))
    smallest, largest = rows[0], rows[-1]
    print(f"history x{largest[0] / smallest[0]:.0f}: document x{largest[1] / smallest[1]:.0f}, "
          f"API peak x{largest[3] / smallest[3]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
