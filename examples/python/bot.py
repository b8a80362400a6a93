"""A complete Firebreak bot in Python: HTTP for reads and actions, graphql-transport-ws for the steps.

    pip install httpx websockets
    python examples/python/bot.py --url http://127.0.0.1:8000 --create greatfire --seats 3 --bots random,greedy
    python examples/python/bot.py --url http://127.0.0.1:8000 --match ID --token TOKEN   # a seat you hold

It reads the match once, subscribes from that version, and acts whenever a step's `match` (its own view, sent
with the newest step) has its seat in `toAct`. Every intended action gets an idempotency key, reused on retry,
so a timeout never plays a move twice. After a disconnect it resubscribes from the last version it saw and skips
any step it has already seen. It plays a random legal action (seeded): replace choose() with your strategy.
It never prints its token.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import uuid
from typing import Any

import httpx
import websockets

MATCH_FIELDS = "version status you toAct legalActions view"
READ = "query($id: ID!) { match(id: $id) { " + MATCH_FIELDS + " } }"
SUBSCRIBE = ("subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterVersion: $after) "
             "{ version events match { " + MATCH_FIELDS + " } } }")
ACT = """mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { version } ... on StaleVersion { currentVersion } ... on Problem { code message } } }"""
RESULT = """query($id: ID!) { match(id: $id) { result { endReason reason winners scores { seat total } } } }"""
CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) {
  ... on MatchCreated { matchId hostToken } ... on Problem { code message } } }"""
JOIN = """mutation($input: JoinMatchInput!) { joinMatch(input: $input) {
  ... on SeatJoined { seat token } ... on Problem { code message } } }"""
ADD_BOT = """mutation($input: AddBotInput!) { addBot(input: $input) {
  ... on BotAdded { seat started } ... on Problem { code message } } }"""
RETRIES = 5


class Bot:
    """One seat of one match, played to the end."""

    def __init__(self, url: str, match_id: str, token: str, seed: int) -> None:
        self.url = url.rstrip("/")
        self.match_id = match_id
        self.token = token
        self.rng = random.Random(seed)
        self.seen = 0          # the last version seen: the resume point
        self.actions = 0
        self.http = httpx.AsyncClient(base_url=self.url, timeout=30,
                                      headers={"authorization": f"Bearer {token}"})

    async def gql(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        """POST a GraphQL document; retry network failures and 503s with a pause; raise on GraphQL errors."""
        for attempt in range(RETRIES):
            try:
                response = await self.http.post("/graphql", json={"query": query, "variables": variables})
            except httpx.TransportError:
                await asyncio.sleep(0.5 * (attempt + 1))
                continue
            if response.status_code in (429, 503):
                await asyncio.sleep(float(response.headers.get("retry-after", 1)))
                continue
            body = response.json()
            if body.get("errors"):
                raise RuntimeError("; ".join(e["message"] for e in body["errors"]))
            data: dict[str, Any] = body["data"]
            return data
        raise RuntimeError(f"the service did not answer after {RETRIES} tries")

    def choose(self, match: dict[str, Any]) -> dict[str, Any]:
        """The strategy: any of the listed actions, sent back unchanged."""
        action: dict[str, Any] = self.rng.choice(match["legalActions"])
        return action

    async def consider(self, match: dict[str, Any]) -> bool:
        """Act if this seat owes a decision; return True once the match is over."""
        if match["status"] == "OVER":
            return True
        if match["you"] not in match["toAct"] or not match["legalActions"]:
            return False
        key = str(uuid.uuid4())  # one key per intended action, reused by gql()'s retries of this request
        answer = (await self.gql(ACT, {"input": {"matchId": self.match_id, "action": self.choose(match),
                                                 "expectedVersion": match["version"],
                                                 "idempotencyKey": key}}))["act"]
        if answer["__typename"] == "ActionAccepted":
            self.actions += 1
        elif answer["__typename"] not in ("StaleVersion", "NotYourTurn", "MatchOver"):
            raise RuntimeError(f"refused: {answer.get('code')} {answer.get('message')}")
        return False  # the step (ours or a newer one) arrives on the subscription

    async def play(self) -> dict[str, Any]:
        """Play to the end, resubscribing after any disconnect; return the result."""
        ws_url = "ws" + self.url[len("http"):] + "/graphql"
        over = False
        while not over:
            try:
                over = await self._session(ws_url)
            except (TimeoutError, OSError, websockets.ConnectionClosed) as exc:
                print(f"connection lost ({type(exc).__name__}); resuming after version {self.seen}", file=sys.stderr)
                await asyncio.sleep(1)
        result: dict[str, Any] = (await self.gql(RESULT, {"id": self.match_id}))["match"]["result"]
        return result

    async def _session(self, ws_url: str) -> bool:
        async with websockets.connect(ws_url, subprotocols=[websockets.Subprotocol("graphql-transport-ws")],
                                      open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "connection_init",
                                      "payload": {"authorization": f"Bearer {self.token}"}}))
            ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if ack["type"] != "connection_ack":
                raise RuntimeError(f"the service refused the connection: {ack}")
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": SUBSCRIBE, "variables": {"id": self.match_id, "after": self.seen}}}))
            match = (await self.gql(READ, {"id": self.match_id}))["match"]
            if match is None:
                raise RuntimeError("no such match")
            if match["version"] == self.seen and await self.consider(match):
                return True  # nothing newer will be sent: this read is where we stand
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if message["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong"}))
                elif message["type"] == "complete":
                    return True
                elif message["type"] == "error" or message["payload"].get("errors"):
                    raise RuntimeError(f"subscription error: {message}")
                else:
                    step = message["payload"]["data"]["matchEvents"]
                    if step["version"] <= self.seen:
                        continue  # already seen (a replay after a resume)
                    self.seen = step["version"]
                    if step["match"] is not None and await self.consider(step["match"]):
                        return True


