"""A hand-written tic-tac-toe endpoint on Redis: the floor of bench/peer_bgio (issue 28).

What any Python HTTP service that keeps its matches in Redis must do per request, and no more: the same REST /v1
surface driver.mjs plays against Firebreak (create a match, take a seat and get its token, read the match, post a
move), on Starlette under uvicorn (the service's loop and HTTP implementation) with redis-py's own connection
class, as bench/floor.py is for the titles. Every move reads the match's hash in one round trip, checks the
bearer token against the seat's stored hash, the version and the rules of tic-tac-toe, and commits with one
compare-and-set script (bench/floor.py's) that writes the state, appends a log entry and adds a stream entry
(and sets an expiry once the match is over). No engine, no middleware, no rate limit, no idempotency, no
archive, no worker: against boardgame.io it shows what the fixed shape (Python, HTTP for each move, Redis for each
commit) costs by itself, and Firebreak's cost beyond it is the service's own.

Keys as bench/floor.py's (`floor:{<id>}:state`, `:log`, `:events`; the state hash also holds joined, the seats
taken, and token0 and token1, the seats' tokens as SHA-256 hashes, as the service keeps them).

Run: python -m bench.peer_bgio.floor --port P --redis-url redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import hmac
import json
import secrets
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from redis.asyncio.connection import Connection
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from bench.floor import COMMIT, events_key, log_key, state_key
from firebreak.api.services import SOCKET_TIMEOUT
from firebreak.matches import connections

SEATS = 2
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
FINISHED_TTL = 3600  # seconds a finished match is kept

# KEYS: state; ARGV: seats, token hash. The next free seat, or -1 when every seat is taken.
_JOIN = """
local n = redis.call('HINCRBY', KEYS[1], 'joined', 1)
if n > tonumber(ARGV[1]) then
  redis.call('HINCRBY', KEYS[1], 'joined', -1)
  return -1
