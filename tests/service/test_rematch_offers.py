"""A rematch is an offer every person accepts first (issue 48, section 3): offered, accepted and declined over
GraphQL and REST by players and by an anonymous seat's token, bots accepting at once, the players told on their
streams, the offer shown on the over match and in my matches, a rated match's rematch rated, concurrent answers of
three people over two API processes making one match, and an offer nobody finished expired by a worker's timer (real
API processes, real workers, real Redis). Killed API processes: test_rematch_faults.py."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import Redis

from firebreak.matches import keys
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import JOIN, Signed, guest, rest
from tests.service.test_rematch_invites import CREATE, OLD

ANSWER = """mutation($id: ID!) { %s(input: {matchId: $id}) { __typename
  ... on Rematched { matchId seat match { id status you } offer { status by accepted declined expiresAt } }
  ... on Problem { code message } } }"""
OFFER_ON = """query($id: ID!) { match(id: $id) { status rematch { id }
  rematchOffer { status by accepted declined expiresAt } } }"""
MY_OVER = """{ me { matches(status: OVER, first: 20) { edges { node { id
  rematchOffer { status by accepted } } } } } }"""


def answer(c: Client, mutation: str, match_id: str, token: str) -> dict[str, Any]:
    """Offer, accept or decline (the mutation's name) a rematch of match_id with a credential."""
    result: dict[str, Any] = c.gql(ANSWER % mutation, {"id": match_id}, token)[mutation]
    return result


def feed(redis: Redis, player: str) -> list[dict[str, Any]]:
    """The rematch events of a player's stream, oldest first."""
    rows = redis.xrange(keys.feed(player))
    return [e for e in (json.loads(fields["e"]) for _, fields in rows) if e["type"].startswith("rematch")]


def finished(c: Client, seed: int, *, rated: bool = False, anonymous: bool = True) -> tuple[h.Setup, list[str],
                                                                                              list[Signed]]:
    """An over match played to its end by random legal actions: players ann (seat 0) and cat (seat 1), then an
    anonymous seat (seat 2) or, for a rated or two-seat match, nobody else. Returns the setup, each seat's
    credential and the players."""
    ann, cat = guest(c, "ann"), guest(c, "cat")
    seats = 3 if anonymous else 2
    body: dict[str, Any] = {"title": "greatfire", "seats": seats}
    body.update({"rated": True} if rated else {"seed": seed})
    created = c.gql(CREATE, {"input": body}, ann.access)["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    s = h.Setup(created["matchId"], created["hostToken"], seats, seed, {})
    for seat, who in enumerate((ann, cat)):
        joined = c.gql(JOIN, {"input": {"matchId": s.match_id, "seat": seat}}, who.access)["joinMatch"]
        assert joined["__typename"] == "SeatJoined", joined
        s.humans[seat] = who.access
    if anonymous:
        s.humans[2] = h.join(c, s, "bob", seat=2)["token"]
    assert h.play_to_end(c, s, random.Random(seed)).final["status"] == "OVER"
    return s, [s.humans[seat] for seat in range(seats)], [ann, cat]


def test_a_rematch_is_made_only_once_every_person_accepted(client: Client, server: str, redis: Redis) -> None:
    """ann offers: nothing starts, cat is told and the old match shows the offer; cat accepts over REST: still
    nothing (bob's anonymous seat has not); bob accepts with his seat token: the rematch is made and started, and
    both players are told once."""
    s, tokens, (ann, cat) = finished(client, 4801)
    offered = answer(client, "offerRematch", s.match_id, tokens[0])
    assert offered["__typename"] == "Rematched" and offered["match"] is None, offered
    assert offered["offer"]["status"] == "OPEN" and offered["offer"]["by"] == 0
    assert offered["offer"]["accepted"] == [0] and offered["offer"]["declined"] == []
    new_id = offered["matchId"]
    assert redis.hget(keys.meta(new_id), "status") is None  # no match yet: only its id is claimed
    shown = client.gql(OFFER_ON, {"id": s.match_id})["match"]
    assert shown["rematch"] is None and shown["rematchOffer"] == offered["offer"]
    told = feed(redis, cat.player)
    assert [e["type"] for e in told] == ["rematchOffered"], told
    assert (told[0]["matchId"], told[0]["of"], told[0]["seat"], told[0]["by"]) == (new_id, s.match_id, 2, 0)
    assert told[0]["expiresAt"] == offered["offer"]["expiresAt"]
    assert feed(redis, ann.player) == []  # the offerer is not told of their own offer
    row = {"id": s.match_id, "rematchOffer": {"status": "OPEN", "by": 0, "accepted": [0]}}
    h.wait_for(lambda: row in [e["node"] for e in client.gql(MY_OVER, token=cat.access)["me"]["matches"]["edges"]],
               "my matches to show the over match with its offer")
    listed = rest(server, "GET", "/v1/me/matches?status=OVER", cat.access).json()["items"]
    assert [i["rematchOffer"]["status"] for i in listed if i["id"] == s.match_id] == ["OPEN"]

    accepted = rest(server, "POST", f"/v1/matches/{s.match_id}/rematch-offer/accept", tokens[1])
    assert accepted.status_code == 200, accepted.text
    body = accepted.json()
    assert (body["matchId"], body["seat"], body["match"]) == (new_id, 2, None)
    assert body["offer"]["status"] == "OPEN" and body["offer"]["accepted"] == [0, 1]
    assert [e["type"] for e in feed(redis, ann.player)] == ["rematchAccepted"]
    assert redis.hget(keys.meta(new_id), "status") is None

    made = answer(client, "acceptRematch", s.match_id, tokens[2])  # the anonymous seat's own token
    assert made["__typename"] == "Rematched" and made["matchId"] == new_id, made
    assert made["match"] == {"id": new_id, "status": "ACTIVE", "you": 0}  # old seat 2 sits at 0
    assert made["offer"]["status"] == "ACCEPTED" and made["offer"]["accepted"] == [0, 1, 2]
    assert client.gql(OLD, {"id": s.match_id})["match"] == {"status": "OVER", "rematch": {"id": new_id}}
    got = rest(server, "GET", f"/v1/matches/{s.match_id}").json()
    assert got["rematch"] == {"id": new_id} and got["rematchOffer"]["status"] == "ACCEPTED"
    for who, types in ((ann, ["rematchAccepted", "rematchAccepted", "rematchStarted"]),
                       (cat, ["rematchOffered", "rematchAccepted", "rematchStarted"])):
        assert [e["type"] for e in feed(redis, who.player)] == types, who.name
    again = answer(client, "offerRematch", s.match_id, tokens[1])  # a later offer: the same rematch
    assert again["matchId"] == new_id and again["match"]["status"] == "ACTIVE", again
    refused = answer(client, "declineRematch", s.match_id, tokens[1])
    assert refused["__typename"] == "NoRematchOffer", refused


def test_a_decline_ends_the_offer_for_everyone_and_a_new_offer_starts_afresh(client: Client, server: str,
                                                                              redis: Redis) -> None:
    s, tokens, (ann, cat) = finished(client, 4802)
    offered = rest(server, "POST", f"/v1/matches/{s.match_id}/rematch-offer", tokens[1])  # cat offers over REST
    assert offered.status_code == 200 and offered.json()["offer"]["by"] == 1, offered.text
    declined = answer(client, "declineRematch", s.match_id, tokens[2])  # bob's anonymous seat declines
    assert declined["offer"]["status"] == "DECLINED" and declined["offer"]["declined"] == [2], declined
    assert declined["match"] is None
    for who in (ann, cat):
        assert feed(redis, who.player)[-1]["type"] == "rematchDeclined" and feed(redis, who.player)[-1]["by"] == 2
    late = answer(client, "acceptRematch", s.match_id, tokens[0])
    assert (late["__typename"], late["code"]) == ("NoRematchOffer", "NO_REMATCH_OFFER"), late
    assert client.gql(OFFER_ON, {"id": s.match_id})["match"]["rematchOffer"]["status"] == "DECLINED"
    fresh = answer(client, "rematch", s.match_id, tokens[0])  # the older name offers anew
    assert fresh["offer"] == {**fresh["offer"], "status": "OPEN", "by": 0, "accepted": [0], "declined": []}
    assert fresh["matchId"] == offered.json()["matchId"]  # the same claimed id throughout
    assert [e["type"] for e in feed(redis, cat.player)].count("rematchOffered") == 1  # cat offered the first
    assert [e["type"] for e in feed(redis, ann.player)].count("rematchOffered") == 1  # ann the second
    assert redis.hget(keys.meta(fresh["matchId"]), "status") is None


def test_bot_seats_accept_at_once_and_a_rated_match_rematch_is_rated(client: Client, redis: Redis) -> None:
    """Alone with bots, an offer makes the rematch at once; a rated match's rematch is rated once both accept."""
    ann = guest(client, "ann")
    created = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 3, "seed": 4803}}, ann.access)
    s = h.Setup(created["createMatch"]["matchId"], created["createMatch"]["hostToken"], 3, 4803, {})
    client.gql(JOIN, {"input": {"matchId": s.match_id, "seat": 1}}, ann.access)
    s.humans[1] = ann.access
    h.add_bot(client, s, "random", seat=0)
    h.add_bot(client, s, "random", seat=2)
    assert h.play_to_end(client, s, random.Random(4803)).final["status"] == "OVER"
    made = answer(client, "offerRematch", s.match_id, ann.access)
    assert made["match"]["status"] == "ACTIVE" and made["offer"]["accepted"] == [0, 1, 2], made

    r, tokens, _ = finished(client, 4804, rated=True, anonymous=False)
    assert answer(client, "offerRematch", r.match_id, tokens[0])["match"] is None
    made = answer(client, "acceptRematch", r.match_id, tokens[1])
    assert made["match"]["status"] == "ACTIVE", made
    assert redis.hget(keys.meta(made["matchId"]), "rated") == "1"


