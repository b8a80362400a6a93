"""Lean storage: the log folds into packed chunks, the events stream keeps only the newest steps (older ones are
replayed from the seed and log, exactly as they were stored), a finished match becomes one packed value that
still serves its reads, result, events and idempotent retries, and idempotency records are bounded in count and
time."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from redis import Redis

from firebreak.matches import history, keys, packing
from tests.service import support as h
from tests.service.conftest import Client


def _play_steps(c: Client, s: h.Setup, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        _seat, token, m = h.to_act(c, s)
        result = h.act(c, s.match_id, token, rng.choice(m["legalActions"]), m["version"])
        assert result["__typename"] == "ActionAccepted", result


def test_the_log_folds_into_packed_chunks_and_replays_exactly(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=4, seed=7101)
        _play_steps(c, s, 2 * history.CHUNK + 5, random.Random(7101))
        items: Any = redis.lrange(keys.log(s.match_id), 0, -1)
        version = 2 * history.CHUNK + 5
        assert len(items) == 2 + 5, "the log did not fold its oldest entries into two chunks"
        assert all(packing.is_packed(item) for item in items[:2])
        assert not any(packing.is_packed(item) for item in items[2:])
        record = h.check_replay(redis, s)  # the state and the kept stream steps equal the replay of the log
        assert record["version"] == version and len(record["log"]) == version
        spectator = h.all_events(c, s.match_id, None)  # the oldest from a replay, the newest from the stream
        assert [row["version"] for row in spectator] == list(range(1, version + 1))
        h.check_redaction(c, redis, s)


def test_a_log_written_before_folding_is_folded_by_the_next_step(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=7102)
        rng = random.Random(7102)
        _play_steps(c, s, history.CHUNK + 3, rng)
        # as an older service left it: every entry plain
        entries = h.stored(redis, s.match_id)["log"]
        redis.delete(keys.log(s.match_id))
        redis.rpush(keys.log(s.match_id), *[json.dumps(entry) for entry in entries])
        _play_steps(c, s, 1, rng)
        items: Any = redis.lrange(keys.log(s.match_id), 0, -1)
        assert packing.is_packed(items[0]) and len(items) == 1 + 4
        h.check_replay(redis, s)


def test_a_finished_match_is_one_packed_value_and_serves_everything(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=7103)
        rng = random.Random(7103)
        seen: dict[str | None, list[dict[str, Any]]] = {}
        last: dict[str, Any] = {}
        while True:
            _seat, token, m = h.to_act(c, s)
            action = rng.choice(m["legalActions"])
            answer = h.act(c, s.match_id, token, action, m["version"], key=f"k{m['version']}")
            assert answer["__typename"] == "ActionAccepted", answer
            if h.state(c, s.match_id, None)["status"] == "OVER":
                last = {"token": token, "action": action, "version": m["version"], "answer": answer}
                break
            if answer["version"] % 40 == 0:  # what each viewer reads while live (old steps replayed, new streamed)
                seen = {viewer: h.all_events(c, s.match_id, viewer) for viewer in (None, *s.humans.values())}
        record = h.stored(redis, s.match_id)
        assert record["archived"] and record["status"] == "over"
        assert not any(redis.exists(key) for key in keys.all_of(s.match_id)), "live keys left beside the archive"
        assert 0 < redis.ttl(keys.archive(s.match_id)) <= 7 * 24 * 3600
        h.check_replay(redis, s)
        for viewer, before in seen.items():
            after = h.all_events(c, s.match_id, viewer)
            assert after[:len(before)] == before, "a replayed step differs from what was read while live"
            assert [row["version"] for row in after] == list(range(1, record["version"] + 1))
        final = h.state(c, s.match_id, None)
        assert final["status"] == "OVER" and final["version"] == record["version"]
        # the last move's retry still answers its first outcome (the idempotency records outlive the live keys)
        again = h.act(c, s.match_id, last["token"], last["action"], last["version"], key=f"k{last['version']}")
        assert again == last["answer"]
        late = h.act(c, s.match_id, last["token"], last["action"], record["version"])
        assert late["__typename"] == "MatchOver", late


def test_idempotency_records_are_bounded_in_count_and_time(redis_url: str, redis: Redis, tmp_path: Path) -> None:
    with h.private_service(redis_url, tmp_path, "firebreak-idem", api=True, workers=0,
                           FIREBREAK_IDEMPOTENCY_KEPT="3", FIREBREAK_IDEMPOTENCY_TTL="3") as service:
        assert service.base is not None
        c = Client(service.base)
        try:
            s = h.all_human_match(c, seats=3, seed=7104)
            seat, token, m = h.to_act(c, s)
            bad = {"type": "demolish", "district": "nowhere"}
            first = h.act(c, s.match_id, token, bad, m["version"], key="a")
            assert first["__typename"] == "IllegalAction"
            for key in ("b", "c", "d"):  # three more records: "a", the oldest, goes
                assert h.act(c, s.match_id, token, bad, m["version"], key=key)["__typename"] == "IllegalAction"
            assert redis.hlen(keys.idempotency(s.match_id)) == 3
            assert not redis.hexists(keys.idempotency(s.match_id), keys.idempotency_field(seat, "a"))
            # "a" is forgotten: the same key now applies the legal action
            ok = h.act(c, s.match_id, token, m["legalActions"][0], m["version"], key="a")
            assert ok["__typename"] == "ActionAccepted", ok
            assert h.act(c, s.match_id, token, m["legalActions"][0], m["version"], key="a") == ok
            # once the record is older than the TTL it is no longer honoured (a stale version is the answer)
            time.sleep(3.5)
            late = h.act(c, s.match_id, token, m["legalActions"][0], m["version"], key="a")
            assert late["__typename"] in ("StaleVersion", "NotYourTurn"), late
            assert h.state(c, s.match_id, None)["version"] == m["version"] + 1, "a forgotten key applied twice"
        finally:
            c.http.close()