end
redis.call('HSET', KEYS[1], 'token' .. (n - 1), ARGV[2])
return n - 1
"""

def token_hash(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def winner(cells: list[int | None]) -> int | None:
    """The seat holding three cells in a line, else None."""
    for a, b, c in LINES:
        if cells[a] is not None and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


def error(status: int, code: str, **more: Any) -> JSONResponse:
    """A refusal: {code, ...} with its HTTP status."""
    return JSONResponse({"code": code, **more}, status_code=status)


def answer(match_id: str, version: int, board: dict[str, Any], started: bool = True) -> dict[str, Any]:
    """The match as the driver reads it (Firebreak's field names)."""
    status = "OVER" if board["over"] else "ACTIVE" if started else "WAITING"
    return {"matchId": match_id, "version": version, "status": status,
            "toAct": [board["turn"]] if status == "ACTIVE" else [], "view": {"cells": board["cells"]},
            "winner": board["winner"]}


def started(stored: dict[str, str]) -> bool:
    """Whether every seat is taken."""
    return int(stored.get("joined", 0)) >= SEATS


def seat_of(stored: dict[str, str], request: Request) -> int | None:
    """The seat whose token the request bears, else None."""
    bearer = request.headers.get("authorization", "")
    if not bearer.startswith("Bearer "):
        return None
    hashed = token_hash(bearer[len("Bearer "):])
    for seat in range(SEATS):
        if hmac.compare_digest(stored.get(f"token{seat}", ""), hashed):
            return seat
    return None


def create_app(redis_url: str) -> Starlette:
    """The floor app over the Redis at redis_url (client options as the service's, on redis-py's own
    connection class)."""
    redis: Any = connections.async_client(redis_url, connection_class=Connection, decode_responses=True,
                                     max_connections=2000, socket_timeout=SOCKET_TIMEOUT)
    join_script = connections.Script(redis, _JOIN)
    commit_script = connections.Script(redis, COMMIT)

    async def create(request: Request) -> JSONResponse:
        body = await request.json()
        if body.get("seats", SEATS) != SEATS:
            return error(400, "BAD_OPTIONS", message="tic-tac-toe has two seats")
        match_id = secrets.token_urlsafe(12)
        board = {"cells": [None] * 9, "turn": 0, "winner": None, "over": False}
        await redis.hset(state_key(match_id), mapping={"v": 0, "data": json.dumps(board), "joined": 0})
        return JSONResponse({"matchId": match_id, "version": 0}, status_code=201)

    async def join(request: Request) -> JSONResponse:
        match_id = request.path_params["match_id"]
        if not await redis.exists(state_key(match_id)):
            return error(404, "MATCH_NOT_FOUND")
        token = secrets.token_urlsafe(24)
        seat = int(await join_script(keys=[state_key(match_id)], args=[SEATS, token_hash(token)]))
        if seat < 0:
            return error(409, "MATCH_FULL")
        return JSONResponse({"seat": seat, "token": token}, status_code=201)

    async def read(request: Request) -> JSONResponse:
        match_id = request.path_params["match_id"]
        stored = await redis.hgetall(state_key(match_id))
        if not stored:
            return error(404, "MATCH_NOT_FOUND")
        if seat_of(stored, request) is None:
            return error(401, "UNAUTHENTICATED")
        return JSONResponse(answer(match_id, int(stored["v"]), json.loads(stored["data"]), started(stored)))

    async def act(request: Request) -> JSONResponse:
        match_id = request.path_params["match_id"]
        body = await request.json()
        stored = await redis.hgetall(state_key(match_id))
        if not stored:
            return error(404, "MATCH_NOT_FOUND")
        seat = seat_of(stored, request)
        if seat is None:
            return error(401, "UNAUTHENTICATED")
        if not started(stored):
            return error(422, "NOT_STARTED")
        version = int(stored["v"])
        if body.get("expectedVersion", version) != version:
            return error(409, "STALE_VERSION", currentVersion=version)
        board = json.loads(stored["data"])
        action = body.get("action") or {}
        cell = action.get("cell")
        if board["over"] or board["turn"] != seat:
            return error(422, "NOT_YOUR_TURN")
        if action.get("type") != "mark" or type(cell) is not int or not 0 <= cell < 9:
            return error(422, "ILLEGAL_ACTION")
        if board["cells"][cell] is not None:
            return error(422, "ILLEGAL_ACTION", message="that cell is marked")
        board["cells"][cell] = seat
        board["winner"] = winner(board["cells"])
        board["over"] = board["winner"] is not None or None not in board["cells"]
        board["turn"] = 1 - seat
        events = [{"type": "marked", "seat": seat, "cell": cell}]
        done, now = await commit_script(
            keys=[state_key(match_id), log_key(match_id), events_key(match_id)],
            args=[version, json.dumps(board), json.dumps({"seat": seat, "action": action}), json.dumps(events),
                  *([FINISHED_TTL] if board["over"] else [])])
        if not int(done):
            return error(409, "STALE_VERSION", currentVersion=int(now))
        return JSONResponse({"match": answer(match_id, int(now), board), "events": events})

    async def healthz(_: Request) -> JSONResponse:
        await redis.ping()
        return JSONResponse({"ok": True})

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        gc.freeze()  # as the service does (api/app.py)
        yield
        await redis.aclose()

    return Starlette(routes=[
        Route("/v1/matches", create, methods=["POST"]),
        Route("/v1/matches/{match_id}/seats", join, methods=["POST"]),
        Route("/v1/matches/{match_id}", read, methods=["GET"]),
        Route("/v1/matches/{match_id}/actions", act, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
    ], lifespan=lifespan)


def main() -> None:
    """Serve the floor app on loopback under uvicorn."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--redis-url", required=True)
    args = parser.parse_args()
    uvicorn.run(create_app(args.redis_url), host="127.0.0.1", port=args.port, access_log=False,
                log_level="warning")


if __name__ == "__main__":
    main()
