"""The due-set and a match's own keys live on two Redis roles (issue 14), so their writes cannot be atomic
together: they are ordered so that a crash between any two leaves a due entry too early (harmless), never a
missing or late one. Checked in-process on the session's plain Redis (one server plays both roles), on private
queues that no worker serves."""

from __future__ import annotations

import asyncio
import time

from redis import Redis
from redis.asyncio import Redis as AsyncRedis
from rq import Queue

from firebreak.matches import keys, packing
from firebreak.matches.config import Settings
from firebreak.matches.lifecycle import MatchStatus, SeatKind, SeatRecord
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.reconciler import Reconciler
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.store import Claimed, MatchStore
from tests.service import support as h
from tests.service.test_reconciler import FAST, Crash, forget


class CrashAfterTheMatchWrite(MatchStore):
    """A store whose process dies right after a match's own script, before the exact due time is written."""

    async def set_due(self, match_id: str, version: int, due: float | None) -> bool:
        raise Crash(f"crashed before setting the due time of {match_id} at version {version}")


def settings_for(redis_url: str, queue: str) -> Settings:
    """Fast reconciler settings on a private queue."""
    return Settings.from_env({**h.service_env(redis_url), "FIREBREAK_QUEUE": queue, **FAST})


def test_a_crash_after_a_commit_leaves_the_match_due_within_the_stall_time(redis_url: str, redis: Redis) -> None:
    """A bot step commits, then the process dies before writing the exact due time: the "look soon" entry
    written before the commit makes a reconciler enqueue the next version's job within stall_seconds."""
    settings = settings_for(redis_url, "firebreak-due-crash")
    s = h.bot_match(settings, 951, seats=3, levels=("random",))

    async def step() -> None:
        connection = AsyncRedis.from_url(redis_url, decode_responses=True)
        queue_connection = AsyncRedis.from_url(redis_url, decode_responses=True)  # the queue role's own client
        try:
            store = CrashAfterTheMatchWrite(connection, settings, queue=queue_connection)
            try:
                await Pipeline(store, Scheduler(queue_connection, settings)).advance(s.match_id, 0, 1)
            except Crash:
                return
            raise AssertionError("the step did not reach the due-time write")
        finally:
            await connection.aclose()
            await queue_connection.aclose()

    before = time.time()
    asyncio.run(step())
    assert redis.hget(keys.state(s.match_id), "v") == "1", "the step was committed"
    score = redis.zscore(keys.due(settings.queue), s.match_id)
    assert score is not None and score <= time.time() + settings.stall_seconds
    queue = Queue(settings.queue, connection=Redis.from_url(redis_url))
    queue.empty()
    reconciler = Reconciler(Redis.from_url(redis_url), settings)
    jobs = reconciler.tick(before + settings.stall_seconds + 1)
    assert [j.split("-")[1:3] for j in jobs] == [[s.match_id, "1"]], jobs
    queue.empty()
    reconciler.redis.close()
    queue.connection.close()
    forget(redis, settings.queue, [s.match_id])


def test_on_one_redis_the_commit_writes_the_exact_due_time_itself(redis_url: str, redis: Redis) -> None:
    """With one plain Redis in both roles the commit script also sets the due time: no write is left for a crash
    to separate from the step (the store never calls set_due)."""
    settings = settings_for(redis_url, "firebreak-due-one")
    s = h.bot_match(settings, 952, seats=3, levels=("random",))

    async def step() -> None:
        connection = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            store = CrashAfterTheMatchWrite(connection, settings)
            assert store.one_redis
            await Pipeline(store, Scheduler(connection, settings)).advance(s.match_id, 0, 1)
        finally:
            await connection.aclose()

    before = time.time()
    asyncio.run(step())
    assert redis.hget(keys.state(s.match_id), "v") == "1", "the step was committed"
    score = redis.zscore(keys.due(settings.queue), s.match_id)
    assert score is not None and before + settings.stall_seconds <= score <= time.time() + settings.stall_seconds
    assert redis.hget(keys.due_versions(settings.queue), s.match_id) == "1"
    Queue(settings.queue, connection=Redis.from_url(redis_url)).empty()
    forget(redis, settings.queue, [s.match_id])


def test_an_early_entry_of_a_waiting_or_vanished_match_is_dropped(redis_url: str, redis: Redis) -> None:
    """A claim that did not fill its match (or a match since expired) left a "look soon" entry: the reconciler
    enqueues nothing for it and drops it."""
    settings = settings_for(redis_url, "firebreak-due-early")

    async def waiting() -> str:
        connection = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            store = MatchStore(connection, settings)
            match_id, _host = await store.create("greatfire", 3, {}, 5, {"x": 1})
            await store.look_soon(match_id)
            return match_id
        finally:
            await connection.aclose()

    match_id = asyncio.run(waiting())
    due = keys.due(settings.queue)
    redis.zadd(due, {"0123456789abcdef": time.time()})  # a match that is gone
    reconciler = Reconciler(Redis.from_url(redis_url), settings)
    assert reconciler.tick(time.time() + settings.stall_seconds + 1) == []
    assert redis.zscore(due, match_id) is None and redis.zscore(due, "0123456789abcdef") is None
    reconciler.redis.close()
    redis.delete(*keys.all_of(match_id))
    redis.zrem(keys.lobby("waiting"), match_id)


