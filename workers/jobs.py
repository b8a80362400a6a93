"""RQ job functions. They take ids and versions only, and a job whose version has moved on does nothing.

A worker process (workers.main calls keep_runtime()) keeps one event loop and one pair of Redis clients
(matches, queue) for all the jobs of its main thread, where RQ runs them, built at its first job: a cluster
client thus discovers the cluster's nodes once per process, not once per job, and pooled connections are
reused. The pipeline is asynchronous and an asyncio client belongs to the loop it first ran on, so those jobs
run on this one long-lived loop rather than each on a fresh asyncio.run loop. Any other caller (another
thread, a process that did not ask) gets a runtime of its own for the one call, closed after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from rq import Queue
from rq.timeouts import BaseTimeoutException

from firebreak.archive.database import Database
from firebreak.matches import connections, keys, mine
from firebreak.matches.config import Settings
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.rematch import Rematches
from firebreak.matches.rematch_offers import Offers
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.store import MatchStore
from firebreak.matchmaking.seeks import Seeks
from firebreak.matchmaking.tables import Matcher
from firebreak.workers import account_deletion, finishing, moderation
from firebreak.workers.budget import budget_from_env

log = logging.getLogger("firebreak.workers")

T = TypeVar("T")


@dataclass
class Runtime:
    """What one worker process keeps across jobs: its settings, event loop, clients and pipeline."""

    settings: Settings
    loop: asyncio.AbstractEventLoop
    redises: connections.Redises
    pipeline: Pipeline
    _db: Database | None = None

    @property
    def db(self) -> Database:
        """The archive's database (FIREBREAK_DATABASE_URL / FIREBREAK_DATA_DIR), opened at its first use."""
        if self._db is None:
            self._db = Database.from_settings()
        return self._db

    @classmethod
    def build(cls, settings: Settings) -> Runtime:
        """A fresh loop, and clients of both roles (asks whether REDIS_URL is a cluster)."""
        loop = asyncio.new_event_loop()
        redises = connections.Redises.connect(settings.redis_url, settings.queue_redis_url, settings.redis_cluster,
                                              decode_responses=True)
        loop.run_until_complete(redises.open())
        queue = Queue(settings.queue, connection=connections.sync_client(redises.queue_url))
        store = MatchStore(redises.matches, settings, redises.queue)
        scheduler = Scheduler(redises.queue, settings, queue)
        return cls(settings, loop, redises, Pipeline(store, scheduler, budget_from_env()))

    def close(self) -> None:
        """Close the clients and the loop."""
        self.loop.run_until_complete(self.redises.aclose())
        if self._db is not None:
            self._db.close()
        self.pipeline.scheduler.queue.connection.close()
        self.loop.close()


_kept: list[Runtime] = []
_keeping = threading.Event()


def keep_runtime() -> None:
    """Keep one runtime for the jobs of this process's main thread (a worker process calls it at start)."""
    _keeping.set()


def _kept_runtime() -> Runtime:
    settings = Settings.from_env()
    if _kept and _kept[0].settings != settings:
        _kept.pop().close()
    if not _kept:
        _kept.append(Runtime.build(settings))
    return _kept[0]


def advance(match_id: str, version: int) -> str:
    """Run the service's decisions (bots, non-player steps) of a match from a version; return the outcome."""
    return _once(lambda rt: _advance(rt, str(match_id), int(version)))


async def _advance(rt: Runtime, match_id: str, version: int) -> str:
    settings, queue = rt.settings, rt.redises.queue
    try:
        outcome = await rt.pipeline.advance(match_id, version, settings.steps_per_job, settings.seconds_per_job)
    except Exception:
        await queue.hincrby(keys.JOBS_COUNTER, "error", 1)
        log.exception("advance failed for match %s at version %s", match_id, version)
        raise
    await queue.hincrby(keys.JOBS_COUNTER, outcome.value, 1)
    return outcome.value  # a plain string in RQ's stored result


def reindex(match_id: str, mark: float) -> bool:
    """Rewrite the players' index rows of a match whose change a crash interrupted (the reconciler's outbox entry,
    claimed at `mark`); return whether the match is still there."""
    return _once(lambda rt: mine.repair(rt.pipeline.store, str(match_id), float(mark)))


def rematch(match_id: str, mark: float) -> str | None:
    """Finish the rematch of an over match that a killed process left half-done (the reconciler's outbox entry,
    claimed at `mark`); return the rematch's id (None: nothing could be finished)."""
    return _once(lambda rt: Rematches(Lobby(rt.pipeline.store, rt.pipeline.scheduler)).resume(str(match_id),
                                                                                              float(mark)))


