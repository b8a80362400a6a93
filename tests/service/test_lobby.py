"""The lobby under concurrency and paging: seats are claimed once each, a match starts once, and paging
through the waiting list does not lose matches."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import httpx
from redis import Redis

from tests.service import support as h

PAGE = """query($after: String) { matches(status: WAITING, first: 1, after: $after) {
  items { id status } endCursor hasNextPage } }"""


def _concurrently(base: str, requests: list[tuple[str, dict[str, Any], str | None]]) -> list[dict[str, Any]]:
    async def run() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(base_url=base, timeout=60,
                                     limits=httpx.Limits(max_connections=len(requests) + 5)) as client:
            start = asyncio.Event()

            async def one(query: str, variables: dict[str, Any], token: str | None) -> dict[str, Any]:
                await start.wait()
                headers = {"authorization": f"Bearer {token}"} if token else {}
                response = await client.post("/graphql", json={"query": query, "variables": variables},
                                             headers=headers)
                assert response.status_code == 200, response.text
                body = response.json()
                assert "errors" not in body, body
                return dict(next(iter(body["data"].values())))

            tasks = [asyncio.create_task(one(*r)) for r in requests]
            await asyncio.sleep(0.05)
            start.set()
            return list(await asyncio.gather(*tasks))

    return asyncio.run(run())


def test_concurrent_joins_take_each_seat_once_and_start_the_match_once(server: str) -> None:
    with h.recording(server) as c:
        s = h.create(c, 6, 801)
        results = _concurrently(server, [(h.JOIN, {"input": {"matchId": s.match_id, "name": f"p{n}"}}, None)
                                         for n in range(30)])
        joined = [r for r in results if r["__typename"] == "SeatJoined"]
        refused = Counter(r["__typename"] for r in results if r["__typename"] != "SeatJoined")
        assert sorted(r["seat"] for r in joined) == list(range(6)), joined
        assert set(refused) <= {"SeatTaken", "MatchStarted"} and sum(refused.values()) == 24, refused
        assert sum(r["started"] for r in joined) == 1, "the match started more or less than once"
        assert len({r["token"] for r in joined}) == 6
        for r in joined:
            m = h.state(c, s.match_id, r["token"])
            assert m["status"] == "ACTIVE" and m["you"] == r["seat"]
            h.check_view(m["view"], r["seat"], hidden=False)


def test_concurrent_bots_and_people_fill_a_match_that_then_plays_to_the_end(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.create(c, 4, 802)
        requests: list[tuple[str, dict[str, Any], str | None]] = [
            (h.BOT, {"input": {"matchId": s.match_id, "level": "random"}}, s.host) for _ in range(10)]
        requests += [(h.JOIN, {"input": {"matchId": s.match_id, "name": "late"}}, None) for _ in range(2)]
        results = _concurrently(server, requests)
        taken = [r for r in results if r["__typename"] in ("BotAdded", "SeatJoined")]
        assert sorted(r["seat"] for r in taken) == list(range(4)), results
        assert sum(r["started"] for r in taken) == 1
        for r in taken:
            if r["__typename"] == "BotAdded":
                s.bots[r["seat"]] = "random"
            else:
                s.humans[r["seat"]] = r["token"]
        final = h.play_to_end(c, s, random.Random(802)).final  # with no person, it watches as a spectator
        assert final["status"] == "OVER"
        record = h.check_replay(redis, s)
        assert record["version"] == final["version"]


def test_paging_the_waiting_list_survives_a_match_leaving_it(server: str) -> None:
    """Page through WAITING one match at a time while the match the cursor names fills up and starts: the
    next page must still hold the older waiting matches, not end the listing."""
    with h.recording(server) as c:
        older = h.create(c, 3, 803)
        newer = h.create(c, 3, 804)
        first = c.gql(PAGE, {"after": None})["matches"]
        assert [m["id"] for m in first["items"]] == [newer.match_id]
        assert first["hasNextPage"]
        for n in range(3):
            h.join(c, newer, f"p{n}")  # newer starts and leaves the waiting list
        second = c.gql(PAGE, {"after": first["endCursor"]})["matches"]
        assert [m["id"] for m in second["items"]] == [older.match_id], \
            f"after a cursor whose match started, the next page is {second}"