@pytest.fixture(scope="module")
def quick(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API and a worker of their own whose rematch offers stand one second."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("rematch-offers"), "firebreak-rematch-offers",
                           api=True, workers=1, FIREBREAK_TICK_SECONDS="0.1",
                           FIREBREAK_REMATCH_OFFER_SECONDS="1") as service:
        service.wait_reconciling()
        yield service


def test_an_offer_nobody_finished_expires_by_the_workers_timer_and_everyone_is_told(
        quick: h.Private, redis: Redis, tmp_path: Path) -> None:
    with quick.client() as c:
        s, tokens, (ann, cat) = finished(c, 4805)
        offered = answer(c, "offerRematch", s.match_id, tokens[0])
        assert redis.zscore(keys.REMATCH_OFFERS, s.match_id) == offered["offer"]["expiresAt"]  # the timer
        answer(c, "acceptRematch", s.match_id, tokens[1])
        expired = h.wait_for(lambda: [e for e in feed(redis, ann.player) if e["type"] == "rematchExpired"],
                             "the worker to expire the offer")  # nobody called: the reconciler's timer job did
        assert expired[0]["of"] == s.match_id and expired[0]["by"] is None
        assert [e["type"] for e in feed(redis, cat.player)][-1] == "rematchExpired"
        h.wait_for(lambda: redis.zscore(keys.REMATCH_OFFERS, s.match_id) is None, "the timer entry to go")
        assert redis.hget(keys.rematch_offer(s.match_id), "status") == "expired"
        assert c.gql(OFFER_ON, {"id": s.match_id})["match"]["rematchOffer"]["status"] == "EXPIRED"
        late = answer(c, "acceptRematch", s.match_id, tokens[2])
        assert late["__typename"] == "NoRematchOffer", late
        assert redis.hget(keys.meta(offered["matchId"]), "status") is None  # never made


