"""Matchmaking through both surfaces of a real API process over real Redis with real workers (issue 25, section 3):
two seekers of one pool are seated at one started rated match that each sees in me.matches; the typed refusals
change nothing; cancel; expiry; bots after a wait; and the rating band with explicit ratings."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis

from firebreak.archive.database import Database, DatabaseSettings
from firebreak.matches import keys
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matchmaking.config import SeekSettings
from firebreak.matchmaking.seeks import Seeks
from firebreak.matchmaking.tables import Matcher
from firebreak.ratings import model
from firebreak.ratings.tables import ratings
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import Signed, guest, rest

SEEK = """mutation($input: SeekInput!) { seek(input: $input) { __typename
  ... on Seek { id status title seats options botsAfterSeconds createdAt expiresAt endedAt matchId seat }
  ... on Unauthenticated { code reason } ... on Problem { code message } } }"""
CANCEL = """mutation($id: ID!) { cancelSeek(input: {id: $id}) { __typename
  ... on Seek { id status endedAt } ... on Problem { code message } } }"""
MY_SEEKS = "{ me { seeks { id status matchId seat title seats } } }"
MY_MATCHES = "{ me { matches(first: 5) { edges { node { id status seat } } } } }"
MATCH = """query($id: ID!) { match(id: $id) { status seatCount you seats { seat kind level player name } } }"""


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API and two workers of their own, reconciling every 0.1 s with a one-second stall window."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("seeks"), "firebreak-seeks", api=True, workers=2,
                           FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="1") as service:
        service.wait_reconciling()
        yield service


@pytest.fixture()
def c(svc: h.Private) -> Iterator[Client]:
    with svc.client() as client:
        yield client


def seek(c: Client, who: Signed, **fields: Any) -> dict[str, Any]:
    """Seek over GraphQL; the answer."""
    answer: dict[str, Any] = c.gql(SEEK, {"input": fields}, who.access)["seek"]
    return answer


def my_seek(c: Client, who: Signed, seek_id: str) -> dict[str, Any]:
    """One of the player's seeks as me.seeks shows it."""
    found = [s for s in c.gql(MY_SEEKS, token=who.access)["me"]["seeks"] if s["id"] == seek_id]
    assert len(found) == 1, found
    return found[0]


def matched(c: Client, who: Signed, seek_id: str) -> dict[str, Any]:
    """Wait for the seek to be matched; its record."""
    result: dict[str, Any] = h.wait_for(lambda: (s := my_seek(c, who, seek_id))["status"] == "MATCHED" and s,
                                        f"seek {seek_id} to be matched", deadline=60)
    return result


def seek_matched(redis: Redis, player: str) -> list[dict[str, Any]]:
    """The seekMatched events of a player's feed, their facts (the time apart)."""
    events = [json.loads(fields["e"]) for _, fields in redis.xrange(keys.feed(player))]
    return [{k: v for k, v in e.items() if k not in ("type", "at")} for e in events if e["type"] == "seekMatched"]


def test_two_seekers_sit_at_one_started_rated_match_that_each_sees_first_in_their_matches(
        svc: h.Private, c: Client, redis: Redis) -> None:
    ann, bob = guest(c, "ann"), guest(c, "bob")
    a = seek(c, ann, title="greatfire", seats=2, options={"npcTies": "conductor"})
    assert a["__typename"] == "Seek" and a["status"] == "WAITING" and a["matchId"] is None, a
    assert a["options"]["npcTies"] == "conductor" and "hiddenColours" in a["options"]  # canonical: defaults filled in
    b = rest(svc.base or "", "POST", "/v1/seeks", bob.access,
             {"title": "greatfire", "seats": 2, "options": {"hiddenColours": False}})
    assert b.status_code == 201, b.text
    assert b.headers["location"] == f"/v1/seeks/{b.json()['id']}" and b.json()["status"] == "WAITING"
    first, second = matched(c, ann, a["id"]), matched(c, bob, b.json()["id"])
    assert first["matchId"] == second["matchId"] and {first["seat"], second["seat"]} == {0, 1}
    match_id = first["matchId"]
    read = rest(svc.base or "", "GET", f"/v1/seeks/{b.json()['id']}", bob.access).json()
    assert read["status"] == "MATCHED" and read["matchId"] == match_id and read["endedAt"] >= read["createdAt"]
    m = c.gql(MATCH, {"id": match_id}, ann.access)["match"]
    assert m["status"] == "ACTIVE" and m["you"] == first["seat"]
    assert {s["seat"]: s["player"] for s in m["seats"]} == {first["seat"]: ann.player, second["seat"]: bob.player}
    assert all(s["kind"] == "human" for s in m["seats"])
    meta = redis.hgetall(keys.meta(match_id))
    assert meta["rated"] == "1" and meta["private"] == "1"  # rated, out of the lobby and closed to strangers
    for who, mine in ((ann, first), (bob, second)):
        edges = c.gql(MY_MATCHES, token=who.access)["me"]["matches"]["edges"]
        assert edges[0]["node"] == {"id": match_id, "status": "ACTIVE", "seat": mine["seat"]}
    carl = guest(c, "carl")  # nobody else takes a seat of it
    joined = c.gql(h.JOIN, {"input": {"matchId": match_id}}, carl.access)["joinMatch"]
    assert joined["__typename"] == "MatchNotFound", joined
    assert redis.zcard(keys.seek_tables_pending("firebreak-seeks")) == 0
    for who, mine in ((ann, a["id"]), (bob, b.json()["id"])):
        assert seek_matched(redis, who.player) == [{"seekId": mine, "matchId": match_id}]
    metrics = rest(svc.base or "", "GET", "/metrics").text
    assert 'firebreak_seeks_ended_total{outcome="matched"}' in metrics


