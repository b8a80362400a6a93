"""My matches (issue 24, section 2): a player's matches, their turn first, kept in an index as matches change, over
real HTTP, a real Redis and real workers."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from firebreak.matches import keys, mine
from firebreak.matches.clocks import Timing
from firebreak.matches.config import Settings
from firebreak.matches.embedded import EmbeddedRedis
from firebreak.matches.pipeline import saved
from firebreak.matches.reconciler import Reconciler
from firebreak.matches.store import MatchStore, built
from tests.service.conftest import Client, api_process, service_env
from tests.service.players_support import JOIN, Signed, guest, rest
from tests.service.support import Setup, act, add_bot, create, join, play_to_end, state, wait_for

PAGE = """query($status: MatchStatus, $first: Int!, $after: String) { me { id matches(status: $status, first: $first,
  after: $after) { edges { cursor node { id title status version seat yourTurn clockDeadline lastActivity
  others { seat taken name kind } endReason winners outcome } } pageInfo { endCursor hasNextPage } } } }"""


def page(c: Client, who: Signed, status: str | None = None, first: int = 20,
         after: str | None = None) -> dict[str, Any]:
    """One page of the player's matches over GraphQL."""
    answer: dict[str, Any] = c.gql(PAGE, {"status": status, "first": first, "after": after}, who.access)["me"]
    assert answer["id"] == who.player
    return answer["matches"]


def ids(c: Client, who: Signed, status: str | None = None) -> list[str]:
    """The ids of the player's first page."""
    return [edge["node"]["id"] for edge in page(c, who, status)["edges"]]


def row(c: Client, who: Signed, match_id: str) -> dict[str, Any]:
    """The player's row of a match."""
    found = [edge["node"] for edge in page(c, who, first=100)["edges"] if edge["node"]["id"] == match_id]
    assert len(found) == 1, found
    return found[0]


def seat_player(c: Client, s: Setup, who: Signed, seat: int) -> None:
    """Seat the player (bound to the seat) and keep its seat token."""
    joined = c.gql(JOIN, {"input": {"matchId": s.match_id, "seat": seat}}, who.access)["joinMatch"]
    assert joined["__typename"] == "SeatJoined" and joined["player"] == who.player, joined
    s.humans[joined["seat"]] = joined["token"]


def two_seats(c: Client, who: Signed, seed: int, other: Signed | None = None, bot: bool = False,
              clock: bool = False) -> Setup:
    """A 2-seat match with the player in seat 0 and, in seat 1, another player, a person by token, or a bot (seed 0:
    seat 0 acts first, seed 1: seat 1)."""
    s = create(c, 2, seed) if not clock else _with_clock(c, seed)
    seat_player(c, s, who, 0)
    if bot:
        add_bot(c, s, "random", 1)
    elif other is not None:
        seat_player(c, s, other, 1)
    else:
        join(c, s, "someone", 1)
    return s


def _with_clock(c: Client, seed: int) -> Setup:
    created = c.gql("""mutation($input: CreateMatchInput!) { createMatch(input: $input) { __typename
      ... on MatchCreated { matchId hostToken } } }""", {"input": {"title": "greatfire", "seats": 2, "seed": seed,
                                                                   "clock": {"initialSeconds": 600}}})["createMatch"]
    return Setup(created["matchId"], created["hostToken"], 2, seed, {})


def waiting(c: Client, who: Signed, seed: int = 5) -> Setup:
    """A 2-seat match with the player alone in seat 0: it waits."""
    s = create(c, 2, seed)
    seat_player(c, s, who, 0)
    return s


def act_first(c: Client, s: Setup, seat: int) -> None:
    """The seat plays its first legal action."""
    m = state(c, s.match_id, s.humans[seat])
    assert seat in m["toAct"], m
    assert act(c, s.match_id, s.humans[seat], m["legalActions"][0], m["version"])["__typename"] == "ActionAccepted"


