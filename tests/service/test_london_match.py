"""A London match end to end through the API and real workers: a person plays random legal actions against the
greedy and the search bot; the typed result carries London's score columns; nothing hidden leaks to the person;
the stored seed and log replay to the same end."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from redis import Redis

from firebreak.domain import titles
from firebreak.matches import keys
from tests.service import support as h
from tests.service.conftest import Client


def _create(c: Client, seats: int, seed: int) -> h.Setup:
    created = c.gql(h.CREATE, {"input": {"title": "london", "seats": seats, "seed": seed}})["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    return h.Setup(created["matchId"], created["hostToken"], seats, seed, created["match"]["options"])


def _no_other_hand(m: dict[str, Any], seat: int) -> None:
    """Before the end, the person sees its own hand only: every other player is a hand size (and the cards all
    seats saw it take from the board)."""
    view = m["view"]
    assert view["you"]["seat"] == seat
    for player in view["players"]:
        assert "hand" not in player, f"seat {player['seat']}'s hand is in seat {seat}'s view"


def test_a_london_match_with_a_person_and_two_bots_plays_to_its_end(redis_url: str, redis: Redis,
                                                                    tmp_path: Path) -> None:
    """On its own queue and workers, so the session's other bot matches do not hold its bots up."""
    with h.private_service(redis_url, tmp_path, "firebreak-london", api=True, workers=1) as service:
        assert service.base is not None
        client = Client(service.base)
        try:
            _play(client, redis, service)
        finally:
            client.http.close()


def _stuck(m: dict[str, Any], acted: int, service: h.Private, redis: Redis) -> str:
    """What a match that did not end in time was doing: its version and seats to act, the private queue, and
    the end of the worker's log (a failure in CI must say why)."""
    queue = service.settings.queue
    logs = "\n".join(path.read_text(errors="replace")[-3000:] for path in service.logs)
    return (f"not over after {acted} actions of the person: version {m['version']}, to act {m['toAct']}, "
            f"{redis.llen(f'rq:queue:{queue}')} jobs queued, due {redis.zscore(keys.due(queue), m['id'])}, "
            f"job outcomes {redis.hgetall(keys.JOBS_COUNTER)}\nworker log:\n{logs}")


def _play(client: Client, redis: Redis, service: h.Private) -> None:
    s = _create(client, 3, 4242)
    h.join(client, s, "ann")
    h.add_bot(client, s, "greedy")
    h.add_bot(client, s, "search")
    (seat, token), = s.humans.items()
    rng = random.Random(4242)
    deadline = time.monotonic() + 300
    acted = 0
    while True:
        m = h.state(client, s.match_id, token)
        if m["status"] == "OVER":
            break
        assert time.monotonic() < deadline, _stuck(m, acted, service, redis)
        _no_other_hand(m, seat)
        if seat in m["toAct"]:
            answer = h.act(client, s.match_id, token, rng.choice(m["legalActions"]), m["version"])
            assert answer["__typename"] == "ActionAccepted", answer
            acted += 1
        else:
            time.sleep(0.02)
    result = m["result"]
    assert result["endReason"] == "FINISHED" and result["winners"]
    columns = [column.key for column in titles.get("london").score_columns()]
    assert all([p["key"] for p in row["parts"]] == columns for row in result["scores"])
    assert all(row["total"] == sum(p["value"] for p in row["parts"]) for row in result["scores"])
    # The stored log replays from the seed to the same end, and the person was told only its own secrets.
    stored = h.stored(redis, s.match_id)
    match = titles.get("london").new_match(seats=3, seed=4242, options=s.options)
    private = 0
    for entry in stored["log"]:
        events = match.run_system_step() if entry.get("system") else match.apply(entry["seat"], entry["action"])
        private += sum(1 for e in events if "audience" in e and seat not in e["audience"])
    assert match.to_dict() == stored["data"] and match.is_over()
    assert match.view(seat) == m["view"]
    bots = [entry for entry in stored["log"] if entry.get("bot")]
    assert {entry["bot"] for entry in bots} == {"greedy", "search"} and acted > 0
    told = [e for step in h.all_events(client, s.match_id, token) for e in step["events"]]
    assert private > 0  # the bots' draws were private...
    assert all(seat in e["audience"] for e in told if "audience" in e)  # ...and none reached the person