def test_refusals_are_typed_and_change_nothing(svc: h.Private, c: Client) -> None:
    base = svc.base or ""
    ann = guest(c, "ann")
    anonymous = c.gql(SEEK, {"input": {"title": "greatfire", "seats": 3}})["seek"]
    assert (anonymous["__typename"], anonymous["code"], anonymous["reason"]) == ("Unauthenticated",
                                                                                 "UNAUTHENTICATED", "missing")
    assert rest(base, "POST", "/v1/seeks", None, {"title": "greatfire", "seats": 3}).status_code == 401
    for fields, code in (({"title": "nope", "seats": 3}, "UNKNOWN_TITLE"),
                         ({"title": "greatfire", "seats": 9}, "BAD_OPTIONS"),
                         ({"title": "greatfire", "seats": 3, "options": {"npcTies": "dice?"}}, None),
                         ({"title": "greatfire", "seats": 3, "botsAfterSeconds": -1}, "BAD_BOTS_AFTER"),
                         ({"title": "greatfire", "seats": 3, "botsAfterSeconds": 10_000}, "BAD_BOTS_AFTER")):
        answer = seek(c, ann, **fields)
        assert answer["__typename"] == "InvalidInput" and (code is None or answer["code"] == code), answer
        refused = rest(base, "POST", "/v1/seeks", ann.access, fields)
        assert refused.status_code == 422 and refused.json()["code"] == answer["code"], refused.text
    assert c.gql(MY_SEEKS, token=ann.access)["me"]["seeks"] == []
    first = seek(c, ann, title="greatfire", seats=5)
    again = seek(c, ann, title="greatfire", seats=5, options={"hiddenColours": False})  # the same pool
    assert again["__typename"] == "TooManySeeks" and again["code"] == "TOO_MANY_SEEKS", again
    assert rest(base, "POST", "/v1/seeks", ann.access, {"title": "greatfire", "seats": 5}).status_code == 409
    assert [s["id"] for s in c.gql(MY_SEEKS, token=ann.access)["me"]["seeks"]] == [first["id"]]
    cancelled = c.gql(CANCEL, {"id": first["id"]}, ann.access)["cancelSeek"]
    assert cancelled["__typename"] == "Seek" and cancelled["status"] == "CANCELLED" and cancelled["endedAt"]


def test_cancel_is_the_owners_and_once(svc: h.Private, c: Client, redis: Redis) -> None:
    base = svc.base or ""
    ann, bob = guest(c, "ann"), guest(c, "bob")
    mine = seek(c, ann, title="greatfire", seats=6)
    theirs = c.gql(CANCEL, {"id": mine["id"]}, bob.access)["cancelSeek"]
    assert theirs["__typename"] == "SeekNotFound", theirs
    assert rest(base, "GET", f"/v1/seeks/{mine['id']}", bob.access).status_code == 404
    assert rest(base, "DELETE", f"/v1/seeks/{mine['id']}", bob.access).status_code == 404
    assert my_seek(c, ann, mine["id"])["status"] == "WAITING"
    gone = rest(base, "DELETE", f"/v1/seeks/{mine['id']}", ann.access)
    assert gone.status_code == 200 and gone.json()["status"] == "CANCELLED", gone.text
    twice = c.gql(CANCEL, {"id": mine["id"]}, ann.access)["cancelSeek"]
    assert twice["__typename"] == "SeekNotWaiting" and "cancelled" in twice["message"], twice
    assert rest(base, "DELETE", f"/v1/seeks/{mine['id']}", ann.access).json()["code"] == "SEEK_NOT_WAITING"
    pool = redis.hget(keys.seek(mine["id"]), "pool")
    assert pool is not None and redis.zscore(keys.seek_pool("firebreak-seeks", pool), mine["id"]) is None
    listed = rest(base, "GET", "/v1/me/seeks", ann.access).json()["items"]
    assert [(s["id"], s["status"]) for s in listed] == [(mine["id"], "CANCELLED")]