def test_concurrent_accepts_of_three_people_from_two_api_processes_make_one_match(
        client: Client, server: str, second_server: str, redis: Redis) -> None:
    """ann offers; then cat and bob (an anonymous seat) accept, and ann offers again, four times each, all at once
    over both API processes and both surfaces: exactly one rematch is made, started, and every answer names it."""
    s, tokens, _ = finished(client, 4806)
    first = answer(client, "offerRematch", s.match_id, tokens[0])
    new_id = first["matchId"]

    def call(n: int) -> Any:
        token = tokens[n % 3]

        async def send(http: Any) -> dict[str, Any]:
            auth = {"authorization": f"Bearer {token}"}
            if n % 2:  # every other one over REST
                path = "rematch-offer" if n % 3 == 0 else "rematch-offer/accept"
                reply = await http.post(f"/v1/matches/{s.match_id}/{path}", headers=auth)
                assert reply.status_code == 200, reply.text
                body: dict[str, Any] = reply.json()
                return body
            mutation = "offerRematch" if n % 3 == 0 else "acceptRematch"
            reply = await http.post("/graphql", headers=auth,
                                    json={"query": ANSWER % mutation, "variables": {"id": s.match_id}})
            data: dict[str, Any] = reply.json()["data"][mutation]
            return data
        return send

    answers = h.at_once([server, second_server], [call(n) for n in range(12)])
    assert {a["matchId"] for a in answers} == {new_id}, answers
    assert sum(a["match"] is not None for a in answers) >= 1
    made = [key for key in redis.scan_iter("match:*:meta", count=1000) if redis.hget(key, "rematchOf") == s.match_id]
    assert made == [keys.meta(new_id)], made  # one match, however many answered at once
    assert h.state(client, new_id, tokens[2])["status"] == "ACTIVE"
    assert client.gql(OFFER_ON, {"id": s.match_id})["match"]["rematchOffer"]["accepted"] == [0, 1, 2]
    h.wait_for(lambda: redis.zscore(keys.REMATCH_PENDING, s.match_id) is None, "the outbox entry to be dropped")
