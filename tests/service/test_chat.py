"""Chat beside the board (issue 49, section 2) against the real service: the two channels and who reads and writes
each, on GraphQL and REST; presets and the bots' answers; hostile input (a 1 MB message, control and bidirectional
characters, a flood) refused with typed errors that change nothing; blocks hiding a sender; the live subscription;
a finished match's chat in the archive, a message after the end included; a deleted account's messages removed."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis
from sqlalchemy import select

from firebreak.archive.database import Database
from firebreak.chat import keys as chat_keys
from firebreak.chat.tables import archived_chat
from firebreak.matches import keys
from firebreak.players.deletion import DELETED_NAME
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import Signed, guest, rest
from tests.service.test_account_deletion import archive_mentions, deletion_done, redis_mentions, seated_match
from tests.service.test_subscription import RECV_TIMEOUT, _open

SEND = """mutation($input: SendChatMessageInput!) { sendChatMessage(input: $input) { __typename
  ... on ChatMessageSent { chatMessage { seq channel seat player handle name text preset removed } }
  ... on BadMessage { code reason } ... on Muted { code until } ... on Problem { code message } } }"""
READ = """query($id: ID!, $channel: ChatChannel!, $after: Int!) { chat(matchId: $id, channel: $channel, after: $after) {
  __typename ... on ChatPage { endCursor hasNextPage messages { seq seat player handle name text preset removed } }
  ... on Problem { code } } }"""
FOLLOW = """subscription($id: ID!, $channel: ChatChannel!) {
  chat(matchId: $id, channel: $channel) { seq name text } }"""
BLOCK = """mutation($id: ID!) { blockPlayer(input: {playerId: $id}) { __typename } }"""


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API and a worker of their own, reconciling every 0.1 s, with a chat burst of 20 a sender (2 a second)."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("chat"), "firebreak-chat", api=True, workers=1,
                           FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="1", FIREBREAK_CHAT_BURST="20",
                           FIREBREAK_CHAT_PER_MINUTE="120") as service:
        service.wait_reconciling()
        yield service


@pytest.fixture()
def c(svc: h.Private) -> Iterator[Client]:
    with svc.client() as client:
        yield client


def send(c: Client, token: str | None, match_id: str, channel: str, **what: Any) -> dict[str, Any]:
    answer: dict[str, Any] = c.gql(SEND, {"input": {"matchId": match_id, "channel": channel, **what}},
                                   token)["sendChatMessage"]
    return answer


def read(c: Client, token: str | None, match_id: str, channel: str, after: int = 0) -> dict[str, Any]:
    answer: dict[str, Any] = c.gql(READ, {"id": match_id, "channel": channel, "after": after}, token)["chat"]
    return answer


def texts(page: dict[str, Any]) -> list[str]:
    return [m["text"] for m in page["messages"]]


def table(c: Client) -> tuple[Signed, Signed, Signed, h.Setup]:
    """ann (seat 0) and cat (seat 1) with a random bot in an active Great Fire match; dan watches."""
    ann, cat, dan = guest(c, "ann"), guest(c, "cat"), guest(c, "dan")
    return ann, cat, dan, seated_match(c, ann, [cat], 3, bots=1, seed=4900)


def test_each_channel_is_read_and_written_by_whom_it_is_for(c: Client, svc: h.Private) -> None:
    assert svc.base is not None
    ann, cat, dan, s = table(c)
    sent = send(c, ann.access, s.match_id, "SEATS", text="  good luck, cat  ")
    assert sent["__typename"] == "ChatMessageSent", sent
    assert sent["chatMessage"] == {"seq": 1, "channel": "SEATS", "seat": 0, "player": ann.player,
                               "handle": sent["chatMessage"]["handle"], "name": "ann", "text": "good luck, cat",
                               "preset": None, "removed": False}
    page = rest(svc.base, "GET", f"/v1/matches/{s.match_id}/chat?channel=SEATS", cat.access).json()
    assert [m["text"] for m in page["items"]] == ["good luck, cat"]
    assert page["endCursor"] == 1 and page["hasNextPage"] is False
    # a spectator never reads the seats' channel, nor does anybody without a credential
    assert read(c, dan.access, s.match_id, "SEATS")["code"] == "CHAT_NOT_ALLOWED"
    assert rest(svc.base, "GET", f"/v1/matches/{s.match_id}/chat?channel=SEATS").status_code == 403
    assert send(c, dan.access, s.match_id, "SEATS", text="hi")["code"] == "CHAT_NOT_ALLOWED"
    # the spectators' channel: written by a signed-in player without a seat, read by anyone, seats included
    watched = rest(svc.base, "POST", f"/v1/matches/{s.match_id}/chat", dan.access,
                   {"channel": "SPECTATORS", "text": "nice move"})
    assert watched.status_code == 201 and watched.json()["chatMessage"]["seat"] is None
    assert texts(read(c, ann.access, s.match_id, "SPECTATORS")) == ["nice move"]
    assert texts(read(c, None, s.match_id, "SPECTATORS")) == ["nice move"]
    assert send(c, ann.access, s.match_id, "SPECTATORS", text="hi")["code"] == "CHAT_NOT_ALLOWED"
    assert send(c, None, s.match_id, "SPECTATORS", text="hi")["code"] == "CHAT_NOT_ALLOWED"
    assert send(c, None, "nosuchmatch0000", "SPECTATORS", text="hi")["code"] == "MATCH_NOT_FOUND"


def test_a_seat_token_person_chats_and_bots_answer_presets(c: Client, svc: h.Private) -> None:
    s = h.new_match(c, 3, 4901, 1, ["random", "greedy"])  # an anonymous person at seat 0, two bots
    token = s.humans[0]
    sent = send(c, token, s.match_id, "SEATS", preset="goodLuck")
    assert sent["chatMessage"]["text"] == "Good luck!" and sent["chatMessage"]["preset"] == "goodLuck"
    page = read(c, token, s.match_id, "SEATS")
    assert [(m["seat"], m["preset"]) for m in page["messages"]] == [(0, "goodLuck"), (1, "goodLuck"),
                                                                     (2, "goodLuck")]
    assert send(c, token, s.match_id, "SEATS", preset="nonsense")["code"] == "BAD_MESSAGE"
    assert send(c, token, s.match_id, "SEATS", preset="hello", text="hi")["code"] == "BAD_MESSAGE"
    presets = rest(str(c.base), "GET", "/v1/chat/presets").json()["items"]
    assert {"id": "goodGame", "text": "Good game!"} in presets


def test_hostile_messages_are_typed_refusals_that_change_nothing(c: Client, svc: h.Private, redis: Redis) -> None:
    assert svc.base is not None
    ann, _cat, _dan, s = table(c)
    huge = c.post(SEND, {"input": {"matchId": s.match_id, "channel": "SEATS", "text": "x" * 1_000_000}}, ann.access)
    assert huge.status_code == 413 and huge.json()["errors"][0]["extensions"]["code"] == "BODY_TOO_LARGE"
    for text, reason in [("x" * 60_000, "too_long"), ("a" * 501, "too_long"), ("   ", "empty"),
                         ("evil \u202egnp.exe", "bidi"), ("a\u2066b", "bidi"), ("bell\x07", "control"),
                         ("nul\x00", "control")]:
        answer = send(c, ann.access, s.match_id, "SEATS", text=text)
        assert answer["__typename"] == "BadMessage" and answer["reason"] == reason, (reason, answer)
    big = rest(svc.base, "POST", f"/v1/matches/{s.match_id}/chat", ann.access,
               {"channel": "SEATS", "text": "x" * 1_000_000})
    assert big.status_code in (413, 422), big.text  # the body limit or the text rule: typed either way
    composed = send(c, ann.access, s.match_id, "SEATS", text="e\u0301" * 300)  # 600 code points, 300 after NFC
    assert composed["__typename"] == "ChatMessageSent" and composed["chatMessage"]["text"] == "\u00e9" * 300
    assert redis.hget(chat_keys.last(s.match_id), "seats") == "1"  # only the good one (NFC: 300 characters)


def test_a_flood_is_held_back_after_the_burst(c: Client, svc: h.Private, redis: Redis) -> None:
    ann, _cat, _dan, s = table(c)
    answers = [c.http.post("/graphql", json={"query": SEND, "variables": {"input": {
        "matchId": s.match_id, "channel": "SEATS", "text": f"spam {n}"}}},
        headers={"authorization": f"Bearer {ann.access}"}).json() for n in range(100)]
    sent = [a for a in answers if (a.get("data") or {}).get("sendChatMessage")]
    limited = [a for a in answers if any(e["extensions"]["code"] == "RATE_LIMITED" for e in a.get("errors", []))]
    assert 20 <= len(sent) <= 40 and len(sent) + len(limited) == 100, (len(sent), len(limited))
    assert int(redis.hget(chat_keys.last(s.match_id), "seats") or 0) == len(sent)


def test_a_blocked_sender_is_hidden_from_the_blocker_only(c: Client, svc: h.Private) -> None:
    ann, cat, dan, s = table(c)
    send(c, ann.access, s.match_id, "SEATS", text="from ann")
    send(c, cat.access, s.match_id, "SEATS", text="from cat")
    assert c.gql(BLOCK, {"id": ann.player}, cat.access)["blockPlayer"]["__typename"] != "Problem"
    assert texts(read(c, cat.access, s.match_id, "SEATS")) == ["from cat"]
    assert texts(read(c, ann.access, s.match_id, "SEATS")) == ["from ann", "from cat"]
    send(c, dan.access, s.match_id, "SPECTATORS", text="from dan")
    assert texts(read(c, cat.access, s.match_id, "SPECTATORS")) == ["from dan"]


def test_the_subscription_sends_the_backlog_then_each_new_message(c: Client, svc: h.Private) -> None:
    assert svc.base is not None
    ann, cat, dan, s = table(c)
    send(c, ann.access, s.match_id, "SEATS", text="before")

    async def follow() -> list[str]:
        ws = await _open(str(svc.base), cat.access)
        got: list[str] = []
        try:
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": FOLLOW, "variables": {"id": s.match_id, "channel": "SEATS"}}}))
            while len(got) < 3:
                message = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                assert message["type"] == "next", message
                got.append(message["payload"]["data"]["chat"]["text"])
                if len(got) == 1:  # caught up: the next ones come live
                    await asyncio.to_thread(send, c, ann.access, s.match_id, "SEATS", text="live one")
                    await asyncio.to_thread(send, c, ann.access, s.match_id, "SEATS", text="live two")
        finally:
            await ws.close()
        return got

    assert asyncio.run(follow()) == ["before", "live one", "live two"]

    async def refused() -> dict[str, Any]:
        ws = await _open(str(svc.base), dan.access)
        try:
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": FOLLOW, "variables": {"id": s.match_id, "channel": "SEATS"}}}))
            answer: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
            return answer
        finally:
            await ws.close()

    error = asyncio.run(refused())
    assert error["type"] in ("error", "next") and "CHAT_NOT_ALLOWED" in json.dumps(error), error


def test_a_finished_matchs_chat_is_archived_and_read_from_there(c: Client, svc: h.Private, redis: Redis) -> None:
    """The game's chat and a message after the end go into the archive; once Redis lets the match's chat go, the
    reads come from the archive."""
    ann, cat, _dan, _s = table(c)
    over = seated_match(c, ann, [cat], 2, seed=4902)
    send(c, ann.access, over.match_id, "SEATS", text="during")
    assert h.play_to_end(c, over, random.Random(4902)).final["status"] == "OVER"
    h.wait_for(lambda: redis.zscore(keys.finished_pending(svc.settings.queue), over.match_id) is None,
               "the finished match's finishing")
    assert redis.ttl(chat_keys.messages(over.match_id)) > 0  # as long as the finished match's keys
    send(c, cat.access, over.match_id, "SEATS", text="gg after")
    db = Database.from_settings()
    try:
        def archived() -> list[str]:
            with db.read() as conn:
                return list(conn.execute(select(archived_chat.c.text).where(
                    archived_chat.c.match_id == over.match_id).order_by(archived_chat.c.seq)).scalars())
        h.wait_for(lambda: archived() == ["during", "gg after"], "the chat in the archive")
    finally:
        db.close()
    redis.delete(*chat_keys.every(over.match_id))  # Redis lets the chat go
    assert texts(read(c, ann.access, over.match_id, "SEATS")) == ["during", "gg after"]


def test_a_deleted_accounts_messages_are_removed_everywhere(c: Client, svc: h.Private, redis: Redis) -> None:
    """ann chats at her seat and, as a spectator, in a match she does not sit in; she deletes her account: both
    messages show as removed (no text, no id), and neither Redis nor the archive names her."""
    assert svc.base is not None
    ann, cat, dan, s = table(c)
    send(c, ann.access, s.match_id, "SEATS", text="my secret plan")
    other = seated_match(c, cat, [dan], 2, seed=4903)
    send(c, ann.access, other.match_id, "SPECTATORS", text="watching you")
    seats_page = f"/v1/matches/{s.match_id}/chat?channel=SEATS"
    [before] = rest(svc.base, "GET", seats_page, cat.access).json()["items"]
    assert rest(svc.base, "DELETE", "/v1/me", ann.access).status_code == 202
    h.wait_for(lambda: deletion_done(redis, ann.player), "the deletion", deadline=90)
    for match_id, channel in ((s.match_id, "SEATS"), (other.match_id, "SPECTATORS")):
        [gone] = read(c, cat.access, match_id, channel)["messages"]
        assert gone["removed"] and gone["text"] == "" and gone["player"] is None and gone["name"] == DELETED_NAME
    [after] = rest(svc.base, "GET", seats_page, cat.access).json()["items"]
    assert (after["seq"], after["seat"], after["at"]) == (before["seq"], before["seat"], before["at"])  # kept as sent
    mentions = redis_mentions(redis, ann.player)
    assert mentions == [f"player:{{p:{ann.player}}}:deleted"], mentions
    assert not any("secret plan" in m or "watching you" in m for m in redis_mentions(redis, "secret plan"))
    assert archive_mentions(ann.player) == []
