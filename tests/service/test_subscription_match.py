"""MatchEvent.match: a subscriber gets its own match (view, toAct, legalActions) with the newest step, so a bot plays
a whole match from the subscription alone, and resumes without duplicates."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx

from tests.service import support as h
from tests.service.test_subscription import _open, next_row

WITH_MATCH = """subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterVersion: $after) {
  version events match { version status you toAct legalActions view } } }"""


async def _play_from_subscription(base: str, s: h.Setup, seat: int, token: str, after: int,
                                  seen: dict[int, dict[str, Any]], stop_after: int | None) -> bool:
    """Read the match once, subscribe from its version, then act from each step's match alone (no more reads);
    return True once the match is over, False when it stopped after stop_after of its own actions."""
    rng = random.Random(seat)
    acted = 0
    ws = await _open(base, token)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            headers = {"authorization": f"Bearer {token}"}

            async def act_on(m: dict[str, Any]) -> None:
                action = rng.choice(m["legalActions"])
                body = {"query": h.ACT, "variables": {"input": {"matchId": s.match_id, "action": action,
                                                                "expectedVersion": m["version"]}}}
                answer = await http.post("/graphql", json=body, headers=headers)
                assert answer.json()["data"]["act"]["__typename"] == "ActionAccepted", answer.text

            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": WITH_MATCH, "variables": {"id": s.match_id, "after": after}}}))
            first = (await http.post("/graphql", json={"query": h.STATE, "variables": {"id": s.match_id}},
                                     headers=headers)).json()["data"]["match"]
            if first["version"] == after and seat in first["toAct"] and first["status"] == "ACTIVE":
                await act_on(first)  # nothing newer to be told about: this read is the start
                acted += 1
            while True:
                row = await next_row(ws)
                if row is None:
                    return True
                assert row["version"] not in seen, f"version {row['version']} delivered twice"
                seen[row["version"]] = row
                m = row["match"]
                if m is None:
                    continue  # an older step replayed, or the match has moved on: a newer step follows
                assert m["version"] == row["version"] and m["you"] == seat
                if m["status"] == "OVER":
                    return True
                if seat not in m["toAct"]:
                    assert m["legalActions"] == []
                    continue
                if stop_after is not None and acted == stop_after:
                    return False
                await act_on(m)
                acted += 1
    finally:
        await ws.close()


def test_a_bot_plays_to_the_end_from_the_subscription_alone_and_resumes_without_duplicates(server: str) -> None:
    """One person's seat against two bot seats (workers move them): the person acts only on what the stream
    carries; after 5 actions it drops the connection and resubscribes from the last version it saw."""
    with h.recording(server) as c:
        s = h.new_match(c, seats=3, seed=9021, humans=1, bots=["random", "random"])
    (seat, token), = s.humans.items()
    seen: dict[int, dict[str, Any]] = {}
    assert asyncio.run(_play_from_subscription(server, s, seat, token, 0, seen, stop_after=5)) is False
    last = max(seen)
    assert asyncio.run(_play_from_subscription(server, s, seat, token, last, seen, stop_after=None)) is True
    versions = sorted(seen)
    assert versions == list(range(1, versions[-1] + 1))  # every step exactly once across the two connections
    final = seen[versions[-1]]["match"]
    assert final is not None and final["status"] == "OVER" and "result" in final["view"]
    replayed = [v for v in versions if seen[v]["match"] is not None]
    assert len(replayed) < len(versions)  # old steps carry no match: only the newest of a batch does
