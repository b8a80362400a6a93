"""Start an RQ worker on the Firebreak queue: python -m workers.main (REDIS_URL selects the Redis)."""

from __future__ import annotations

import argparse
import logging

from redis import Redis
from rq import Queue, SimpleWorker

from domain.bots import check_environment
from matches import reconciler
from matches.config import Settings


def main() -> None:
    """Run one worker until stopped; --burst stops when the queue is empty."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--burst", action="store_true", help="exit once the queue is empty")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        check_environment()
        settings = Settings.from_env()
    except ValueError as exc:
        parser.exit(2, f"workers.main: {exc}\n")
    connection = Redis.from_url(settings.redis_url)
    # SimpleWorker runs jobs in-process (no fork per job): bot moves answer in milliseconds. Jobs catch
    # nothing silently: a failing job is recorded as failed by RQ and the worker goes on.
    worker = SimpleWorker([Queue(settings.queue, connection=connection)], connection=connection)
    if not args.burst:
        reconciler.start(settings)  # every worker also re-enqueues what is due (matches/reconciler.py)
    worker.work(burst=args.burst, logging_level="INFO")


if __name__ == "__main__":
    main()