async def create(url: str, title: str, seats: int, bots: list[str], name: str) -> tuple[str, str]:
    """Create a match, take the first seat, fill the rest with bots; return (match id, seat token)."""
    async with httpx.AsyncClient(base_url=url.rstrip("/"), timeout=30) as http:
        async def gql(query: str, variables: dict[str, Any], token: str | None = None) -> dict[str, Any]:
            headers = {"authorization": f"Bearer {token}"} if token else {}
            body = (await http.post("/graphql", json={"query": query, "variables": variables},
                                    headers=headers)).json()
            if body.get("errors"):
                raise RuntimeError("; ".join(e["message"] for e in body["errors"]))
            data: dict[str, Any] = body["data"]
            return data
        created = (await gql(CREATE, {"input": {"title": title, "seats": seats}}))["createMatch"]
        if "matchId" not in created:
            raise RuntimeError(f"{created['code']}: {created['message']}")
        joined = (await gql(JOIN, {"input": {"matchId": created["matchId"], "name": name}}))["joinMatch"]
        if "token" not in joined:
            raise RuntimeError(f"{joined['code']}: {joined['message']}")
        for level in bots:
            added = (await gql(ADD_BOT, {"input": {"matchId": created["matchId"], "level": level}},
                               created["hostToken"]))["addBot"]
            if "seat" not in added:
                raise RuntimeError(f"{added['code']}: {added['message']}")
        return created["matchId"], joined["token"]


async def main_async(args: argparse.Namespace) -> int:
    if args.create:
        bots = [b for b in args.bots.split(",") if b]
        if len(bots) != args.seats - 1:
            raise SystemExit(f"--bots names {len(bots)} levels for {args.seats - 1} other seats")
        match_id, token = await create(args.url, args.create, args.seats, bots, args.name)
        print(f"match {match_id}")
    elif args.match and args.token:
        match_id, token = args.match, args.token
    else:
        raise SystemExit("give --create TITLE (with --seats and --bots) or --match and --token")
    bot = Bot(args.url, match_id, token, args.seed)
    try:
        result = await bot.play()
    finally:
        await bot.http.aclose()
    print(json.dumps({"match": match_id, "actions": bot.actions, "result": result}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--create", metavar="TITLE", help="create a match of this title and play its first seat")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--bots", default="random,random", help="levels of the other seats, comma-separated")
    parser.add_argument("--name", default="python bot")
    parser.add_argument("--match", help="play a seat you already hold in this match...")
    parser.add_argument("--token", help="...with its seat token")
    parser.add_argument("--seed", type=int, default=1)
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
