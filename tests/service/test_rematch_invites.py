"""Rematch, private matches, invitations and the filtered lobby through both surfaces of real API processes over
real Redis with real workers (issue 24, section 4): ten concurrent rematch calls from two API processes make one
match, a rematch claimed but never created is finished by the next call, a private match is reached only by its
code or an invitation, and filtered lobby pages keep their cursors."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from redis import Redis

from firebreak.matches import keys
from firebreak.matches.config import Settings
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.rematch import Rematches, carried
from firebreak.matches.rematch_offers import Offers, persons
from firebreak.matches.store import Loaded
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import JOIN, Signed, codes, guest, rest

REMATCH = """mutation($id: ID!) { rematch(input: {matchId: $id}) { __typename
  ... on Rematched { matchId seat match { id status you seatCount options seats { seat kind level player name } }
  offer { status by accepted declined expiresAt } }
  ... on Problem { code message } } }"""
ACCEPT = REMATCH.replace("rematch(input", "acceptRematch(input")
OLD = """query($id: ID!) { match(id: $id) { status rematch { id } } }"""
CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) { __typename
  ... on MatchCreated { matchId hostToken inviteCode inviteUrl } ... on Problem { code message } } }"""
INVITE = """mutation($id: ID!, $players: [ID!]!) { invitePlayers(input: {matchId: $id, playerIds: $players}) {
  __typename ... on PlayersInvited { matchId playerIds invitedAt } ... on Problem { code message } } }"""
ANSWER = """mutation($id: ID!, $accept: Boolean!) { answerInvitation(input: {matchId: $id, accept: $accept}) {
  __typename ... on InvitationAnswered { matchId accepted seat token started } ... on Problem { code message } } }"""
MY_INVITATIONS = """{ me { invitations { match { id title seatCount status } from { id name } invitedAt } } }"""
LIST = """query($status: MatchStatus!, $first: Int!, $after: String, $title: String, $seats: Int, $free: Int) {
  matches(status: $status, first: $first, after: $after, title: $title, seatCount: $seats, freeSeats: $free) {
  items { id seatCount seats { taken } } endCursor hasNextPage } }"""


def _finished(c: Client, seed: int) -> tuple[h.Setup, Signed, str]:
    """An over match of three seats: a player (seat 0), an anonymous seat token (seat 1) and a random bot (seat 2),
    played to its end by random legal actions; the player's session and the anonymous seat's token."""
    ann = guest(c, "ann")
    s = h.create(c, 3, seed)
    joined = c.gql(JOIN, {"input": {"matchId": s.match_id, "seat": 0}}, ann.access)["joinMatch"]
    assert joined["__typename"] == "SeatJoined" and joined["player"] == ann.player, joined
    s.humans[0] = ann.access
    anonymous = h.join(c, s, "bob", seat=1)["token"]
    h.add_bot(c, s, "random", seat=2)
    final = h.play_to_end(c, s, random.Random(seed)).final
    assert final["status"] == "OVER"
    return s, ann, anonymous


async def accepted_by_all(lobby: Lobby, old: Loaded) -> None:
    """Every person of the over match accepts its rematch offer, and nothing more (as if the process that took the
    last acceptance died at once)."""
    offers = Offers(lobby)
    for n, seat in enumerate(persons(old)):
        status, *_ = await offers._run(old, "accept" if n else "offer", seat)
    assert status == "accepted"


