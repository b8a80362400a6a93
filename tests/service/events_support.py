"""Clients of a player's own event stream for tests: SSE over real HTTP (httpx, parsed by hand) and the myEvents
subscription over a real WebSocket (graphql-transport-ws). The `ready` message each stream opens with (once caught
up) is kept apart from the events (Got.ready)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import httpx
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

PROTOCOL = Subprotocol("graphql-transport-ws")
RECV_TIMEOUT = 60.0
MY_EVENTS = """subscription($after: String) { myEvents(after: $after) { __typename id type at
  ... on YourTurnEvent { matchId title seat version } ... on MatchStartedEvent { matchId title seat version }
  ... on MatchEndedEvent { matchId title seat version reason winners }
  ... on SeatTakenOverEvent { matchId title seat version level } ... on InvitedEvent { matchId title by }
  ... on RematchOfferedEvent { matchId of title seat } ... on SeekMatchedEvent { seekId matchId } } }"""
GRAPHQL_TYPES = {"YOUR_TURN": "yourTurn", "MATCH_STARTED": "matchStarted", "MATCH_ENDED": "matchEnded",
                 "SEAT_TAKEN_OVER": "seatTakenOver", "INVITED": "invited", "REMATCH_OFFERED": "rematchOffered",
                 "SEEK_MATCHED": "seekMatched"}

Until = Callable[[list[dict[str, Any]]], bool]


@dataclass
class Got:
    """What one connection received: events (each as the stored JSON: {id, type, at, ...facts}), the ready
    messages ({id, type: "ready", at}, in the stream's order among the events: `before` counts the events ahead of
    each), the raw text, errors, and how it ended."""

    events: list[dict[str, Any]] = field(default_factory=list)
    ready: list[dict[str, Any]] = field(default_factory=list)
    before: list[int] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    errors: list[Any] = field(default_factory=list)
    status: int = 200
    problem: dict[str, Any] | None = None
    pings: int = 0
    ended: bool = False   # the server ended the stream


def from_graphql(row: dict[str, Any]) -> dict[str, Any]:
    """A myEvents row in the stored JSON's form (type and reason in the feed's spelling, no __typename)."""
    out = {k: v for k, v in row.items() if k != "__typename"}
    out["type"] = GRAPHQL_TYPES[row["type"]]
    if "reason" in out:
        out["reason"] = str(out["reason"]).lower()
    return out


def ws_url(base: str) -> str:
    """The GraphQL WebSocket URL of an API base URL."""
    return f"ws://{urlparse(base).netloc}/graphql"


async def sse(base: str, token: str | None, *, after: str | None = None, last_event_id: str | None = None,
              until: Until = lambda events: False, got: Got | None = None, idle: float = RECV_TIMEOUT,
              query: dict[str, str] | None = None) -> Got:
    """Follow GET /v1/me/events (query: more query parameters, e.g. a ticket) until `until` holds for the events so
    far (then drop the connection, as a client going away), the server ends it, or nothing comes for `idle` seconds
    (pings count)."""
    out = got if got is not None else Got()
    headers = {"accept": "text/event-stream"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    if last_event_id is not None:
        headers["last-event-id"] = last_event_id
    params = {**({} if after is None else {"after": after}), **(query or {})}
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(10, read=idle)) as client, \
            client.stream("GET", "/v1/me/events", params=params, headers=headers) as response:
        out.status = response.status_code
        if response.status_code != 200:
            out.problem = json.loads(await response.aread())
            return out
        message: dict[str, str] = {}
        try:
            async for line in response.aiter_lines():
                out.raw.append(line)
                if line.startswith(":"):
                    out.pings += 1
                    continue
                if line:
                    name, _, value = line.partition(":")
                    message[name] = value[1:] if value.startswith(" ") else value
                    continue
                if "data" in message:
                    data = json.loads(message["data"])
                    if message.get("event") == "error":
                        out.errors.append(data)
                    elif message.get("event") == "ready":
                        assert data["id"] == message["id"] and data["type"] == "ready", message
                        out.ready.append(data)
                        out.before.append(len(out.events))
                    else:
                        assert data["id"] == message["id"] and data["type"] == message["event"], message
                        out.events.append(data)
                        if until(out.events):
                            return out
                message = {}
        except httpx.ReadTimeout:
            return out
        out.ended = True
    return out


async def ws(base: str, token: str | None, *, after: str | None = None, until: Until = lambda events: False,
             got: Got | None = None, idle: float = RECV_TIMEOUT) -> Got:
    """Subscribe to myEvents (credential in connection_init) until `until` holds (then drop the connection), the
    server completes it, or nothing comes for `idle` seconds."""
    out = got if got is not None else Got()
    async with connect(ws_url(base), subprotocols=[PROTOCOL], open_timeout=10) as socket:
        await socket.send(json.dumps({"type": "connection_init",
                                      "payload": {"authorization": f"Bearer {token}"} if token else {}}))
        ack = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert ack["type"] == "connection_ack", ack
        await socket.send(json.dumps({"id": "1", "type": "subscribe",
                                      "payload": {"query": MY_EVENTS, "variables": {"after": after}}}))
        while True:
            try:
                text = await asyncio.wait_for(socket.recv(), idle)
            except TimeoutError:
                return out
            assert isinstance(text, str)
            out.raw.append(text)
            message = json.loads(text)
            if message["type"] == "ping":
                await socket.send(json.dumps({"type": "pong"}))
                continue
            if message["type"] in ("complete", "error"):
                out.ended = True
                if message["type"] == "error":
                    out.errors.extend(message["payload"])
                return out
            payload = message["payload"]
            if payload.get("errors"):
                out.errors.extend(payload["errors"])
                continue
            row = payload["data"]["myEvents"]
            if row["type"] == "READY":
                out.ready.append({"id": row["id"], "type": "ready", "at": row["at"]})
                out.before.append(len(out.events))
                continue
            out.events.append(from_graphql(row))
            if until(out.events):
                return out