def test_an_entry_a_writer_moved_after_the_claim_is_kept(redis_url: str, redis: Redis) -> None:
    """The reconciler drops a waiting match's entry only if it still holds the time the tick claimed it at: a
    claim that started the match meanwhile and wrote the exact due time keeps it."""
    settings = settings_for(redis_url, "firebreak-due-moved")
    due = keys.due(settings.queue)
    match_id = "00000000000000aa"  # no meta: as the reconciler sees a match it must drop
    redis.zadd(due, {match_id: 12345.0})
    reconciler = Reconciler(Redis.from_url(redis_url), settings)
    reconciler._ensure_job(match_id, "999.5")  # claimed at another time: a writer moved it since
    assert redis.zscore(due, match_id) == 12345.0
    reconciler._ensure_job(match_id, "12345.0")
    assert redis.zscore(due, match_id) is None
    reconciler.redis.close()


def test_an_earlier_versions_due_time_never_overwrites_a_later_ones(redis_url: str, redis: Redis) -> None:
    """Two writers' exact due times arrive out of order (a stale job's reschedule after an act's commit): the
    later version's time stands; the version that ends the match takes it off the due-set."""
    settings = settings_for(redis_url, "firebreak-due-versions")
    match_id = "00000000000000bb"

    async def writes() -> list[bool]:
        connection = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            store = MatchStore(connection, settings)
            return [await store.set_due(match_id, 5, 500.0), await store.set_due(match_id, 4, 400.0),
                    await store.set_due(match_id, 5, 550.0)]
        finally:
            await connection.aclose()

    assert asyncio.run(writes()) == [True, False, True]
    assert redis.zscore(keys.due(settings.queue), match_id) == 550.0

    async def ends() -> bool:
        connection = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            return await MatchStore(connection, settings).set_due(match_id, 6, None)
        finally:
            await connection.aclose()

    assert asyncio.run(ends())
    assert redis.zscore(keys.due(settings.queue), match_id) is None
    assert redis.hget(keys.due_versions(settings.queue), match_id) is None


def test_on_one_redis_create_claims_and_the_last_commit_write_their_queue_entries_in_their_scripts(
        redis_url: str, redis: Redis) -> None:
    """With one plain Redis in both roles, the lobby lists, the claim's "look soon" entry, the started match's due
    time and the finished-match outbox entry are written by the match's own scripts (no separate write for a crash
    to skip): a waiting, started and finished match shows the same entries either way, and a starting claim
    answers the match as a load reads it."""
    settings = settings_for(redis_url, "firebreak-due-scripts")

    async def life(one_redis: bool) -> dict[str, object]:
        connection = AsyncRedis.from_url(redis_url, decode_responses=True)
        queue_connection = connection if one_redis else AsyncRedis.from_url(redis_url, decode_responses=True)
        seen: dict[str, object] = {}

        def entries(match_id: str) -> dict[str, bool]:
            return {"waiting": redis.zscore(keys.lobby("waiting"), match_id) is not None,
                    "active": redis.zscore(keys.lobby("active"), match_id) is not None,
                    "over": redis.zscore(keys.lobby("over"), match_id) is not None,
                    "due": redis.zscore(keys.due(settings.queue), match_id) is not None,
                    "finishing": redis.zscore(keys.finished_pending(settings.queue), match_id) is not None}

        try:
            store = MatchStore(connection, settings, queue=queue_connection)
            assert store.one_redis is one_redis
            match_id, _host = await store.create("greatfire", 2, {}, 5, {"x": 1})
            seen["created"] = entries(match_id)
            before = time.time()
            first = await store.claim_seat(match_id, None, SeatRecord("a", SeatKind.HUMAN, token_hash="h1"), 2)
            assert isinstance(first, Claimed) and (first.seat, first.full, first.started) == (0, False, None)
            seen["one seat"] = entries(match_id)
            soon = redis.zscore(keys.due(settings.queue), match_id)
            assert soon is not None and before + settings.stall_seconds <= soon <= time.time() + settings.stall_seconds
            second = await store.claim_seat(match_id, None, SeatRecord("b", SeatKind.HUMAN, token_hash="h2"), 2)
            assert isinstance(second, Claimed) and (second.seat, second.full) == (1, True)
            assert second.started == await store.load(match_id) and second.started is not None
            assert second.started.status is MatchStatus.ACTIVE and set(second.started.seats) == {0, 1}
            seen["started"] = entries(match_id)
            assert not await store.reschedule(match_id, 7, 123.0), "the match is at version 0, not 7"
            assert await store.reschedule(match_id, 0, 123.0)
            assert redis.zscore(keys.due(settings.queue), match_id) == 123.0
            started = second.started
            committed = await store.commit(started, packing.dumps({"x": 2}), {"seat": 0}, [], True,
                                           started.timing(), None)
            assert committed.ok and committed.version == 1
            seen["over"] = entries(match_id)
            ended = await store.load(match_id)
            assert ended is not None and ended.status is MatchStatus.OVER and ended.data == {"x": 2}
            assert redis.exists(keys.archive(match_id)) and not redis.exists(keys.meta(match_id)), "archived"
            redis.delete(*keys.all_of(match_id))
            redis.zrem(keys.lobby("over"), match_id)
            redis.zrem(keys.finished_pending(settings.queue), match_id)
            return seen
        finally:
            await connection.aclose()
            if not one_redis:
                await queue_connection.aclose()

    one, two = asyncio.run(life(True)), asyncio.run(life(False))
    assert one == two
    assert one == {
        "created": {"waiting": True, "active": False, "over": False, "due": False, "finishing": False},
        "one seat": {"waiting": True, "active": False, "over": False, "due": True, "finishing": False},
        "started": {"waiting": False, "active": True, "over": False, "due": True, "finishing": False},
        "over": {"waiting": False, "active": False, "over": True, "due": False, "finishing": True},
    }
