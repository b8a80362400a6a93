"""A title the service has never heard of, added by FIREBREAK_TITLES (matches/plugins.py), plays through the API
and real workers: the reference title, where every seat bids at once, so toAct lists several seats and the workers
serve every bot seat among them while a person acts for theirs."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from domain import titles
from matches.plugins import PluginError, register_titles
from tests.service import support as h
from tests.service.conftest import Client

PLUGIN = "tests.titles.blind_auction:BLIND_AUCTION"


def test_a_plugin_title_plays_to_its_end_with_simultaneous_seats(redis_url: str, tmp_path: Path) -> None:
    # The search bot thinks for 0.5 s a bid, so the person usually bids while it still owes its own.
    with h.private_service(redis_url, tmp_path, "firebreak-plugin", api=True, workers=2,
                           FIREBREAK_TITLES=PLUGIN, FIREBREAK_SEARCH_SECONDS="0.5",
                           FIREBREAK_SEARCH_ITERATIONS="1000000") as service:
        assert service.base is not None
        c = Client(service.base)
        try:
            _play(c)
        finally:
            c.http.close()


def _play(c: Client) -> None:
    """Create a 3-seat match (a person, a random and a search bot), bid until it ends, check what the person saw."""
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


@pytest.mark.parametrize("spec", ["nomodule", "tests.titles.blind_auction:NOPE", "json:dumps", "no_such_mod:X"])
def test_a_bad_title_setting_is_refused_by_name(spec: str) -> None:
    with pytest.raises(PluginError, match="FIREBREAK_TITLES"):
        register_titles(spec)
    assert "blindAuction" not in {t.id for t in titles.all_titles()}
