"""Titles the service has never heard of, added by FIREBREAK_TITLES (matches/plugins.py), play through the API
and real workers: Blind Auction, where every seat bids at once, so toAct lists several seats and the workers
serve every bot seat among them while a person acts for theirs; and tic-tac-toe (the peer bench's title), where a
person and a bot take turns."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from firebreak.domain import titles
from firebreak.matches.plugins import PluginError, register_titles
from tests.service import support as h
from tests.service.conftest import Client

PLUGINS = "tests.titles.blind_auction:BLIND_AUCTION, tests.titles.tictactoe:TITLE"


@pytest.fixture(scope="module")
def client(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    """A client of an API and two workers that register both reference titles."""
    # The search bot thinks for 0.5 s a bid, so the person usually bids while it still owes its own.
    with h.private_service(redis_url, tmp_path_factory.mktemp("plugin"), "firebreak-plugin", api=True, workers=2,
                           FIREBREAK_TITLES=PLUGINS, FIREBREAK_SEARCH_SECONDS="0.5",
                           FIREBREAK_SEARCH_ITERATIONS="1000000") as service:
        assert service.base is not None
        c = Client(service.base)
        try:
            yield c
        finally:
            c.http.close()


def test_a_plugin_title_plays_to_its_end_with_simultaneous_seats(client: Client) -> None:
    """A 3-seat match (a person, a random and a search bot) bids until it ends; the person saw what it should."""
    c = client
    listed = {t["id"]: t for t in c.gql("{ titles { id botLevels { name } scoreColumns { key } } }")["titles"]}
    assert "blindAuction" in listed and "search" in {b["name"] for b in listed["blindAuction"]["botLevels"]}
    created = c.gql(h.CREATE, {"input": {"title": "blindAuction", "seats": 3, "seed": 5}})["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    s = h.Setup(created["matchId"], created["hostToken"], 3, 5, created["match"]["options"])
    h.join(c, s, "ann")
    h.add_bot(c, s, "random")
    h.add_bot(c, s, "search")
    (seat, token), = s.humans.items()
    rng = random.Random(5)
    together = 0
    deadline = time.monotonic() + 180
    while True:
        m = h.state(c, s.match_id, token)
        if m["status"] == "OVER":
            break
        assert time.monotonic() < deadline, m
        if seat in m["toAct"]:
            together += len(m["toAct"]) > 1
            answer = h.act(c, s.match_id, token, rng.choice(m["legalActions"]), m["version"])
            assert answer["__typename"] in ("ActionAccepted", "StaleVersion"), answer
        else:
            time.sleep(0.05)
    result = m["result"]
    assert result["endReason"] == "FINISHED" and result["winners"]
    columns = [column["key"] for column in listed["blindAuction"]["scoreColumns"]]
    assert [part["key"] for part in result["scores"][0]["parts"]] == columns
    assert together > 0  # the person bid while bot seats owed their bids too
    log = h.all_events(c, s.match_id, token)
    assert {e["type"] for step in log for e in step["events"]} >= {"bidSealed", "bidsRevealed"}


def test_tictactoe_plays_to_a_result_between_a_person_and_a_bot(client: Client) -> None:
    """A person marks random empty cells against the greedy bot until a line or a full board ends the match."""
    c = client
    listed = {t["id"]: t for t in c.gql("{ titles { id botLevels { name } } }")["titles"]}
    assert {b["name"] for b in listed["tictactoe"]["botLevels"]} == {"random", "greedy"}
    created = c.gql(h.CREATE, {"input": {"title": "tictactoe", "seats": 2, "seed": 3,
                                         "options": {"firstSeat": 1}}})["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    s = h.Setup(created["matchId"], created["hostToken"], 2, 3, created["match"]["options"])
    h.join(c, s, "ann", seat=1)
    h.add_bot(c, s, "greedy")
    token = s.humans[1]
    rng = random.Random(3)
    marks = 0
    deadline = time.monotonic() + 60
    while (m := h.state(c, s.match_id, token))["status"] != "OVER":
        assert time.monotonic() < deadline, m
        if m["toAct"] == [1]:
            answer = h.act(c, s.match_id, token, rng.choice(m["legalActions"]), m["version"])
            assert answer["__typename"] == "ActionAccepted", answer
            marks += 1
        else:
            time.sleep(0.02)
    result = m["result"]
    assert result["endReason"] == "FINISHED" and result["winners"], result
    assert m["view"]["cells"].count(1) == marks and m["view"]["cells"].count(0) in (marks - 1, marks)
    log = [e for step in h.all_events(c, s.match_id, token) for e in step["events"]]
    assert [e["seat"] for e in log if e["type"] == "marked"][:2] == [1, 0]  # firstSeat marked first
    assert log[-1]["type"] == "gameOver"


@pytest.mark.parametrize("spec", ["nomodule", "tests.titles.blind_auction:NOPE", "json:dumps", "no_such_mod:X"])
def test_a_bad_title_setting_is_refused_by_name(spec: str) -> None:
    with pytest.raises(PluginError, match="FIREBREAK_TITLES"):
        register_titles(spec)
    assert "blindAuction" not in {t.id for t in titles.all_titles()}


def test_a_process_lists_the_lobby_without_the_matches_of_titles_it_does_not_serve(client: Client,
                                                                                   server: str) -> None:
    """FIREBREAK_TITLES may differ between API processes (a rolling deploy): the main API, which does not serve
    the plugin titles, lists the shared lobby on both surfaces without them instead of failing the whole page."""
    created = client.gql(h.CREATE, {"input": {"title": "tictactoe", "seats": 2}})["createMatch"]
    s = h.Setup(created["matchId"], created["hostToken"], 2, 0, created["match"]["options"])
    h.add_bot(client, s, "random")
    h.join(client, s, "ann")  # active now: reading it needs the engine of a title the main API lacks
    main = Client(server)
    try:
        for status in ("WAITING", "ACTIVE"):
            page = main.gql("query($s: MatchStatus!) { matches(status: $s, first: 100) { items { id title toAct } } }",
                            {"s": status})["matches"]["items"]
            assert all(item["title"] in {"greatfire", "london"} for item in page), page
            response = main.http.get("/v1/matches", params={"status": status, "first": 100})
            assert response.status_code == 200, response.text
            assert s.match_id not in {item["id"] for item in response.json()["items"]}
        listed = client.gql("{ matches(status: ACTIVE, first: 100) { items { id } } }")["matches"]["items"]
        assert s.match_id in {item["id"] for item in listed}  # the plugin API still lists it
    finally:
        main.http.close()