def test_my_turn_first_oldest_waiting_first_then_the_rest_by_last_activity(client: Client, server: str) -> None:
    """The order, rows, moves as play goes on, status filters, both surfaces, and nobody else's matches."""
    me, other = guest(client, "me"), guest(client, "other")
    a = two_seats(client, me, 0)                 # my turn
    w = waiting(client, me)                      # waiting for a second player
    b = two_seats(client, me, 1, other=other)    # the other's turn
    c = two_seats(client, me, 0)                 # my turn, since after a's
    assert ids(client, me) == [a.match_id, c.match_id, b.match_id, w.match_id]
    first = page(client, me)["edges"][0]["node"]
    assert first == {**first, "id": a.match_id, "title": "greatfire", "status": "ACTIVE", "version": 0, "seat": 0,
                     "yourTurn": True, "clockDeadline": None, "endReason": None, "winners": None, "outcome": None}
    assert first["others"] == [{"seat": 1, "taken": True, "name": "someone", "kind": "human"}]
    assert row(client, me, w.match_id)["others"] == [{"seat": 1, "taken": False, "name": None, "kind": None}]
    assert ids(client, other) == [b.match_id], "the other player sees their own matches only"

    act_first(client, b, 1)                      # now my turn in b: it joins the turn part, last
    assert ids(client, me) == [a.match_id, c.match_id, b.match_id, w.match_id]
    assert row(client, me, b.match_id)["yourTurn"] and row(client, me, b.match_id)["version"] == 1
    act_first(client, a, 0)                      # no longer my turn in a: the newest of the rest
    assert ids(client, me) == [c.match_id, b.match_id, a.match_id, w.match_id]
    assert not row(client, me, a.match_id)["yourTurn"]

    assert ids(client, me, "WAITING") == [w.match_id]
    assert ids(client, me, "ACTIVE") == [c.match_id, b.match_id, a.match_id]
    assert ids(client, me, "OVER") == []
    response = rest(server, "GET", "/v1/me/matches", me.access)
    assert response.status_code == 200, response.text
    assert [item["id"] for item in response.json()["items"]] == [c.match_id, b.match_id, a.match_id, w.match_id]
    assert response.json()["items"][0]["yourTurn"] is True and response.json()["items"][0]["seat"] == 0
    waiting_only = rest(server, "GET", "/v1/me/matches?status=WAITING", me.access).json()
    assert [item["id"] for item in waiting_only["items"]] == [w.match_id] and not waiting_only["hasNextPage"]
    assert ids(client, other) == [b.match_id]


def test_a_bots_reply_brings_my_turn_back_with_my_clock_deadline(client: Client) -> None:
    """After I act the match leaves my turn; when the bot (a worker) has acted it is my turn again, with my clock's
    deadline."""
    me = guest(client, "clocked")
    s = two_seats(client, me, 0, bot=True, clock=True)
    mine_row = row(client, me, s.match_id)
    assert mine_row["yourTurn"] and mine_row["clockDeadline"] is not None
    assert abs(mine_row["clockDeadline"] - (mine_row["lastActivity"] + 600)) < 1e-3
    assert mine_row["others"] == [{"seat": 1, "taken": True, "name": "random bot", "kind": "bot"}]
    m = state(client, s.match_id, me.access)
    assert act(client, s.match_id, me.access, m["legalActions"][0], 0)["__typename"] == "ActionAccepted"
    after = row(client, me, s.match_id)
    if after["version"] == 1:  # the bot has not answered yet
        assert not after["yourTurn"] and after["clockDeadline"] is None
    back = wait_for(lambda: (r := row(client, me, s.match_id))["yourTurn"] and r, "my turn to come back")
    assert back["version"] == 2 and ids(client, me) == [s.match_id]
    assert back["clockDeadline"] is not None and back["clockDeadline"] > back["lastActivity"]


def test_paging_spans_both_parts_with_no_gap_or_duplicate_while_matches_change(client: Client) -> None:
    """Pages of 2 over 3 turn matches and 4 others; between pages a new match arrives and a seen match leaves my
    turn: every match that did not change shows exactly once, none twice."""
    me = guest(client, "pager")
    turns = [two_seats(client, me, 0) for _ in range(3)]
    rest_ = [waiting(client, me) for _ in range(2)] + [two_seats(client, me, 1) for _ in range(2)]
    expected = [s.match_id for s in turns] + [s.match_id for s in reversed(rest_)]
    assert ids(client, me) == expected
    seen: list[str] = []
    after = None
    changed: set[str] = set()
    for n in range(10):
        answer = page(client, me, first=2, after=after)
        seen += [edge["node"]["id"] for edge in answer["edges"]]
        if n == 0:
            act_first(client, turns[0], 0)  # seen: moves to the rest, newest
            changed.add(turns[0].match_id)
        if n == 1:
            changed.add(waiting(client, me).match_id)  # arrives at the top of the rest
        if not answer["pageInfo"]["hasNextPage"]:
            break
        after = answer["pageInfo"]["endCursor"]
        assert after == answer["edges"][-1]["cursor"]
    assert len(seen) == len(set(seen)), seen
    assert [m for m in seen if m not in changed] == [m for m in expected if m not in changed]
    # an edge's cursor pages on from that edge
    edges = page(client, me, first=3)["edges"]
    assert [e["node"]["id"] for e in page(client, me, first=2, after=edges[0]["cursor"])["edges"]] == \
        [e["node"]["id"] for e in edges[1:]]


