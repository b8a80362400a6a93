"""The archive with real processes, on both backends: a short FIREBREAK_FINISHED_TTL, then the history page, the
replay and the export served by the API from the archive; and workers killed (kill -9) in the middle of archiving
while matches finish: every finished match archived exactly once, none lost."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any, cast
from unittest.mock import patch

import pytest
from redis import Redis
from rq.job import Job
from rq.registry import StartedJobRegistry
from sqlalchemy import func, select, text

from firebreak.archive.database import Database
from firebreak.archive.export import replay
from firebreak.archive.records import is_archived
from firebreak.archive.tables import archived_matches, archived_players
from firebreak.matches import keys
from firebreak.matches import reconciler as reconciler_module
from firebreak.matches.config import Settings
from firebreak.matches.reconciler import FINISHED_JOB, Reconciler
from firebreak.matches.store import MatchStore
from firebreak.workers import finishing, jobs
from tests.service.archive_support import BACKENDS, database_url, play, wait, with_store
from tests.service.players_support import guest, rest
from tests.service.support import private_service

MY_OVER = """query($a: String) { me { matches(status: OVER, first: 1, after: $a) {
  edges { node { id seat winners outcome endReason lastActivity others { name kind level player } } }
  pageInfo { endCursor hasNextPage } } } }"""
MATCH = """query($id: ID!) { match(id: $id) { id status version you endReason view
  result { endReason winners resigned scores { seat total } } events(afterVersion: 0, limit: 500) { version events }
  export } }"""


def _play(base: str, token: str, match_id: str, rng: random.Random) -> dict[str, Any]:
    """The player plays random legal actions over REST until the match is over; its last read."""
    end = time.monotonic() + 120
    while time.monotonic() < end:
        m = rest(base, "GET", f"/v1/matches/{match_id}", token).json()
        if m["status"] == "OVER":
            return m
        if m["you"] in m["toAct"] and m["legalActions"]:
            answer = rest(base, "POST", f"/v1/matches/{match_id}/actions", token,
                          {"action": rng.choice(m["legalActions"]), "expectedVersion": m["version"]})
            assert answer.status_code in (200, 409), answer.text
        else:
            time.sleep(0.02)
    raise AssertionError(f"match {match_id} did not finish")


def _history(c: Any, token: str) -> list[dict[str, Any]]:
    """Every page of the player's finished matches, one a page."""
    out, after = [], None
    while True:
        page = c.gql(MY_OVER, {"a": after}, token=token)["me"]["matches"]
        out += [edge["node"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return out
        after = page["pageInfo"]["endCursor"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_history_replay_and_export_come_from_the_archive_once_the_finished_ttl_has_passed(
        backend: str, request: pytest.FixtureRequest, redis_url: str, redis: Redis, tmp_path: Path) -> None:
    url = database_url(request, backend, tmp_path)
    settings = {"FIREBREAK_FINISHED_TTL": "8", "FIREBREAK_TICK_SECONDS": "0.2", "FIREBREAK_DATA_DIR": str(tmp_path),
                "FIREBREAK_DATABASE_URL": url if backend == "postgresql" else ""}
    with private_service(redis_url, tmp_path, f"archive-ttl-{backend}", workers=1, api=True, **settings) as svc, \
            svc.client() as c:
        assert svc.base is not None
        ann = guest(c, "ann")
        rng = random.Random(7)
        ids = []
        for seed, title in enumerate(("greatfire", "london", "greatfire")):
            made = rest(svc.base, "POST", "/v1/matches", ann.access, {"title": title, "seats": 2, "seed": seed})
            match_id = made.json()["matchId"]
            assert rest(svc.base, "POST", f"/v1/matches/{match_id}/seats", ann.access, {}).status_code == 201
            assert rest(svc.base, "POST", f"/v1/matches/{match_id}/bots", ann.access,
                        {"level": "random"}).status_code == 201
            if seed == 2:  # one ends by resignation
                assert rest(svc.base, "POST", f"/v1/matches/{match_id}/resign", ann.access).status_code == 200
            _play(svc.base, ann.access, match_id, rng)
            ids.append(match_id)
        before_history = _history(c, ann.access)
        assert sorted(m["id"] for m in before_history) == sorted(ids)
        before = {m: c.gql(MATCH, {"id": m}, token=ann.access)["match"] for m in ids}
        exports = {m: rest(svc.base, "GET", f"/v1/matches/{m}/export").json() for m in ids}
        db = Database(url)
        try:
            wait(lambda: all(is_archived(db, m) for m in ids), "the matches to be archived")
            wait(lambda: not any(redis.exists(keys.archive(m), *keys.all_of(m)) for m in ids),
                 "Redis to let the finished matches go")
        finally:
            db.close()
        assert _history(c, ann.access) == before_history
        for m in ids:
            after = c.gql(MATCH, {"id": m}, token=ann.access)["match"]
            assert after == before[m] and after["you"] is not None
            answer = rest(svc.base, "GET", f"/v1/matches/{m}/export")
            assert answer.status_code == 200 and answer.json() == exports[m] == after["export"]
            assert replay(answer.json()) == answer.json()["result"]
            events = rest(svc.base, "GET", f"/v1/matches/{m}/events?afterVersion=0&limit=500", ann.access).json()
            assert [item["version"] for item in events["items"]] == [e["version"] for e in after["events"]]
            assert rest(svc.base, "GET", f"/v1/matches/{m}/export", "not-a-token").status_code == 401
        assert rest(svc.base, "GET", "/v1/matches/00ff00ff/export").status_code == 404


def test_an_active_match_is_not_exported(server: str) -> None:
    made = rest(server, "POST", "/v1/matches", None, {"title": "london", "seats": 2}).json()
    answer = rest(server, "GET", f"/v1/matches/{made['matchId']}/export")
    assert answer.status_code == 409 and answer.json()["code"] == "MATCH_NOT_OVER"


def _waiting_inserts(url: str) -> int:
    """How many sessions of a PostgreSQL wait on a lock inside an insert."""
    db = Database(url)
    try:
        with db.read() as conn:
            return int(conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                         "AND query ILIKE 'INSERT INTO archived_match_players%'")).scalar_one())
    finally:
        db.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_workers_killed_mid_archive_leave_every_finished_match_archived_exactly_once(
        backend: str, request: pytest.FixtureRequest, redis_url: str, redis: Redis, tmp_path: Path) -> None:
    url = database_url(request, backend, tmp_path)
    settings = {"FIREBREAK_TICK_SECONDS": "0.2", "FIREBREAK_STALL_SECONDS": "2", "FIREBREAK_DATA_DIR": str(tmp_path),
                "FIREBREAK_DATABASE_URL": url if backend == "postgresql" else ""}
    queue = f"archive-kill-{backend}-{time.time_ns()}"
    db = Database(url)
    db.create()
    blocker = db.writer.connect()
    try:
        with private_service(redis_url, tmp_path, queue, workers=2, **settings) as svc:
            # hold the archive: on PostgreSQL the index table (a finisher then waits inside its transaction, its
            # match row written), on SQLite the write lock (a finisher waits at its transaction's start)
            transaction = blocker.begin()  # on SQLite: BEGIN IMMEDIATE, the write lock
            if backend == "postgresql":
                blocker.execute(text("LOCK TABLE archived_match_players IN ACCESS EXCLUSIVE MODE"))

            async def finish_matches(store: MatchStore) -> list[str]:
                tag = time.time_ns()
                return [(await play(store, "greatfire", 2, seed, [f"p{seed}x{tag}"], ["random"],
                                    resign=f"p{seed}x{tag}" if seed % 2 else None)).match_id for seed in range(8)]

            ids = cast(list[str], with_store(redis_url, queue, finish_matches))
            registry = StartedJobRegistry(queue, connection=Redis.from_url(redis_url))
            wait(lambda: any("-finished" in job for job in registry.get_job_ids()), "a finisher mid-archive")
            if backend == "postgresql":
                wait(lambda: _waiting_inserts(url), "a finisher blocked inside its transaction")
            svc.kill_workers()
            transaction.rollback()
            for _ in range(2):
                svc.start_worker()
            wait(lambda: all(is_archived(db, m) for m in ids), "every finished match archived", deadline=120)
            wait(lambda: not redis.zrange(keys.finished_pending(queue), 0, -1), "the finished outbox to drain")
        with db.read() as conn:
            rows = conn.execute(select(archived_matches.c.match_id, archived_matches.c.final_version,
                                       archived_matches.c.log).where(archived_matches.c.match_id.in_(ids))).all()
            players = conn.execute(select(func.count()).select_from(archived_players)
                                   .where(archived_players.c.match_id.in_(ids))).scalar_one()
        assert sorted(r[0] for r in rows) == sorted(ids)  # each once (the primary key), none lost
        assert all(version == len(log) and version > 0 for _, version, log in rows)
        assert players == len(ids)  # each match's player indexed once
    finally:
        blocker.close()
        db.close()


def test_one_job_finishes_a_claim_of_matches_and_one_failure_stops_none_of_the_others(
        redis_url: str, redis: Redis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reconciler hands the finished matches of one claim to one finished_all job: each is archived once and its
    outbox entry dropped; a match whose finishing fails keeps its entry (claimed again after the stall period)
    while the others are done, and the job fails with that error."""
    queue = f"finish-all-{time.time_ns()}"
    env = {"REDIS_URL": redis_url, "FIREBREAK_QUEUE": queue, "FIREBREAK_DATA_DIR": str(tmp_path),
           "FIREBREAK_DATABASE_URL": ""}
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    async def finish_matches(store: MatchStore) -> list[str]:
        return [(await play(store, "greatfire", 2, seed, [], ["random", "random"])).match_id for seed in range(3)]

    ids = cast(list[str], with_store(redis_url, queue, finish_matches))
    outbox = keys.finished_pending(queue)
    assert sorted(redis.zrange(outbox, 0, -1)) == sorted(ids)
    connection = Redis.from_url(redis_url)
    with patch.object(reconciler_module, "FINISHED_PER_JOB", 2):
        made = Reconciler(connection, Settings.from_env(env)).finished()
    handed = [Job.fetch(job, connection=connection) for job in made]
    connection.close()
    assert [job.func_name for job in handed] == [FINISHED_JOB] * 2  # 3 matches, 2 a job
    assert sorted(m for job in handed for m in job.args[0]) == sorted(ids)
    claimed = handed[0].args[1]
    assert all(job.args[1] == claimed for job in handed)
    broken = ids[1]

    async def refuse(db: Database, store: MatchStore, loaded: Any) -> None:
        if loaded.id == broken:
            raise RuntimeError("this archive write failed")

    monkeypatch.setattr(finishing, "FINISHERS", (refuse, *finishing.FINISHERS))
    with pytest.raises(RuntimeError, match="this archive write failed"):
        jobs.finished_all(ids, claimed)
    left = redis.zrange(outbox, 0, -1)
    assert left == [broken]  # the others' entries dropped, the failed one's kept for a later claim
    db = Database.from_settings()
    try:
        assert [is_archived(db, m) for m in ids] == [True, False, True]
        monkeypatch.setattr(finishing, "FINISHERS", finishing.FINISHERS[1:])
        assert jobs.finished_all([broken], claimed) == {broken: "finished"}
        assert jobs.finished_all(ids, claimed) == dict.fromkeys(ids, "finished")  # again: changes nothing
        assert not redis.zrange(outbox, 0, -1)
        with db.read() as conn:
            archived = conn.execute(select(func.count()).select_from(archived_matches)
                                    .where(archived_matches.c.match_id.in_(ids))).scalar_one()
        assert archived == len(ids)
    finally:
        db.close()
