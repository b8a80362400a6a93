"""Hands automated decisions (bot seats, seats the service plays for a person, 2-player non-player turns) to RQ
workers, once per (match, version)."""

from __future__ import annotations

import functools

import anyio.to_thread
from redis.asyncio import Redis
from rq import Queue

from firebreak.domain.contract import Match
from firebreak.matches import connections, keys
from firebreak.matches.config import Settings
from firebreak.matches.lifecycle import Seats

JOB = "firebreak.workers.jobs.advance"  # by name: this layer never imports the workers package
GUARD_TTL = 3600


def job_id(match_id: str, version: int, attempt: str | None = None) -> str:
    """The RQ job id of (match, version): the first job's, or a re-run's (the reconciler's) with its attempt."""
    return f"advance-{match_id}-{version}" + (f"-{attempt}" if attempt else "")


def enqueue_job(queue: Queue, match_id: str, version: int, job: str) -> None:
    """Put advance(match_id, version) on the queue under a job id (blocking: RQ's client is synchronous)."""
    queue.enqueue(JOB, match_id, version, job_id=job, result_ttl=600, failure_ttl=7 * 24 * 3600, job_timeout=300)


def automated_next(match: Match, seats: Seats) -> bool:
    """Whether the next decision is the service's: a system step, a bot seat's turn, or the turn of a person's
    seat the service plays (taken over or resigned: at bot speed)."""
    if match.is_over():
        return False
    if match.system_due():
        return True
    return any(seat in seats and seats[seat].automated for seat in match.to_act())


class Scheduler:
    """Enqueues advance(match_id, version) jobs; a job id and a guard key make each (match, version) unique.
    Everything here is on the queue Redis (`redis`, and RQ's blocking client; `queue`: one to share)."""

    def __init__(self, redis: Redis, settings: Settings, queue: Queue | None = None) -> None:
        self.redis = redis
        self.queue = queue or Queue(settings.queue, connection=connections.sync_client(settings.queue_url))

    async def enqueue(self, match_id: str, version: int) -> bool:
        """Enqueue the job for this version unless one already was; return whether this call enqueued it."""
        job = job_id(match_id, version)
        if not await self.redis.set(keys.job_guard(match_id, version), job, nx=True, ex=GUARD_TTL):
            return False
        await anyio.to_thread.run_sync(functools.partial(enqueue_job, self.queue, match_id, version, job))
        return True

    async def after_step(self, match_id: str, match: Match, seats: Seats) -> None:
        """Enqueue a job when the decision now pending is the service's."""
        if automated_next(match, seats):
            await self.enqueue(match_id, match.version)