def test_a_finished_matchs_row_carries_its_result(client: Client) -> None:
    """Played to its end: the row says OVER, why, the winners and whether I won."""
    me = guest(client, "finisher")
    s = two_seats(client, me, 0, bot=True)
    played = play_to_end(client, s, random.Random(7))
    over = row(client, me, s.match_id)
    winners = played.final["result"]["winners"]
    assert over["status"] == "OVER" and over["endReason"] == "FINISHED" and not over["yourTurn"]
    assert over["winners"] == winners and over["version"] == played.final["version"]
    assert over["outcome"] == ("LOST" if 0 not in winners else "WON" if len(winners) == 1 else "SHARED")
    assert ids(client, me, "OVER") == [s.match_id] and ids(client, me, "ACTIVE") == []


def test_bad_cursors_and_missing_credentials_are_typed_refusals(client: Client, server: str) -> None:
    me = guest(client, "cursor")
    for bad in ("nonsense", "eHwxfGFifDE", "dHxuYW58YWJ8MQ", "cnxpbmZ8YWJjfDE"):
        body = client.post(PAGE, {"first": 2, "after": bad}, me.access).json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["BAD_CURSOR"], body
        response = rest(server, "GET", f"/v1/me/matches?after={bad}", me.access)
        assert response.status_code == 422 and response.json()["code"] == "BAD_CURSOR", response.text
    response = rest(server, "GET", "/v1/me/matches")
    assert response.status_code == 401 and response.json()["code"] == "UNAUTHENTICATED"
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert client.gql(PAGE, {"first": 2})["me"] is None


def _commit_without_index(redis_url: str, match_id: str, seat: int) -> None:
    """What a process that died right after a commit leaves: the outbox entry and the commit, no index update."""
    async def go() -> None:
        connection = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            store = MatchStore(connection, Settings.from_env(service_env(redis_url)))
            loaded = await store.load(match_id)
            assert loaded is not None
            match = built(loaded)
            action = match.legal_actions(seat)[0]
            events = match.apply(seat, action)
            await mine.mark(store, loaded)
            now = time.time()
            committed = await store.commit(loaded, saved(match), {"seat": seat, "action": action},
                                           events, False,
                                           Timing(now, now, None, match.version), None)
            assert committed.ok
        finally:
            await connection.aclose()

    asyncio.run(go())


def _stored_row(redis: Redis, player: str, match_id: str) -> mine.Row:
    raw = redis.hget(keys.mine(player), match_id)
    assert isinstance(raw, str)
    return mine.Row.from_json(raw)


def test_a_crash_between_a_commit_and_the_index_update_is_repaired(client: Client, redis: Redis,
                                                                   redis_url: str) -> None:
    """The reconciler's outbox pass hands the update to a worker; a page read repairs a row on its own."""
    me = guest(client, "crashed")
    by_reconciler, by_read = two_seats(client, me, 0), two_seats(client, me, 0)
    for s in (by_reconciler, by_read):
        _commit_without_index(redis_url, s.match_id, 0)
        assert _stored_row(redis, me.player, s.match_id).turn, "the index still has the old row"
        assert redis.zscore(keys.MINE_PENDING, s.match_id) is not None
    settings = Settings.from_env(service_env(redis_url))
    reconciler = Reconciler(Redis.from_url(redis_url), settings)
    assert reconciler.reindex(time.time()) == [], "a change under way is left to its own process"
    jobs = reconciler.reindex(time.time() + settings.stall_seconds + 1)
    assert len(jobs) == 2
    wait_for(lambda: not _stored_row(redis, me.player, by_reconciler.match_id).turn, "the reindex job")
    assert _stored_row(redis, me.player, by_reconciler.match_id).stamp == 3 + 1
    wait_for(lambda: redis.zscore(keys.MINE_PENDING, by_reconciler.match_id) is None, "the outbox entry to go")

    me2 = guest(client, "crashed again")
    s = two_seats(client, me2, 0)
    _commit_without_index(redis_url, s.match_id, 0)
    redis.zrem(keys.MINE_PENDING, s.match_id)  # no reconciler: the page read alone repairs it
    assert _stored_row(redis, me2.player, s.match_id).turn
    listed = row(client, me2, s.match_id)
    assert not listed["yourTurn"] and listed["version"] == 1
    assert not _stored_row(redis, me2.player, s.match_id).turn


