"""A first end-to-end check: a human and two bots play a whole 3-player match over HTTP."""

from __future__ import annotations

import time

from tests.service.conftest import Client

CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) {
  __typename ... on MatchCreated { matchId hostToken } ... on Problem { code message } } }"""
JOIN = """mutation($input: JoinMatchInput!) { joinMatch(input: $input) {
  __typename ... on SeatJoined { seat token started } ... on Problem { code message } } }"""
BOT = """mutation($input: AddBotInput!) { addBot(input: $input) {
  __typename ... on BotAdded { seat started } ... on Problem { code message } } }"""
STATE = """query($id: ID!) { match(id: $id) { status version you toAct serviceToAct legalActions
  result { endReason winners scores { seat total } } } }"""
ACT = """mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { version events } ... on Problem { code message } } }"""


def test_a_human_and_two_bots_finish_a_match(client: Client) -> None:
    created = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 3}})["createMatch"]
    match_id, host = created["matchId"], created["hostToken"]
    joined = client.gql(JOIN, {"input": {"matchId": match_id, "name": "ann"}})["joinMatch"]
    token = joined["token"]
    for _ in range(2):
        assert client.gql(BOT, {"input": {"matchId": match_id, "level": "random"}}, host)["addBot"]["__typename"] \
            == "BotAdded"
    deadline = time.monotonic() + 120
    moves = 0
    while time.monotonic() < deadline:
        m = client.gql(STATE, {"id": match_id}, token)["match"]
        if m["status"] == "OVER":
            assert m["result"]["winners"]
            break
        if m["toAct"] == [m["you"]]:
            result = client.gql(ACT, {"input": {"matchId": match_id, "action": m["legalActions"][0],
                                                "expectedVersion": m["version"]}}, token)["act"]
            assert result["__typename"] == "ActionAccepted", result
            moves += 1
        else:
            time.sleep(0.02)
    else:
        raise AssertionError("the match did not finish in time")
    assert moves > 10