def _rematch_concurrently(bases: list[str], match_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    def rematch(n: int, token: str) -> Callable[[httpx.AsyncClient], Awaitable[dict[str, Any]]]:
        async def call(client: httpx.AsyncClient) -> dict[str, Any]:
            if n % 3 == 2:  # every third over REST
                answer = await client.post(f"/v1/matches/{match_id}/rematch",
                                           headers={"authorization": f"Bearer {token}"})
                assert answer.status_code == 200, answer.text
                return {"__typename": "Rematched", **answer.json()}
            response = await client.post("/graphql", json={"query": REMATCH, "variables": {"id": match_id}},
                                         headers={"authorization": f"Bearer {token}"})
            body = response.json()
            assert "errors" not in body, body
            result: dict[str, Any] = body["data"]["rematch"]
            return result
        return call

    return h.at_once(bases, [rematch(n, token) for n, token in enumerate(tokens)])


def test_ten_concurrent_rematch_calls_from_two_api_processes_make_one_rotated_match(
        client: Client, server: str, second_server: str, redis: Redis) -> None:
    s, ann, anonymous = _finished(client, 2501)
    tokens = [ann.access if n % 2 else anonymous for n in range(10)]
    answers = _rematch_concurrently([server, second_server], s.match_id, tokens)
    assert {a["__typename"] for a in answers} == {"Rematched"}, answers
    new_ids = {a["matchId"] for a in answers}
    assert len(new_ids) == 1, new_ids
    new_id = new_ids.pop()
    assert new_id != s.match_id
    made = 0
    for token, answer in zip(tokens, answers, strict=True):
        assert answer["seat"] == (1 if token == ann.access else 2), answer  # seat i sits at (i + 1) mod n
        if answer["match"] is not None:  # the answers after both persons agreed (the first one only offered)
            assert answer["match"]["you"] == answer["seat"] and answer["offer"]["status"] == "ACCEPTED"
            made += 1
    assert made >= 1, answers
    m = client.gql(h.STATE, {"id": new_id}, ann.access)["match"]
    assert m["status"] == "ACTIVE" and m["seatCount"] == 3 and m["you"] == 1  # started: every seat was carried
    seats = client.gql("""query($id: ID!) { match(id: $id) { seats { seat kind level player name } } }""",
                       {"id": new_id})["match"]["seats"]
    assert seats[0] == {"seat": 0, "kind": "bot", "level": "random", "player": None, "name": "random bot"}
    assert seats[1]["player"] == ann.player and seats[1]["kind"] == "human"
    assert seats[2] == {"seat": 2, "kind": "human", "level": None, "player": None, "name": "bob"}
    assert h.state(client, new_id, anonymous)["you"] == 2  # the anonymous seat's old token holds its new seat
    for base in (server, second_server):
        reader = Client(base)
        assert reader.gql(OLD, {"id": s.match_id})["match"] == {"status": "OVER", "rematch": {"id": new_id}}
        reader.http.close()
        assert rest(base, "GET", f"/v1/matches/{s.match_id}").json()["rematch"] == {"id": new_id}
    assert redis.get(keys.rematch(s.match_id)) == new_id
    assert redis.zscore(keys.lobby("active"), new_id) is not None  # listed like any match once started
    again = client.gql(REMATCH, {"id": s.match_id}, ann.access)["rematch"]  # later calls: the same match
    assert again["matchId"] == new_id
    h.wait_for(lambda: h.state(client, new_id, None)["version"] > 0 or h.state(client, new_id, None)["toAct"],
               "the rematch to be played by its bot or wait for a person")


def test_a_rematch_claimed_or_half_created_by_a_killed_api_is_finished_by_the_next_call(
        client: Client, server: str, redis_url: str) -> None:
    s, ann, anonymous = _finished(client, 2502)
    settings = Settings.from_env({"REDIS_URL": redis_url, "FIREBREAK_QUEUE": h.QUEUE})

    async def claim_only(lobby: Lobby, _: Pipeline) -> str | None:  # the API dies right after the claim
        return await Rematches(lobby).claim(s.match_id)

    claimed = h.run(settings, claim_only)
    assert claimed is not None
    assert client.gql(OLD, {"id": s.match_id})["match"]["rematch"] is None  # not created: not shown
    answer = rest(server, "POST", f"/v1/matches/{s.match_id}/rematch", anonymous)
    assert answer.status_code == 200, answer.text  # an offer, the claimed id; ann has not accepted yet
    assert answer.json()["matchId"] == claimed and answer.json()["match"] is None
    assert answer.json()["offer"]["status"] == "OPEN" and answer.json()["offer"]["accepted"] == [1, 2]
    answer = rest(server, "POST", f"/v1/matches/{s.match_id}/rematch-offer/accept", ann.access)
    assert answer.status_code == 200, answer.text
    assert answer.json()["matchId"] == claimed and answer.json()["match"]["status"] == "ACTIVE"
    assert answer.headers["location"].endswith(f"/v1/matches/{claimed}")
    assert client.gql(OLD, {"id": s.match_id})["match"]["rematch"] == {"id": claimed}

    t, player, _ = _finished(client, 2503)

    async def claim_and_create(lobby: Lobby, _: Pipeline) -> str:  # dies after the last acceptance and the first seat
        rematches = Rematches(lobby)
        new_id = await rematches.claim(t.match_id)
        assert new_id is not None
        old = await lobby.store.load(t.match_id)
        assert old is not None
        await accepted_by_all(lobby, old)
        await rematches._create(old, new_id)
        created = await lobby.store.load(new_id)
        assert created is not None
        await lobby.seat(created, 1, carried(old.seats[0]))  # seat 0's occupant, rotated to 1
        return new_id

    half = h.run(settings, claim_and_create)
    waiting = h.state(client, half, None)
    assert waiting["status"] == "WAITING"
    joined = client.gql(h.JOIN, {"input": {"matchId": half, "name": "intruder"}})["joinMatch"]
    assert joined["__typename"] == "SeatTaken", joined  # a rematch's seats are its occupants' only
    done = client.gql(REMATCH, {"id": t.match_id}, player.access)["rematch"]
    assert done["matchId"] == half and done["seat"] == 1 and done["match"]["status"] == "ACTIVE", done


def test_rematch_refusals_are_typed_and_change_nothing(client: Client, server: str, redis: Redis) -> None:
    s = h.all_human_match(client, 2, 2504)
    answer = client.gql(REMATCH, {"id": s.match_id}, s.humans[0])["rematch"]
    assert (answer["__typename"], answer["code"]) == ("MatchNotOver", "MATCH_NOT_OVER")
    refused = rest(server, "POST", f"/v1/matches/{s.match_id}/rematch", s.humans[1])
    assert refused.status_code == 409 and refused.json()["code"] == "MATCH_NOT_OVER"
    stranger = guest(client, "eve")
    answer = client.gql(REMATCH, {"id": s.match_id}, stranger.access)["rematch"]
    assert answer["__typename"] == "Unauthorized", answer
    answer = client.gql(REMATCH, {"id": "0123456789abcdef"}, stranger.access)["rematch"]
    assert answer["__typename"] == "MatchNotFound", answer
    missing = rest(server, "POST", f"/v1/matches/{s.match_id}/rematch")
    assert missing.status_code == 401
    assert redis.get(keys.rematch(s.match_id)) is None
    assert not redis.exists(keys.rematch_offer(s.match_id))
    t, ann, anonymous = _finished(client, 2505)
    for token in (ann.access, anonymous):  # no offer stands: nothing to accept or decline
        answer = client.gql(ACCEPT, {"id": t.match_id}, token)["acceptRematch"]
        assert (answer["__typename"], answer["code"]) == ("NoRematchOffer", "NO_REMATCH_OFFER"), answer
        refused = rest(server, "POST", f"/v1/matches/{t.match_id}/rematch-offer/decline", token)
        assert refused.status_code == 409 and refused.json()["code"] == "NO_REMATCH_OFFER", refused.text
    assert not redis.exists(keys.rematch_offer(t.match_id))
    assert client.gql(OLD, {"id": t.match_id})["match"] == {"status": "OVER", "rematch": None}


def test_a_private_match_is_unlisted_and_reached_only_by_its_code_or_an_invitation(
        client: Client, server: str, redis: Redis) -> None:
    host, cat, dan, eve = (guest(client, name) for name in ("host", "cat", "dan", "eve"))
    created = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 4, "private": True}},
                         host.access)["createMatch"]
    assert created["__typename"] == "MatchCreated" and created["inviteCode"], created
    match_id, code = created["matchId"], created["inviteCode"]
    assert created["inviteUrl"] == f"{server}/#/join/{code}"  # the code as a link to the web client's join page
    made = rest(server, "POST", "/v1/matches", host.access, {"title": "greatfire", "seats": 2, "private": True}).json()
    assert made["inviteUrl"] == f"{server}/#/join/{made['inviteCode']}"
    listed_one = rest(server, "POST", "/v1/matches", host.access, {"title": "greatfire", "seats": 2}).json()
    assert listed_one["inviteCode"] is None and listed_one["inviteUrl"] is None
    assert code not in str(redis.keys("match:{code:*")) and redis.get(
        keys.invite_code(hashlib.sha256(code.encode()).hexdigest())) == match_id  # only its hash
    assert redis.zscore(keys.lobby("waiting"), match_id) is None
    listed = client.gql(LIST, {"status": "WAITING", "first": 100})["matches"]["items"]
    assert match_id not in {m["id"] for m in listed}
    assert match_id not in {m["id"] for m in rest(server, "GET", "/v1/matches?first=100").json()["items"]}
    by_id = client.gql(JOIN, {"input": {"matchId": match_id}}, eve.access)["joinMatch"]
    assert by_id["__typename"] == "MatchNotFound", by_id  # no code, no invitation: not there
    wrong = client.gql(JOIN, {"input": {"code": "not-the-code"}}, eve.access)["joinMatch"]
    assert (wrong["__typename"], wrong["code"]) == ("InviteCodeNotFound", "BAD_INVITE_CODE")
    wrong_rest = rest(server, "POST", "/v1/matches/join", body={"code": "not-the-code"})
    assert wrong_rest.status_code == 404 and wrong_rest.json()["code"] == "BAD_INVITE_CODE"
    bucket = redis.hget("rate:{rate}:auth-failures:client:127.0.0.1", "tokens")
    assert bucket is not None and float(bucket) < 30  # counted as failed authentications
    by_code = rest(server, "POST", "/v1/matches/join", eve.access, body={"code": code})
    assert by_code.status_code == 201 and by_code.json()["player"] == eve.player, by_code.text

    # invitations: only the host invites; typed refusals change nothing
    not_host = client.gql(INVITE, {"id": match_id, "players": [cat.player]}, eve.access)["invitePlayers"]
    assert not_host["__typename"] == "NotCreator", not_host
    seat_token = by_code.json()["token"]
    assert client.gql(INVITE, {"id": match_id, "players": [cat.player]}, seat_token)["invitePlayers"][
        "__typename"] == "NotCreator"
    unknown = client.gql(INVITE, {"id": match_id, "players": [cat.player, "0123456789abcdef"]},
                         host.access)["invitePlayers"]
    assert unknown["__typename"] == "PlayerNotFound", unknown
    seated = client.gql(INVITE, {"id": match_id, "players": [eve.player]}, created["hostToken"])["invitePlayers"]
    assert seated["__typename"] == "AlreadySeated", seated
    assert client.gql(MY_INVITATIONS, token=cat.access)["me"]["invitations"] == []
    sent = client.gql(INVITE, {"id": match_id, "players": [cat.player, dan.player]}, host.access)["invitePlayers"]
    assert sent["__typename"] == "PlayersInvited" and sent["playerIds"] == [cat.player, dan.player], sent
    twice = rest(server, "POST", f"/v1/matches/{match_id}/invitations", created["hostToken"],
                 body={"playerIds": [dan.player]})
    assert twice.status_code == 409 and twice.json()["code"] == "ALREADY_INVITED", twice.text
    mine = client.gql(MY_INVITATIONS, token=cat.access)["me"]["invitations"]
    assert [(i["match"]["id"], i["match"]["seatCount"], i["from"]) for i in mine] == [
        (match_id, 4, {"id": host.player, "name": "host"})]
    listing = rest(server, "GET", "/v1/me/invitations", dan.access)
    assert listing.status_code == 200 and [i["match"]["id"] for i in listing.json()["items"]] == [match_id]

    accepted = client.gql(ANSWER, {"id": match_id, "accept": True}, cat.access)["answerInvitation"]
    assert accepted["__typename"] == "InvitationAnswered" and accepted["accepted"] and accepted["token"], accepted
    assert h.state(client, match_id, cat.access)["you"] == accepted["seat"]
    declined = rest(server, "POST", f"/v1/me/invitations/{match_id}", dan.access, body={"accept": False})
    assert declined.status_code == 200 and declined.json()["accepted"] is False and declined.json()["seat"] is None
    assert rest(server, "GET", "/v1/me/invitations", dan.access).json()["items"] == []
    again = client.gql(ANSWER, {"id": match_id, "accept": True}, dan.access)["answerInvitation"]
    assert again["__typename"] == "InvitationNotFound", again
    again_rest = rest(server, "POST", f"/v1/me/invitations/{match_id}", dan.access, body={"accept": True})
    assert again_rest.status_code == 404 and again_rest.json()["code"] == "INVITATION_NOT_FOUND"
    assert h.state(client, match_id, None)["seats"][3]["taken"] is False  # the declined seat stays open

    last = client.gql(JOIN, {"input": {"code": code}}, dan.access)["joinMatch"]
    assert last["__typename"] == "SeatJoined" and not last["started"], last
    bot = client.gql(h.BOT, {"input": {"matchId": match_id, "level": "random"}}, host.access)["addBot"]
    assert bot["__typename"] == "BotAdded" and bot["started"], bot  # the creating player may add bots too
    started = client.gql(INVITE, {"id": match_id, "players": [eve.player]}, host.access)["invitePlayers"]
    assert started["__typename"] == "MatchStarted", started
    assert redis.zscore(keys.lobby("active"), match_id) is None  # private for its whole life
    assert codes(client.post(MY_INVITATIONS).json()) == []  # no credential: me is null, not an error


