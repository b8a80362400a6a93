"""Matchmaking under concurrency with real processes (issue 25, section 3): two API processes and two workers with
200 seekers arriving at once put every seeker in exactly one match, fill no seat twice and lose no seeker; then the
same with the worker doing the matching killed (kill -9) in the middle of it."""

from __future__ import annotations

import os
import signal
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
from redis import Redis
from rq import Queue, Worker

from firebreak.matches import keys
from tests.service import support as h
from tests.service.conftest import api_process
from tests.service.players_support import Signed, guest
from tests.service.test_seeks import SEEK, seek_matched

QUEUE = "firebreak-seek-burst"
SEEKERS = 200


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[h.Private, list[str]]]:
    """Two API processes and two workers of their own (reconciling every 0.1 s, a one-second stall window)."""
    folder = tmp_path_factory.mktemp("seek-burst")
    with h.private_service(redis_url, folder, QUEUE, api=True, workers=2, FIREBREAK_TICK_SECONDS="0.1",
                           FIREBREAK_STALL_SECONDS="1", FIREBREAK_RATE_CLIENT_BURST="100000") as service, \
            api_process(redis_url, folder / "api2.log", service.env) as second:
        service.wait_reconciling()
        assert service.base is not None
        yield service, [service.base, second]


def seekers(base: str, count: int) -> list[Signed]:
    """Sign in `count` guests."""
    with h.Private({}, h.Settings(), h.ROOT, base=base).client() as c:
        return [guest(c, f"seeker{n}") for n in range(count)]


def seek_at_once(bases: list[str], players: list[Signed], fields: dict[str, Any]) -> list[str]:
    """Every player seeks at once, over both API processes, every other one over REST; the seek ids."""
    def call(n: int, who: Signed) -> Callable[[httpx.AsyncClient], Awaitable[str]]:
        async def one(client: httpx.AsyncClient) -> str:
            headers = {"authorization": f"Bearer {who.access}"}
            if n % 2:
                answer = await client.post("/v1/seeks", json=fields, headers=headers)
                assert answer.status_code == 201, answer.text
                return str(answer.json()["id"])
            response = await client.post("/graphql", json={"query": SEEK, "variables": {"input": fields}},
                                         headers=headers)
            body = response.json()["data"]["seek"]
            assert body["__typename"] == "Seek", body
            return str(body["id"])
        return one

    return h.at_once(bases, [call(n, who) for n, who in enumerate(players)])


def check_every_seeker_seated_once(redis: Redis, seek_ids: list[str], players: list[Signed], seats: int) -> None:
    """Wait until every seek is matched, then check the tables: each match holds `seats` seekers at distinct seats,
    each seat bound to its seeker's player, every player in exactly one match, nothing left in the outbox."""
    def settled() -> bool:
        pipe = redis.pipeline(transaction=False)
        for seek_id in seek_ids:
            pipe.hget(keys.seek(seek_id), "status")
        return all(status == "matched" for status in pipe.execute())

    h.wait_for(settled, "every seeker to be matched", deadline=120, pause=0.1)
    records = [redis.hgetall(keys.seek(seek_id)) for seek_id in seek_ids]
    by_match: dict[str, list[dict[str, str]]] = {}
    for record in records:
        by_match.setdefault(record["match"], []).append(record)
    assert len(by_match) == len(seek_ids) // seats
    for match_id, sitting in by_match.items():
        assert len(sitting) == seats and len({r["seat"] for r in sitting}) == seats, sitting
        meta = redis.hgetall(keys.meta(match_id))
        assert meta["status"] == "active" and meta["rated"] == "1", meta
        stored = redis.hgetall(keys.seats(match_id))
        assert len(stored) == seats
        for record in sitting:
            assert f'"player":"{record["player"]}"' in stored[record["seat"]].replace(" ", ""), stored
    assert Counter(r["player"] for r in records) == Counter(p.player for p in players)  # one seat per seeker
    by_player = {r["player"]: r for r in records}
    for who in players:
        assert redis.hlen(keys.mine(who.player)) == 1, "a seeker sits in more than one match"
        told = seek_matched(redis, who.player)  # once, even for a table a resumed job formed again
        assert told == [{"seekId": by_player[who.player]["id"], "matchId": by_player[who.player]["match"]}], told
    h.wait_for(lambda: redis.zcard(keys.seek_tables_pending(QUEUE)) == 0, "the outbox to be drained")


def test_200_seekers_at_once_over_two_apis_and_two_workers_sit_once_each(
        svc: tuple[h.Private, list[str]], redis: Redis) -> None:
    _, bases = svc
    players = seekers(bases[0], SEEKERS)
    seek_ids = seek_at_once(bases, players, {"title": "greatfire", "seats": 2})
    assert len(set(seek_ids)) == SEEKERS
    check_every_seeker_seated_once(redis, seek_ids, players, 2)


def test_a_worker_killed_in_the_middle_of_matching_loses_no_seeker_and_seats_none_twice(
        svc: tuple[h.Private, list[str]], redis: Redis) -> None:
    service, bases = svc
    players = seekers(bases[0], SEEKERS)
    queue = Queue(QUEUE, connection=Redis.from_url(service.settings.redis_url))
    killed: list[int] = []
    pending_at_kill: list[int] = []

    def kill_the_matcher() -> bool:
        """kill -9 the worker running a matching pass once a table is being formed."""
        if not redis.zcard(keys.seek_tables_pending(QUEUE)):
            return False
        for worker in Worker.all(connection=queue.connection, queue=queue):
            job = worker.get_current_job_id() or ""
            # a worker killed earlier stays registered, its matching job still named: never count it twice
            if job.startswith("seeks-") and worker.pid and worker.pid not in killed:
                os.kill(worker.pid, signal.SIGKILL)
                killed.append(worker.pid)
                pending_at_kill.append(int(redis.zcard(keys.seek_tables_pending(QUEUE))))
                if pending_at_kill[-1]:
                    return True
                service.start_worker()  # its tables were all formed just before the kill: not mid-forming, again
                return False
        return False

    watcher = threading.Thread(target=lambda: h.wait_for(kill_the_matcher, "a matching pass to kill", deadline=60,
                                                         pause=0.002))
    watcher.start()
    seek_ids = seek_at_once(bases, players, {"title": "greatfire", "seats": 2, "options": {"hiddenColours": True}})
    watcher.join()
    assert killed and pending_at_kill[-1] > 0, "a worker was killed while a table it formed was pending"
    # a process sent SIGKILL is gone a moment later, not at once: poll until it is (a fresh clone's run once
    # found both still alive right after the kill)
    h.wait_for(lambda: sum(proc.poll() is None for proc in service.workers) <= 1, "the killed worker to end",
               deadline=10)
    alive = [proc for proc in service.workers if proc.poll() is None]
    assert len(alive) == 1, "one worker is left"
    check_every_seeker_seated_once(redis, seek_ids, players, 2)
