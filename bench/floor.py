"""The floor of one act: a bare Starlette app doing the minimal Redis and JSON work of an accepted act, no more.

`POST /act` with {matchId, expectedVersion, action} reads the match's state hash in one round trip, decodes the
state data and encodes it again (the JSON work of one step, with the service's codec), then commits with one
compare-and-set script that checks the version, writes the state, appends a log entry and adds a stream entry:
matches/store.py's commit without the meta, idempotency and expiry writes. It answers {"version": n}, 409
{"currentVersion": n} on a stale version and 404 for a match it does not hold. No engine, no authentication, no
middleware: whatever the service spends per act beyond this is the service's own cost (bench/act_cost.py
compares the two). It talks to Redis with redis-py's own connection class, the reference of a straightforward
endpoint; `POST /act-lean` is the same on the service's connection class (matches.connections.LeanConnection),
so that a change of client is not mistaken for a change of the API.

`POST /act-rules` with {matchId, expectedVersion, seat, action} does the same and the one thing more that the
service's shape requires of every act: it builds the engine's match from the state, applies the action (422 if
the rules refuse it) and stores the state and events the engine answers. The service's cost beyond this floor is
what its API adds to the rules: HTTP surface, authentication, idempotency, rate limits, metrics.

Its keys are its own (`floor:{<id>}:state`, `:log`, `:events`), so a service on the same Redis is untouched;
copy_state() seeds them from a live match of the service.

Run: python -m bench.floor --port P --redis-url redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import contextlib
import gc
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from redis.asyncio.connection import Connection
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from firebreak.api.services import SOCKET_TIMEOUT
from firebreak.domain import titles
from firebreak.domain.errors import RulesError
from firebreak.matches import connections, keys, packing

# KEYS: state, log, events; ARGV: version, data, log entry, events[, ttl: the keys expire (a finished match, in
# bench/peer_bgio/floor.py)]. As matches/store.py's _COMMIT up to the meta.
COMMIT = """
local v = tonumber(redis.call('HGET', KEYS[1], 'v'))
if v ~= tonumber(ARGV[1]) then return {0, v or -1} end
local nv = v + 1
redis.call('HSET', KEYS[1], 'v', nv, 'data', ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[3], nv .. '-0', 'events', ARGV[4])
if ARGV[5] then
  for i = 1, 3 do redis.call('EXPIRE', KEYS[i], tonumber(ARGV[5])) end
end
return {1, nv}
"""


def state_key(match_id: str) -> str:
    """Hash: v (version) and data, as the service's match state."""
    return f"floor:{{{match_id}}}:state"


def log_key(match_id: str) -> str:
    """List: one JSON entry per accepted act."""
    return f"floor:{{{match_id}}}:log"


def events_key(match_id: str) -> str:
    """Stream: entry id "<version>-0" per accepted act."""
    return f"floor:{{{match_id}}}:events"


async def copy_state(redis: Any, match_id: str) -> int:
    """Make the floor's state of a match the service's stored one (version and data), with an empty log and
    stream; return the version. The client must decode responses."""
    stored = await redis.hgetall(keys.state(match_id))
    if not stored:
        raise LookupError(f"the service holds no match {match_id!r}")
    pipe = redis.pipeline(transaction=False)
    pipe.delete(state_key(match_id), log_key(match_id), events_key(match_id))
    pipe.hset(state_key(match_id), mapping={"v": stored["v"], "data": stored["data"]})
    await pipe.execute()
    return int(stored["v"])


def create_app(redis_url: str, title: str = "greatfire") -> Starlette:
    """The floor app over the Redis at redis_url (client options as the service's, matches/connections.py, on
    redis-py's own connection class: the reference); /act-lean is the floor on the service's connection class
    (connections.LeanConnection), so that a client change is not mistaken for an API change; the rules floor
    plays the title's engine."""
    options: dict[str, Any] = {"decode_responses": True, "max_connections": 2000, "socket_timeout": SOCKET_TIMEOUT}
    plain = connections.async_client(redis_url, connection_class=Connection, **options)
    lean = connections.async_client(redis_url, **options)
    commits = {id(plain): connections.Script(plain, COMMIT), id(lean): connections.Script(lean, COMMIT)}
    engine = titles.get(title)

    async def step(request: Request, redis: Any, rules: bool) -> JSONResponse:
        body = await request.json()
        match_id, expected, action = str(body["matchId"]), int(body["expectedVersion"]), body["action"]
        stored = await redis.hgetall(state_key(match_id))
        if not stored:
            return JSONResponse({"code": "MATCH_NOT_FOUND"}, status_code=404)
        if int(stored["v"]) != expected:
            return JSONResponse({"code": "STALE_VERSION", "currentVersion": int(stored["v"])}, status_code=409)
        if rules:
            match = engine.match_from_dict(packing.loads(stored["data"]))
            try:
                events = match.apply(int(body["seat"]), action)
            except RulesError as exc:
                return JSONResponse({"code": exc.code, "message": str(exc)}, status_code=422)
            data = packing.dumps(match.to_dict())
        else:
            data = packing.dumps(packing.loads(stored["data"]))
            events = [{"type": "floorAct", "action": action}]
        done, version = await commits[id(redis)](
            keys=[state_key(match_id), log_key(match_id), events_key(match_id)],
            args=[expected, data, packing.dumps({"action": action}), packing.dumps(events)])
        if not int(done):
            return JSONResponse({"code": "STALE_VERSION", "currentVersion": int(version)}, status_code=409)
        return JSONResponse({"version": int(version)})

    async def act(request: Request) -> JSONResponse:
        return await step(request, plain, rules=False)

    async def act_lean(request: Request) -> JSONResponse:
        return await step(request, lean, rules=False)

    async def act_rules(request: Request) -> JSONResponse:
        return await step(request, plain, rules=True)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        gc.freeze()  # as the service does (api/app.py): what is imported at start stays out of the collector's sweeps
        yield
        await plain.aclose()
        await lean.aclose()

    return Starlette(routes=[Route("/act", act, methods=["POST"]), Route("/act-lean", act_lean, methods=["POST"]),
                             Route("/act-rules", act_rules, methods=["POST"])], lifespan=lifespan)


def main() -> None:
    """Serve the floor app on loopback under uvicorn (the service's loop and HTTP implementation)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--title", default="greatfire", help="the title whose engine the rules floor plays")
    args = parser.parse_args()
    uvicorn.run(create_app(args.redis_url, args.title), host="127.0.0.1", port=args.port, access_log=False,
                log_level="warning")


if __name__ == "__main__":
    main()