def rematch_expire(match_id: str, mark: float) -> str:
    """End an over match's rematch offer whose time has come and tell its players (the reconciler's timer entry,
    claimed at `mark`); return the offer's status."""
    return _once(lambda rt: Offers(Lobby(rt.pipeline.store, rt.pipeline.scheduler)).expire(str(match_id),
                                                                                            float(mark)))


def finished(match_id: str, claimed: float) -> str:
    """Do what a finished match is owed (its ratings, its archive record: workers/finishing.py), once, and drop its
    outbox entry (claimed until `claimed`); return what happened. (A job of the one-match form queued before
    finished_all.)"""
    return _once(lambda rt: finishing.finish(rt.pipeline.store, rt.db, str(match_id), float(claimed)))


def finished_all(match_ids: list[str], claimed: float) -> dict[str, str]:
    """finished() for each of the matches whose outbox entries one claim took (claimed until `claimed`); return
    what happened to each. One match's failure does not stop the others: its entry stays claimed, so the
    reconciler hands it on again after the stall period, and the job fails at the end with the first error (an
    operator sees it among the failed jobs)."""
    async def run(rt: Runtime) -> dict[str, str]:
        outcomes: dict[str, str] = {}
        failure: BaseException | None = None
        for match_id in match_ids:
            try:
                outcomes[str(match_id)] = await finishing.finish(rt.pipeline.store, rt.db, str(match_id),
                                                                 float(claimed))
            except BaseTimeoutException:
                raise  # the job's time is up: what is left is claimed again later
            except Exception as exc:  # the others are still owed their finishing
                log.exception("finishing match %s failed; its entry is claimed again later", match_id)
                failure = failure or exc
        if failure is not None:
            raise failure
        return outcomes
    return _once(run)


def delete_account(player: str, claimed: float | None = None) -> str:
    """Do the rest of a player's account deletion (workers/account_deletion.py): queued by the API at once, and by
    the reconciler for an outbox entry a crash left (claimed until `claimed`); return "deleted", "waiting" (the
    entry stays, and a later claim runs it again) or "unknown"."""
    return _once(lambda rt: account_deletion.delete_account(rt, str(player)))


def apply_ban(player: str, claimed: float | None = None) -> str:
    """Resign, leave and cancel what a banned player holds (workers/moderation.py): queued by the API with the ban,
    and by the reconciler for an outbox entry a crash left (claimed until `claimed`)."""
    return _once(lambda rt: moderation.apply_ban(rt, str(player)))


def match_seeks(pool: str) -> int:
    """One matching pass over a pool of seeks (matchmaking/tables.py); return how many tables it formed."""
    async def run(rt: Runtime) -> int:
        return len(await _matcher(rt).run_pool(str(pool)))
    return _once(run)


def form_table(table_id: str, mark: float) -> str | None:
    """Finish forming a table of seekers that a killed worker left half-formed (the reconciler's outbox entry,
    claimed at `mark`); return its match id (None: nothing to form)."""
    async def run(rt: Runtime) -> str | None:
        formed = await _matcher(rt).resume(str(table_id), float(mark))
        return None if formed is None else formed.match_id
    return _once(run)


def _matcher(rt: Runtime) -> Matcher:
    store = rt.pipeline.store
    return Matcher(Lobby(store, rt.pipeline.scheduler), Seeks(store.queue, rt.settings.queue))


def _once(work: Callable[[Runtime], Coroutine[Any, Any, T]]) -> T:
    """Run one coroutine of a job on the kept runtime (a worker's main thread) or on a runtime of its own."""
    if _keeping.is_set() and threading.current_thread() is threading.main_thread():
        return _run(_kept_runtime(), work)
    rt = Runtime.build(Settings.from_env())
    try:
        return _run(rt, work)
    finally:
        rt.close()


def _run(rt: Runtime, work: Callable[[Runtime], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine to its end on the runtime's loop; cancelled (and awaited) when the job is interrupted,
    so that no half-run task is left on a kept loop for the next job to resume."""
    task = rt.loop.create_task(work(rt))
    try:
        return rt.loop.run_until_complete(task)
    except BaseException:  # e.g. RQ's job timeout, raised by a signal handler while the loop ran
        task.cancel()
        with contextlib.suppress(BaseException):  # the job's own error is the one to raise
            rt.loop.run_until_complete(task)
        raise
