"""Whole matches played through the API over real sockets, with a real Redis and real RQ worker processes.

People pick seeded random legal actions and submit them with the version they read; bots and 2-player
non-player turns are run by the workers. Every read and answer is checked for another seat's secrets, and
the stored log is replayed through the engine at the end: each step was applied exactly once, in order.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from redis import Redis

from tests.service import support as h


def _finish_checks(c: h.RecordingClient, redis: Redis, s: h.Setup, played: h.Played) -> None:
    final = played.final
    assert final["status"] == "OVER"
    assert final["result"] and final["result"]["winners"], final["result"]
    assert "result" in final["view"]
    h.check_event_log(c, s, final["version"])
    h.check_redaction(c, redis, s)
    record = h.check_replay(redis, s)
    assert record["status"] == "over"
    assert record["version"] == final["version"]
    by_seat: dict[int, list[dict[str, Any]]] = {}
    for entry in record["log"]:
        if not entry.get("system"):
            by_seat.setdefault(entry["seat"], []).append(entry)
    for seat in s.humans:
        assert not any("bot" in e for e in by_seat.get(seat, [])), f"a bot moved for person {seat}"
        assert len(by_seat.get(seat, [])) == played.accepted[seat], \
            f"seat {seat}: {played.accepted[seat]} actions accepted, {len(by_seat.get(seat, []))} in the log"
    for seat, level in s.bots.items():
        assert by_seat.get(seat), f"bot seat {seat} never moved"
        assert all(e.get("bot") == level for e in by_seat[seat]), f"seat {seat} moved other than as a {level} bot"
    seats = {row["seat"]: row for row in final["seats"]}
    for seat in range(s.seats):
        assert seats[seat]["taken"]
        assert seats[seat]["kind"] == ("human" if seat in s.humans else "bot")
        assert seats[seat]["level"] == s.bots.get(seat)
    c.assert_secrets_confined()


MATCHES = [
    pytest.param(3, ["random", "random"], 1, {"hiddenColours": True}, id="3p-1human-2random-hidden"),
    pytest.param(4, ["greedy", "greedy"], 2, None, id="4p-2humans-2greedy"),
    pytest.param(6, ["random"] * 5, 1, {"hiddenColours": True}, id="6p-1human-5random-hidden"),
    pytest.param(2, ["random"], 1, None, id="2p-1human-1random"),
    pytest.param(2, ["random"], 1, {"hiddenColours": True, "npcTies": "conductor"}, id="2p-1human-1random-hidden"),
    pytest.param(2, ["search"], 1, {"npcTies": "conductor"}, id="2p-1human-1search"),
]


@pytest.mark.parametrize(("seats", "bots", "humans", "options"), MATCHES)
def test_people_and_bots_play_a_match_to_the_end(server: str, redis: Redis, seats: int, bots: list[str],
                                                 humans: int, options: dict[str, Any] | None) -> None:
    seed = 1000 + seats * 10 + humans
    hidden = bool(options and options.get("hiddenColours"))
    with h.recording(server) as c:
        s = h.new_match(c, seats, seed, humans=humans, bots=bots, options=options)
        assert s.options["hiddenColours"] is hidden
        played = h.play_to_end(c, s, random.Random(seed), hidden=hidden)
        assert sum(played.accepted.values()) > 0, "the people never acted"
        _finish_checks(c, redis, s, played)
        if seats == 2:
            log = h.stored(redis, s.match_id)["log"]
            assert any(e.get("system") for e in log), "no non-player turn was run by the service"


def test_all_bots_match_finishes_by_itself(server: str, redis: Redis) -> None:
    """5 bots of every level, created and filled with addBot: nobody acts through the API, yet the match ends."""
    with h.recording(server) as c:
        s = h.new_match(c, 5, 4242, humans=0, bots=["random", "greedy", "search", "random", "greedy"])
        final = h.wait_for(lambda: (m := h.state(c, s.match_id, None))["status"] == "OVER" and m,
                           "the all-bot match to finish", pause=0.1)
        h.check_match(final, None, set(), hidden=False)
        _finish_checks(c, redis, s, h.Played(final, {}))


def test_a_seat_token_reads_only_its_own_seat_in_the_lobby_listing(server: str) -> None:
    """matches(status: ACTIVE) with a seat token: that match shows the seat, every other one a spectator's view."""
    with h.recording(server) as c:
        mine = h.all_human_match(c, seats=3, seed=5)
        other = h.all_human_match(c, seats=3, seed=6)
        token = mine.humans[1]
        page = c.gql("""query { matches(status: ACTIVE, first: 100) { items { id you view legalActions } } }""",
                     token=token)["matches"]["items"]
        by_id = {m["id"]: m for m in page}
        assert mine.match_id in by_id and other.match_id in by_id
        for match_id, m in by_id.items():
            viewer = 1 if match_id == mine.match_id else None
            assert m["you"] == viewer
            h.check_view(m["view"], viewer, hidden=False)
            if viewer is None:
                assert m["legalActions"] == []
        c.assert_secrets_confined()