@pytest.fixture(scope="module")
def quiet_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Redis]]:
    """An API process over a Redis of its own, with no workers: every command on it is the API's."""
    folder: Path = tmp_path_factory.mktemp("quiet")
    server = EmbeddedRedis(folder, appendonly=False, prefer_bundled=False)
    url = server.start()
    try:
        with api_process(url, folder / "api.log") as base:
            r = Redis.from_url(url, decode_responses=True)
            yield base, r
            r.close()
    finally:
        server.stop()


def _commands(r: Redis) -> tuple[int, int]:
    """Commands run so far (those scripts run too, INFO and PING apart) and scripts run (round trips of ours)."""
    stats: dict[str, Any] = r.info("commandstats")
    every = sum(int(v["calls"]) for k, v in stats.items() if k not in ("cmdstat_info", "cmdstat_ping"))
    return every, sum(int(stats.get(k, {}).get("calls", 0)) for k in ("cmdstat_evalsha", "cmdstat_eval"))


def test_a_page_of_20_costs_the_same_redis_commands_with_22_or_80_matches(quiet_api: tuple[str, Redis]) -> None:
    """No scan: one script reads the page's entries, one read per match; the number of matches behind the page
    changes nothing (but the one range read of the second part when the first part does not fill the page)."""
    base, r = quiet_api
    c = Client(base)
    try:
        costs = []
        for count in (22, 80):
            me = guest(c, f"many {count}")
            for n in range(count):
                if n % 3 == 0:
                    two_seats(c, me, 0)
                else:
                    waiting(c, me)
            ids(c, me)  # warm: scripts loaded, connections open
            before = _commands(r)
            assert len(page(c, me)["edges"]) == 20
            after = _commands(r)
            costs.append((after[0] - before[0], after[1] - before[1]))
        (every_few, scripts_few), (every_many, scripts_many) = costs
        assert scripts_few == scripts_many <= 1 + 20 + 3, costs  # the page's entries, 20 loads, the credential's
        assert every_few - 1 <= every_many <= every_few, costs  # 22: 8 turn entries, then the rest's range too
    finally:
        c.http.close()


RESIGN = """mutation($input: ResignInput!) { resign(input: $input) { __typename ... on Problem { code message } } }"""
LEAVE = """mutation($input: LeaveSeatInput!) { leaveSeat(input: $input) { __typename ... on Problem { code } } }"""
CANCEL = """mutation($input: CancelMatchInput!) { cancelMatch(input: $input) { __typename ... on Problem { code } } }"""


def test_a_seats_life_moves_the_match_in_its_players_lists(client: Client) -> None:
    """Resigning, leaving and cancelling (matches/seatlife.py) keep the index as they change the match: a
    resignation that ends the match shows it over with the resignation's end reason; a seat left is no longer
    among the player's matches; a cancelled match is over for every player seated in it."""
    c = client
    ann, bob = guest(c, "ann"), guest(c, "bob")
    s = create(c, 3, 2501)
    seat_player(c, s, ann, 0)
    seat_player(c, s, bob, 1)
    add_bot(c, s, "random")
    wait_for(lambda: row(c, ann, s.match_id)["status"] == "ACTIVE", "the match active in its list")
    resigned = c.gql(RESIGN, {"input": {"matchId": s.match_id}}, ann.access)["resign"]
    assert resigned["__typename"] == "Resignation", resigned
    for who in (ann, bob):
        mine_row = row(c, who, s.match_id)
        assert (mine_row["status"], mine_row["endReason"]) == ("OVER", "RESIGNED"), mine_row
    waiting = create(c, 3, 2502)
    seat_player(c, waiting, ann, 0)
    seat_player(c, waiting, bob, 1)
    assert waiting.match_id in ids(c, ann, "WAITING")
    left = c.gql(LEAVE, {"input": {"matchId": waiting.match_id}}, ann.access)["leaveSeat"]
    assert left["__typename"] == "SeatLeft", left
    assert waiting.match_id not in ids(c, ann)
    cancelled = c.gql(CANCEL, {"input": {"matchId": waiting.match_id}}, waiting.host)["cancelMatch"]
    assert cancelled["__typename"] == "MatchCancelled", cancelled
    assert (row(c, bob, waiting.match_id)["status"], row(c, bob, waiting.match_id)["endReason"]) == ("OVER",
                                                                                                   "CANCELLED")
