"""Start an RQ worker on the Firebreak queue: python -m firebreak.workers.main (REDIS_URL selects the matches Redis, a
plain one or a cluster; QUEUE_REDIS_URL the queue Redis, required with a cluster: RQ runs on a plain Redis only).

A worker outlives Redis outages: its connections retry with backoff until Redis answers again (one log line when
the outage starts, one when it ends) and a job in progress pauses and goes on. Should RQ's loop still give up on
an error it does not handle (e.g. Redis refusing writes: out of memory, disk full), the worker starts a fresh loop
after a pause instead of exiting. SIGTERM / Ctrl-C stop it (a job in progress is finished first; during an
outage the worker stops at once).
"""

from __future__ import annotations

import argparse
import logging
import os
import threading
import time
from types import FrameType

from redis.exceptions import RedisError
from rq import Queue, SimpleWorker

from firebreak.archive.database import DatabaseSettings
from firebreak.matches import connections, feed, reconciler
from firebreak.matches.config import Settings
from firebreak.matches.envsettings import read_all
from firebreak.matches.plugins import register_titles
from firebreak.notifications.webhooks import sender
from firebreak.notifications.webhooks.forwarder import forwarding
from firebreak.notifications.webhooks.settings import WebhookSettings
from firebreak.push import sender as push_sender
from firebreak.push import vapid
from firebreak.push.forwarder import pushing
from firebreak.push.settings import PushSettings
from firebreak.workers import jobs
from firebreak.workers.settings import WORKER_SETTINGS

log = logging.getLogger("firebreak.workers")

RESTART_PAUSE = 1.0       # seconds before a fresh loop after RQ's loop gave up; doubles up to...
RESTART_PAUSE_CAP = 30.0


class Worker(SimpleWorker):
    """RQ's in-process worker, whose stop request also ends the connections' patient retries."""

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        """Warm shutdown (RQ's), and stop waiting for Redis."""
        connections.stop_retrying()
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]


ORPHAN_GRACE = 5.0  # seconds a worker whose supervisor died gets to stop by itself before it exits anyway


def _exit_when_orphaned(supervisor: int) -> None:
    """Exit once the supervisor that started this worker (firebreak serve) is gone, ORPHAN_GRACE after it if the
    stop it asked for (SIGTERM, by PR_SET_PDEATHSIG) has not ended the process: a worker that outlives its
    supervisor keeps the data folder locked, and nothing restarts or stops it."""
    while os.getppid() == supervisor:
        time.sleep(0.5)
    time.sleep(ORPHAN_GRACE)
    log.warning("the supervisor (pid %d) is gone: the worker exits", supervisor)
    logging.shutdown()
    os._exit(0)


def main(argv: list[str] | None = None) -> None:
    """Run one worker until stopped; --burst stops when the queue is empty."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--burst", action="store_true", help="exit once the queue is empty")
    parser.add_argument("--supervisor", type=int, metavar="PID",
                        help="the pid of the process supervising this worker (firebreak serve): exit once it is gone")
    args = parser.parse_args(argv)
    if args.supervisor is not None:
        threading.Thread(target=_exit_when_orphaned, args=(args.supervisor,), name="orphan-watch", daemon=True).start()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        read = read_all(WORKER_SETTINGS)  # one error naming every bad variable
        settings, webhooks, push = read[Settings], read[WebhookSettings], read[PushSettings]
        register_titles(settings.titles)
        keys = vapid.load(push, read[DatabaseSettings].data_dir)  # generated into the data folder when unset
    except ValueError as exc:
        parser.exit(2, f"workers.main: {exc}\n")
    try:
        cluster = connections.is_cluster(settings.redis_url, settings.redis_cluster)
        connections.queue_url_for(settings.redis_url, settings.queue_redis_url, cluster)
    except connections.ClusterRefused as exc:
        parser.exit(2, f"workers.main: {exc}\n")
    connections.patient()
    jobs.keep_runtime()  # one loop and client pair for every job of this process
    connection = connections.sync_client(settings.queue_url)
    queue = Queue(settings.queue, connection=connection)
    if not args.burst:
        reconciler.start(settings, cluster)  # every worker also re-enqueues what is due (matches/reconciler.py)
        # ...and forwards the feeds' events to the webhooks and sends them (notifications/webhooks/sender.py)
        sender.start(settings.queue_url, settings.queue, webhooks, tuple(t.value for t in feed.FeedType),
                     forwarding(settings, webhooks, cluster, pushing(settings.queue, push)))
        # ...and sends the pushes that forwarding made (push/sender.py)
        push_sender.start(settings.queue_url, settings.redis_url, cluster, settings.queue, push, keys)
    pause = RESTART_PAUSE
    while True:
        # SimpleWorker runs jobs in-process (no fork per job): bot moves answer in milliseconds. Jobs catch
        # nothing silently: a failing job is recorded as failed by RQ and the worker goes on.
        worker = Worker([queue], connection=connection)
        started = time.monotonic()
        try:
            worker.work(burst=args.burst, logging_level="INFO")
        except RedisError as exc:  # RQ's teardown: Redis away (once we stopped waiting) or refusing writes
            log.warning("the worker could not unregister (%s)", type(exc).__name__)
        if args.burst or connections.stopping():
            return
        if time.monotonic() - started > RESTART_PAUSE_CAP:
            pause = RESTART_PAUSE  # a loop that ran a while: not a crash loop
        log.warning("the worker loop ended on an unhandled error; starting a fresh one in %.0f s", pause)
        time.sleep(pause)
        pause = min(pause * 2, RESTART_PAUSE_CAP)


if __name__ == "__main__":
    main()
