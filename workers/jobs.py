"""RQ job functions. They take ids and versions only, and a job whose version has moved on does nothing."""

from __future__ import annotations

import asyncio
import logging

from matches import connections, keys
from matches.config import Settings
from matches.pipeline import Pipeline
from matches.scheduler import Scheduler
from matches.store import MatchStore
from workers.budget import budget_from_env

log = logging.getLogger("firebreak.workers")


def advance(match_id: str, version: int) -> str:
    """Run the service's decisions (bots, non-player steps) of a match from a version; return the outcome."""
    return asyncio.run(_advance(Settings.from_env(), match_id, version))


async def _advance(settings: Settings, match_id: str, version: int) -> str:
    redis = connections.async_client(settings.redis_url, decode_responses=True)
    try:
        store = MatchStore(redis, settings)
        pipeline = Pipeline(store, Scheduler(redis, settings), budget_from_env())
        try:
            outcome = await pipeline.advance(str(match_id), int(version), settings.steps_per_job,
                                           settings.seconds_per_job)
        except Exception:
            await redis.hincrby(keys.JOBS_COUNTER, "error", 1)
            log.exception("advance failed for match %s at version %s", match_id, version)
            raise
        await redis.hincrby(keys.JOBS_COUNTER, outcome, 1)
        return outcome
    finally:
        await redis.aclose()
