"""The web client's invite link and rematch offer (issue 48, section 3), in headless Chromium: a friend opens a
private match's inviteUrl (#/join/CODE), names themself and is seated; once the match is over the other person
offers a rematch, the page shows the offer and accepting it takes the friend to the new match."""

from __future__ import annotations

from typing import Any

from tests.service.conftest import Client
from tests.service.test_rematch_invites import CREATE
from tests.service.test_seat_life import RESIGN
from tests.web.test_browser import MATCH, opened

OFFER = """mutation($id: ID!) { offerRematch(input: {matchId: $id}) { __typename
  ... on Rematched { matchId match { id } offer { status } } ... on Problem { code message } } }"""
JOIN_CODE = """mutation($code: String!) { joinMatch(input: {code: $code, name: "host"}) { __typename
  ... on SeatJoined { token } ... on Problem { code message } } }"""


def test_a_friend_joins_by_the_invite_link_and_accepts_a_rematch_offer(browser: Any, server: str) -> None:
    c = Client(server)
    try:
        created = c.gql(CREATE, {"input": {"title": "greatfire", "seats": 2, "private": True}})["createMatch"]
        assert created["inviteUrl"] == f"{server}/#/join/{created['inviteCode']}", created
        match_id = created["matchId"]
        with opened(browser, server) as p:
            page = p.page
            page.goto(created["inviteUrl"])
            page.get_by_test_id("join-page").wait_for()
            page.get_by_test_id("join-name").fill("friend")
            page.get_by_test_id("join-invited").click()
            page.wait_for_function("id => location.hash === `#/match/${id}`", arg=match_id)
            host = c.gql(JOIN_CODE, {"code": created["inviteCode"]})["joinMatch"]
            assert host["__typename"] == "SeatJoined", host
            page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
            resigned = c.gql(RESIGN, {"input": {"matchId": match_id}}, host["token"])["resign"]
            assert resigned["__typename"] == "Resignation" and resigned["matchEnded"], resigned  # two seats: over
            page.locator(f"{MATCH}[data-status=OVER]").wait_for()
            assert page.get_by_test_id("rematch").inner_text() == "Offer a rematch"

            offered = c.gql(OFFER, {"id": match_id}, host["token"])["offerRematch"]
            assert offered["__typename"] == "Rematched" and offered["match"] is None, offered
            page.locator("[data-testid=rematch-offer][data-offer=open]").wait_for()  # re-read while it stands
            page.get_by_test_id("rematch-accept").click()
            page.wait_for_function("id => location.hash === `#/match/${id}`", arg=offered["matchId"])
            page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
            assert page.get_attribute(MATCH, "data-viewer") == "seat-1"  # old seat 0 sits at 1, same token
    finally:
        c.http.close()