def test_a_lone_seeker_who_asked_for_bots_gets_them_after_the_wait(svc: h.Private, c: Client) -> None:
    ann = guest(c, "ann")
    mine = seek(c, ann, title="london", seats=3, botsAfterSeconds=0.5)
    record = matched(c, ann, mine["id"])
    m = c.gql(MATCH, {"id": record["matchId"]}, ann.access)["match"]
    assert m["status"] == "ACTIVE" and m["you"] == record["seat"]
    bots = [s for s in m["seats"] if s["kind"] == "bot"]
    assert len(bots) == 2 and {s["level"] for s in bots} == {"greedy"}  # the title's sensible bot
    assert [s["player"] for s in m["seats"] if s["kind"] == "human"] == [ann.player]


def test_the_rating_band_keeps_far_ratings_apart_until_the_wait_widens_it(svc: h.Private, redis_url: str) -> None:
    """Explicit ratings through the seek-making function, matched by an in-process pass over real Redis."""
    settings = SeekSettings(band=100.0, band_growth=50.0)

    async def body(lobby: Lobby, _: Pipeline) -> list[list[str]]:
        seeks = Seeks(lobby.store.queue, "firebreak-seeks-band", settings)
        matcher = Matcher(lobby, seeks)
        made = [await seeks.create(p, p, "london", 4, None, None, r) for p, r in
                (("p1", 1500.0), ("p2", 1540.0), ("p3", 1580.0), ("p4", 1610.0), ("far", 2000.0))]
        now = made[-1].created
        rounds = []
        for at in (now, now + 5):  # within 100: p1-p4 (110 apart: no); 5 s on, p4 reaches and far is still out
            formed = await matcher.run_pool(made[0].pool.id, at)
            rounds.append(sorted(p for f in formed for p in f.seats))
        assert (await seeks.get(made[4].id)) is not None
        return rounds

    rounds = h.run(svc.settings, body)
    assert rounds[0] == [] and len(rounds[1]) == 4


def test_a_seek_expires_after_its_lifetime(redis_url: str, redis: Redis,
                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    """A seek nobody matched expires: the workers sweep it out of its pool, and the player may seek again."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("seek-ttl"), "firebreak-seek-ttl", api=True,
                           workers=1, FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_SEEK_TTL="1") as svc, \
            svc.client() as c:
        ann = guest(c, "ann")
        mine = seek(c, ann, title="greatfire", seats=4)
        assert mine["expiresAt"] == pytest.approx(mine["createdAt"] + 1)
        h.wait_for(lambda: redis.hget(keys.seek(mine["id"]), "status") == "expired", "the workers to expire it")
        pool = redis.hget(keys.seek(mine["id"]), "pool")
        assert pool is not None and redis.zcard(keys.seek_pool("firebreak-seek-ttl", pool)) == 0
        assert my_seek(c, ann, mine["id"])["status"] == "EXPIRED"
        late = c.gql(CANCEL, {"id": mine["id"]}, ann.access)["cancelSeek"]
        assert late["__typename"] == "SeekNotWaiting", late
        again = seek(c, ann, title="greatfire", seats=4)  # an expired seek no longer holds the pool
        assert again["__typename"] == "Seek", again


def test_a_seek_carries_the_seekers_rating_from_the_ratings(svc: h.Private, c: Client, redis: Redis) -> None:
    """The API looks the seeker's rating up in the archive database when the seek is made: a player rated in the
    title seeks with their displayed rating, a player with no rated match of it seeks unrated (meets anyone)."""
    rated, newcomer = guest(c, "rated seeker"), guest(c, "new seeker")
    db = Database.from_settings(DatabaseSettings.from_env(svc.env))
    with db.write() as conn:
        conn.execute(ratings.insert().values(title="greatfire", key=rated.player, mu=30.0, sigma=4.0, games=12,
                                             updated=0.0))
    db.close()
    try:
        mine, theirs = seek(c, rated, title="greatfire", seats=3), seek(c, newcomer, title="greatfire", seats=3)
        assert redis.hget(keys.seek(mine["id"]), "rating") == repr(float(model.display(30.0)))
        assert redis.hget(keys.seek(theirs["id"]), "rating") == ""
    finally:
        for who, made in ((rated, mine), (newcomer, theirs)):
            c.gql(CANCEL, {"id": made["id"]}, who.access)
