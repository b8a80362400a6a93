"""The no-leak test of a player's own events (issue 25, section 1): whole matches of both titles, played over real
HTTP with real workers by players bound to seats, one of them silent until its clock runs out (seatTakenOver);
every event each player receives on myEvents and on SSE carries only its type's public facts, only of the
player's own seat, and matchEnded's winners are the public result."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from typing import Any

import pytest
from redis import Redis

from tests.service import events_support as ev
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import Signed, guest
from tests.service.test_feed import events as stored
from tests.service.test_my_matches import seat_player

MATCH_FACTS = {"id", "type", "at", "matchId", "title", "seat", "version"}
ALLOWED = {"yourTurn": MATCH_FACTS, "matchStarted": MATCH_FACTS, "matchEnded": MATCH_FACTS | {"reason", "winners"},
           "seatTakenOver": MATCH_FACTS | {"level"}}
QUIET_SEAT = 1  # the silent player's seat: never acts, so its clock runs out


def play(c: Client, s: h.Setup, rng: random.Random, deadline: float = 240) -> dict[str, Any]:
    """Seat 0 plays random legal actions until the match is over; the quiet seat never acts (the service's bot
    takes it over when its clock runs out); returns the final public read."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        m = h.state(c, s.match_id, s.humans[0])
        if m["status"] == "OVER":
            return h.state(c, s.match_id, None)
        if 0 in m["toAct"] and m["legalActions"]:
            result = h.act(c, s.match_id, s.humans[0], rng.choice(m["legalActions"]), m["version"])
            assert result["__typename"] in ("ActionAccepted", "StaleVersion"), result
        else:
            time.sleep(0.02)
    raise AssertionError(f"match {s.match_id} did not finish")


def check(event: dict[str, Any], match_id: str, title: str, seat: int, final: dict[str, Any]) -> None:
    """One event against what its player may see."""
    assert set(event) == ALLOWED[event["type"]], event
    assert (event["matchId"], event["title"], event["seat"]) == (match_id, title, seat), event
    assert isinstance(event["version"], int) and 0 <= event["version"] <= final["version"], event
    assert isinstance(event["at"], float) and isinstance(event["id"], str)
    if event["type"] == "matchEnded":
        assert event["reason"] == final["result"]["endReason"].lower()
        assert event["winners"] == final["result"]["winners"], (event, final["result"])
    if event["type"] == "seatTakenOver":
        assert seat == QUIET_SEAT and isinstance(event["level"], str)


@pytest.mark.parametrize(("title", "seats", "seed"), [("greatfire", 3, 2501), ("london", 3, 2502)])
def test_every_event_of_whole_matches_carries_only_what_its_player_may_see(
        client: Client, server: str, redis: Redis, title: str, seats: int, seed: int) -> None:
    """Two players bound to seats 0 and 1 and a bot; seat 1 stays silent and is taken over; both follow their
    events on myEvents and SSE from before the start to matchEnded: both surfaces deliver the same events as the
    stored feed, each with its type's public facts only, of the player's own seat, and no secret of the match (no
    seat's or host's token, no view) appears in anything they received."""
    created = client.gql(h.CREATE, {"input": {"title": title, "seats": seats, "seed": seed,
                                               "clock": {"initialSeconds": 2, "incrementSeconds": 30}}})["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    s = h.Setup(created["matchId"], created["hostToken"], seats, seed, created["match"]["options"])
    people: list[Signed] = [guest(client, f"{title} leak {n}") for n in range(2)]
    seat_player(client, s, people[0], 0)
    seat_player(client, s, people[1], QUIET_SEAT)
    until = lambda events: any(e["type"] == "matchEnded" for e in events)  # noqa: E731
    final: list[dict[str, Any]] = []

    async def scenario() -> list[tuple[ev.Got, ev.Got]]:
        follows = [(asyncio.create_task(ev.sse(server, p.access, until=until, idle=120)),
                    asyncio.create_task(ev.ws(server, p.access, until=until, idle=120))) for p in people]
        await asyncio.sleep(0.5)  # both follow from now on (their feeds are empty) before the start
        h.add_bot(client, s, "random", 2)
        player = threading.Thread(target=lambda: final.append(play(client, s, random.Random(seed))), daemon=True)
        player.start()
        out = [(await a, await b) for a, b in follows]
        player.join(300)
        return out

    received = asyncio.run(scenario())
    assert final and final[0]["status"] == "OVER"
    secrets = [s.host, *s.humans.values(), *(p.access for p in people)]
    for seat, (person, (over_sse, over_ws)) in enumerate(zip(people, received, strict=True)):
        feed = stored(redis, person.player)
        assert over_sse.events == feed and over_ws.events == feed, (over_sse.errors, over_ws.errors)
        kinds = [e["type"] for e in feed]
        assert kinds[0] == "matchStarted" and kinds[-1] == "matchEnded" and kinds.count("matchEnded") == 1
        assert ("seatTakenOver" in kinds) == (seat == QUIET_SEAT), kinds
        for event in feed:
            check(event, s.match_id, title, seat, final[0])
        text = "\n".join(over_sse.raw + over_ws.raw)
        for secret in secrets:
            assert secret not in text
        for view in (h.state(client, s.match_id, token)["view"] for token in s.humans.values()):
            assert json.dumps(view) not in text
