"""Every turn a person owes is announced once (issue 47, part 3): whole 2-seat Great Fire matches with ties for the
2-player non-player turn (R21: its conductor breaks them), played by two players, each turn checked against the
player's yourTurn events on every surface that carries them: GET /v1/me/events (SSE), GraphQL's myEvents, me.events
and the webhooks. Real Redis, API, workers and webhook receiver; the players act when their stream wakes them."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from firebreak.domain import titles
from firebreak.domain.contract import Match
from firebreak.matches import history, packing
from firebreak.matches.callers import Caller
from firebreak.matches.lifecycle import Seats
from firebreak.matches.outcomes import OutcomeKind
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.scheduler import Scheduler, automated_next
from firebreak.matches.store import MatchStore, engine
from firebreak.notifications.webhooks.signing import new_secret
from tests.service import events_support as ev
from tests.service.conftest import Client
from tests.service.players_support import Signed, guest
from tests.service.support import Private, create, private_service, stored, wait_for
from tests.service.test_my_matches import seat_player
from tests.service.test_webhooks import FAST, verified
from tests.service.webhook_receiver import Receiver, receiver

SEED = 13  # a 2-seat match of this seed, played with random.Random(SEED), hands both seats ties, some twice in a row
IDLE = 30.0  # seconds a player waits on its stream, to act, before the test calls the turn unannounced
ME_EVENTS = """query($after: String) { me { events(after: $after, first: 100) {
  edges { node { __typename id type at ... on YourTurnEvent { matchId title seat version }
    ... on MatchStartedEvent { matchId title seat version }
    ... on MatchEndedEvent { matchId title seat version reason winners } } }
  pageInfo { endCursor hasNextPage } } } }"""


def owed_turns(match_id: str, redis: Redis) -> dict[int, list[int]]:
    """The versions at which each seat was handed a turn, from the match's seed and log: the seat is to act after
    the step and was not before it, or the step was not its own (the non-player step, another seat's action)."""
    kept = stored(redis, match_id)
    meta = kept["meta"]
    match = titles.get(meta["title"]).new_match(seats=int(meta["seats"]), seed=int(meta["seed"]),
                                                 options=packing.loads(meta.get("options", "{}")))
    before = match.to_act()
    owed: dict[int, list[int]] = {seat: [0] for seat in before}
    for version, entry in enumerate(kept["log"], start=1):
        history.step_events(match, entry)
        after = match.to_act()
        for seat in after:
            if seat not in before or ("action" in entry and entry["seat"] != seat) or entry.get("system"):
                owed.setdefault(seat, []).append(version)
        before = after
    return owed


def ties(match_id: str, redis: Redis) -> tuple[int, int]:
    """How many ties the match handed a seat to break, and how many of them the step right after a tie-break did."""
    kept = stored(redis, match_id)
    log = kept["log"]
    handed = again = 0
    for n, (_, events) in enumerate(history.replay(kept["meta"], log, 0, len(log))):
        if any(e["type"] == "tieToBreak" for e in events):
            handed += 1
            again += n > 0 and log[n - 1].get("action", {}).get("type") == "breakTie"
    return handed, again


def turns_of(events: list[dict[str, Any]], match_id: str) -> list[int]:
    """The versions of the yourTurn events of a match, in order."""
    return [e["version"] for e in events if e["type"] == "yourTurn" and e.get("matchId") == match_id]


def me_events(c: Client, who: Signed) -> list[dict[str, Any]]:
    """The player's kept events through me.events, page by page."""
    out: list[dict[str, Any]] = []
    after = None
    while True:
        page = c.gql(ME_EVENTS, {"after": after}, who.access)["me"]["events"]
        out += [ev.from_graphql(edge["node"]) for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return out
        after = page["pageInfo"]["endCursor"]


def hooked(rx: Receiver, secret: str, who: Signed) -> list[dict[str, Any]]:
    """The player's events as the webhooks delivered them (once each, by event id), in the feed's order."""
    got: dict[str, dict[str, Any]] = {}
    for request in rx.at("/good"):
        body = verified(request, secret)
        if body["data"]["playerId"] == who.player:
            got[body["data"]["eventId"]] = {"type": body["type"], **body["data"]}
    return [got[key] for key in sorted(got, key=lambda i: tuple(int(p) for p in i.split("-")))]


def check_every_surface(svc: Private, c: Client, redis: Redis, rx: Receiver, secret: str, match_id: str,
                        players: dict[int, Signed], live: dict[int, list[dict[str, Any]]]) -> None:
    """Each player's yourTurn versions, on the stream it followed live, SSE and myEvents from the oldest kept,
    me.events and the webhooks, are the turns the match handed its seat, each once."""
    assert svc.base is not None
    owed = owed_turns(match_id, redis)
    handed, again = ties(match_id, redis)
    assert handed >= 4 and again >= 1, (handed, again)  # the ties the test is about did happen
    for seat, who in players.items():
        want = owed[seat]

        def ended(events: list[dict[str, Any]]) -> bool:
            return any(e["type"] == "matchEnded" and e["matchId"] == match_id for e in events)

        sse = asyncio.run(ev.sse(svc.base, who.access, after="0", until=ended))
        ws = asyncio.run(ev.ws(svc.base, who.access, after="0", until=ended))
        # webhook deliveries are sent concurrently and retried, so they may arrive in any order: wait for every owed
        # turn as well as matchEnded (a turn still missing then fails below, naming it)
        def delivered(who: Signed = who, want: list[int] = want) -> bool:
            events = hooked(rx, secret, who)
            return ended(events) and set(want) <= set(turns_of(events, match_id))

        with contextlib.suppress(AssertionError):
            wait_for(delivered, "every owed turn and matchEnded through the webhooks")
        wait_for(lambda who=who: ended(hooked(rx, secret, who)), "the webhooks' matchEnded")
        surfaces = {"live": live[seat], "sse": sse.events, "myEvents": ws.events, "me.events": me_events(c, who),
                    "webhooks": hooked(rx, secret, who)}
        for name, events in surfaces.items():
            assert turns_of(events, match_id) == want, (seat, name, sorted(set(want) - set(turns_of(events,
                                                                                                   match_id))))


def two_players(c: Client, seed: int) -> tuple[str, dict[int, Signed]]:
    """A 2-seat Great Fire match of the seed, started, with a guest player in each seat."""
    players = {0: guest(c, "turns zero"), 1: guest(c, "turns one")}
    s = create(c, 2, seed)
    for seat, who in players.items():
        seat_player(c, s, who, seat)
    return s.match_id, players


class Inline(Scheduler):
    """The service's next steps run at once, inside the step that owes them, before that step writes its
    players' rows: the order a worker that is faster than the API gives (the soak's missing turns)."""

    pipeline: Pipeline

    async def after_step(self, match_id: str, match: Match, seats: Seats) -> None:
        if automated_next(match, seats):
            await self.pipeline.advance(match_id, match.version, 1000)


def test_a_worker_step_that_lands_first_still_announces_the_turn_it_hands_over(redis_url: str, redis: Redis,
                                                                            tmp_path: Path) -> None:
    """Both players play a whole match while the non-player steps their turns owe commit, and write their rows,
    before the rows of the step that owed them: every tie the non-player turn hands a seat (right after its own
    turn, and again after its own tie-break) is announced by one yourTurn, on every surface."""
    secret = new_secret()
    with receiver() as rx, private_service(redis_url, tmp_path, "turns-inline", workers=1, api=True,
                                           FIREBREAK_WEBHOOK_URL=rx.url("/good"), FIREBREAK_WEBHOOK_SECRET=secret,
                                           FIREBREAK_STALL_SECONDS="3600", **FAST) as svc, svc.client() as c:
        assert svc.base is not None
        match_id, players = two_players(c, SEED)

        async def play() -> None:
            conn = AsyncRedis.from_url(svc.settings.redis_url, decode_responses=True)
            store = MatchStore(conn, svc.settings)
            scheduler = Inline(conn, svc.settings)
            pipeline = scheduler.pipeline = Pipeline(store, scheduler)
            rng = random.Random(SEED)
            try:
                while True:
                    loaded = await store.load(match_id)
                    assert loaded is not None
                    match = engine(loaded)
                    if match.is_over():
                        return
                    seat = match.to_act()[0]
                    action = rng.choice(match.legal_actions(seat))
                    outcome, _ = await pipeline.act(match_id, Caller(player=players[seat].player), action,
                                                    loaded.version)
                    assert outcome.kind is OutcomeKind.ACCEPTED, outcome
            finally:
                await conn.aclose()

        async def scenario() -> list[ev.Got]:
            def ended(events: list[dict[str, Any]]) -> bool:
                return any(e["type"] == "matchEnded" and e["matchId"] == match_id for e in events)

            assert svc.base is not None
            live = [asyncio.create_task(ev.sse(svc.base, players[0].access, after="0", until=ended)),
                    asyncio.create_task(ev.ws(svc.base, players[1].access, after="0", until=ended))]
            await play()
            return list(await asyncio.gather(*live))

        followed = asyncio.run(scenario())
        check_every_surface(svc, c, redis, rx, secret, match_id, players,
                            {seat: got.events for seat, got in enumerate(followed)})


async def stream_player(base: str, who: Signed, seat: int, match_id: str, rng: random.Random,
                        follow: Callable[..., Awaitable[ev.Got]]) -> list[dict[str, Any]]:
    """A player that acts only when its stream says it is its turn (a yourTurn of the match), and on while its own
    actions leave it to act; returns the events it received. Fails when the match waits for it and no yourTurn
    came for IDLE seconds."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def until(events: list[dict[str, Any]]) -> bool:
        inbox.put_nowait(events[-1])
        return events[-1]["type"] == "matchEnded" and events[-1]["matchId"] == match_id

    got = ev.Got()
    follower = asyncio.create_task(follow(base, who.access, after="0", until=until, got=got, idle=IDLE + 30))
    headers = {"authorization": f"Bearer {who.access}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as http:
        while True:
            try:
                event = await asyncio.wait_for(inbox.get(), IDLE)
            except TimeoutError:
                m = (await http.get(f"/v1/matches/{match_id}")).json()
                raise AssertionError(f"seat {seat}: no event for {IDLE:.0f} s; the match is at version "
                                     f"{m['version']}, to act {m['toAct']}") from None
            if event.get("matchId") != match_id:
                continue
            if event["type"] == "matchEnded":
                break
            if event["type"] != "yourTurn":
                continue
            m = (await http.get(f"/v1/matches/{match_id}")).json()
            while m["status"] == "ACTIVE" and seat in m["toAct"]:
                action = rng.choice(m["legalActions"])
                answer = await http.post(f"/v1/matches/{match_id}/actions",
                                         json={"action": action, "expectedVersion": m["version"]})
                assert answer.status_code == 200, answer.text
                m = answer.json()["match"]  # the match as this action left it: on with the turn, or wait
    await follower
    return got.events


def test_players_woken_by_their_streams_play_a_match_with_ties_to_its_end(redis_url: str, redis: Redis,
                                                                         tmp_path: Path) -> None:
    """Two players over REST, each acting only when its stream (SSE for one, myEvents for the other) announces its
    turn, with a real worker running the non-player turns: the match reaches its end, and each player's yourTurn
    events, on every surface, are the turns the match handed its seat, each once."""
    secret = new_secret()
    with receiver() as rx, private_service(redis_url, tmp_path, "turns-woken", workers=1, api=True,
                                           FIREBREAK_WEBHOOK_URL=rx.url("/good"), FIREBREAK_WEBHOOK_SECRET=secret,
                                           **FAST) as svc, svc.client() as c:
        assert svc.base is not None
        match_id, players = two_players(c, SEED)

        async def scenario() -> list[list[dict[str, Any]]]:
            assert svc.base is not None
            return list(await asyncio.gather(
                stream_player(svc.base, players[0], 0, match_id, random.Random(SEED), ev.sse),
                stream_player(svc.base, players[1], 1, match_id, random.Random(SEED + 1), ev.ws)))

        live = asyncio.run(scenario())
        check_every_surface(svc, c, redis, rx, secret, match_id, players, dict(enumerate(live)))