def _private(client: Client, creator: Signed) -> dict[str, Any]:
    created = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 3, "private": True}},
                         creator.access)["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    return dict(created)


def _taken(server: str, match_id: str) -> list[bool]:
    answer = rest(server, "GET", f"/v1/matches/{match_id}")
    assert answer.status_code == 200, answer.text
    return [seat["taken"] for seat in answer.json()["seats"]]


def test_the_creator_of_a_private_match_takes_a_seat_by_its_id_over_rest(client: Client, server: str) -> None:
    """Issue 47: the creator's credential and the host token answered 404 MATCH_NOT_FOUND here (while reading the
    match and adding bots worked); a stranger still finds nothing, as for a match that does not exist."""
    ann, eve = guest(client, "ann"), guest(client, "eve")
    created = _private(client, ann)
    match_id = created["matchId"]
    seats = f"/v1/matches/{match_id}/seats"
    nowhere = rest(server, "POST", "/v1/matches/0123456789abcdef/seats", eve.access, body={})
    for token in (eve.access, None):
        stranger = rest(server, "POST", seats, token, body={})
        assert stranger.status_code == 404 and stranger.json()["code"] == "MATCH_NOT_FOUND", stranger.text
        assert stranger.json()["detail"] == nowhere.json()["detail"].replace("0123456789abcdef", match_id)
    assert _taken(server, match_id) == [False, False, False]
    mine = rest(server, "POST", seats, ann.access, body={})
    assert mine.status_code == 201 and mine.json()["player"] == ann.player, mine.text
    host = rest(server, "POST", seats, created["hostToken"], body={"name": "host's guest"})
    assert host.status_code == 201 and host.json()["player"] is None, host.text
    assert _taken(server, match_id) == [True, True, False]
    again = rest(server, "POST", seats, ann.access, body={})
    assert again.status_code == 409 and again.json()["code"] == "ALREADY_SEATED", again.text


def test_the_creator_of_a_private_match_takes_a_seat_by_its_id_over_graphql(client: Client, server: str) -> None:
    ann, eve = guest(client, "ann"), guest(client, "eve")
    created = _private(client, ann)
    match_id = created["matchId"]
    for token in (eve.access, None):
        stranger = client.gql(JOIN, {"input": {"matchId": match_id}}, token)["joinMatch"]
        assert (stranger["__typename"], stranger["message"]) == ("MatchNotFound", f"no match {match_id!r}")
    mine = client.gql(JOIN, {"input": {"matchId": match_id}}, ann.access)["joinMatch"]
    assert mine["__typename"] == "SeatJoined" and mine["player"] == ann.player, mine
    host = client.gql(JOIN, {"input": {"matchId": match_id, "name": "guest"}}, created["hostToken"])["joinMatch"]
    assert host["__typename"] == "SeatJoined" and host["player"] is None, host
    assert _taken(server, match_id) == [True, True, False]


def test_the_lobby_filters_by_title_seat_count_and_free_seats_and_pages_through_them(
        client: Client, server: str) -> None:
    made: dict[str, tuple[int, int]] = {}  # match id -> (seats, taken)
    for n, (seats, taken) in enumerate([(3, 0), (4, 1), (3, 2), (5, 0), (3, 1), (4, 3), (3, 0)]):
        s = h.create(client, seats, 2600 + n)
        for k in range(taken):
            h.join(client, s, f"p{k}")
        made[s.match_id] = (seats, taken)

    def pages(variables: dict[str, Any], first: int) -> list[str]:
        seen: list[str] = []
        after = None
        for _ in range(200):
            page = client.gql(LIST, {"status": "WAITING", "first": first, "after": after, **variables})["matches"]
            seen += [m["id"] for m in page["items"]]
            if not page["hasNextPage"]:
                return seen
            after = page["endCursor"]
        raise AssertionError("paging did not end")

    three = [m for m in pages({"seats": 3}, 2) if m in made]
    assert three == [m for m in reversed(list(made)) if made[m][0] == 3]  # newest first, none lost or repeated
    free3 = [m for m in pages({"free": 3}, 1) if m in made]
    assert free3 == [m for m in reversed(list(made)) if made[m][0] - made[m][1] >= 3]
    both = [m for m in pages({"seats": 4, "free": 2, "title": "greatfire"}, 5) if m in made]
    assert both == [m for m in reversed(list(made)) if made[m] == (4, 1)]
    assert pages({"title": "no-such-title"}, 5) == []
    rest_page = rest(server, "GET", "/v1/matches?seatCount=5&freeSeats=5&first=100").json()
    assert [m for m in (i["id"] for i in rest_page["items"]) if m in made] == [
        m for m in made if made[m] == (5, 0)]
    bad = rest(server, "GET", "/v1/matches?seatCount=x")
    assert bad.status_code == 422 and bad.json()["code"] == "VALIDATION_FAILED"

