"""The reconciler: every match whose due time has come gets a live advance job for its current version.

Each commit writes, in the same script, when the service must next look at the match (keys.due): a pending
service step's watchdog (stall_seconds after the commit), a running clock's deadline, a taken-over seat's next
move, the abandonment time. A tick claims the entries whose time has come (moving each to now + stall_seconds
in the same script, so that any number of reconcilers never take one entry twice) and makes sure a job for
the match's version is waiting in the queue: it enqueues a new one unless the latest job for that version
is still queued. A job left "started" by a dead worker, a failed job, an enqueue lost with a crash or with
Redis, a guard key left behind: none of them stops the next tick from enqueueing a fresh job. The job itself
decides what is due (see matches.duties) and applies each step with a compare-and-set commit, so a re-run
never applies a step twice.

It runs as a thread in every worker process (workers.main); a tick reads only the due entries it claims. At
start it adopts the active matches stored before the due-set existed. It reads a match's meta from the
matches Redis and everything else (due-set, lobby, RQ, guards, counters) from the queue Redis. An entry may
come early (a "look soon" written before a commit or claim that then failed or left nothing due): for an
active match the job finds nothing to do and sets the exact time; for a waiting or over match the entry is
dropped, unless a write moved it meanwhile. A tick also hands the players' index updates a crash left undone
(keys.MINE_PENDING entries older than stall_seconds: see matches/mine.py) to reindex jobs, and the rematches a
crash left half-done (keys.REMATCH_PENDING entries as old: see matches/rematch.py) to jobs that finish them, and
the rematch offers whose expiry has come (keys.REMATCH_OFFERS: see matches/rematch_offers.py) to jobs that end them,
and
the matches that ended (keys.finished_pending) to the jobs that rate and archive them (workers/finishing.py), and
the account deletions a crash left half-done (keys.DELETIONS_PENDING: players/deletion.py) to jobs that finish them,
and queues the matchmaking's passes over the pools of waiting seeks and the tables a crash left half-formed
(matchmaking/tables.py).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from redis import Redis
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from firebreak.matches import connections, keys
from firebreak.matches.config import Settings
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.mine import REINDEX_JOB
from firebreak.matches.rematch import RESUME_JOB
from firebreak.matches.rematch_offers import EXPIRE_JOB
from firebreak.matches.scheduler import GUARD_TTL, enqueue_job, job_id

FINISHED_JOB = "firebreak.workers.jobs.finished_all"  # by name: this layer never imports the workers package
FINISHED_PER_JOB = 50  # finished matches one job handles at most (an RQ job's own cost shared, each well in time)
MATCH_SEEKS_JOB = "firebreak.workers.jobs.match_seeks"  # a matching pass over one pool of seeks (matchmaking/tables.py)
FORM_TABLE_JOB = "firebreak.workers.jobs.form_table"  # finish forming a table a crash left half-formed
DELETE_ACCOUNT_JOB = "firebreak.workers.jobs.delete_account"  # the rest of an account's deletion (players/deletion.py)
APPLY_BAN_JOB = "firebreak.workers.jobs.apply_ban"  # a ban's seats and seeks (moderation/bans.py)

log = logging.getLogger("firebreak.reconciler")

BATCH = 200          # due entries one tick claims at most (the next tick takes the rest)
ADOPT_CHUNK = 1000   # active matches read per round trip when adopting those without a due entry

# Claim the entries of a sorted set due by now: each moved to a later time, so that no other claimer takes it until
# then. KEYS: the set (the due-set, an outbox); ARGV: now, batch, the time to look again (unless a writer sets
# another first). Returns the claimed members.
CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[3], id) end
return due
"""

# Drop a claimed entry of a match with nothing due, unless a writer moved it since the claim.
# KEYS: due-set, due versions; ARGV: match id, the claimed time.
_DROP = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 1
end
return 0
"""


class Reconciler:
    """Enqueues advance jobs for the matches whose due time has come."""

    def __init__(self, connection: Redis, settings: Settings, matches: Any = None) -> None:
        self.redis: Any = connection  # the queue Redis; bytes replies (RQ needs them)
        self.matches: Any = connection if matches is None else matches  # the matches Redis (plain or cluster)
        self.settings = settings
        self.queue = Queue(settings.queue, connection=connection)
        self.due_key = keys.due(settings.queue)
        self._claim = connection.register_script(CLAIM)
        self._drop = connection.register_script(_DROP)

    def tick(self, now: float | None = None) -> list[str]:
        """Claim the due entries and enqueue a job where none is waiting; return the jobs enqueued."""
        now = time.time() if now is None else now
        again = repr(now + self.settings.stall_seconds)
        claimed = self._claim(keys=[self.due_key], args=[repr(now), BATCH, again])
        enqueued = []
        for raw in claimed:
            job = self._ensure_job(raw.decode(), again)
            if job:
                enqueued.append(job)
        return (enqueued + self.reindex(now) + self.rematches(now) + self.finished(now) + self.seeks(now)
                + self.deletions(now))

    def deletions(self, now: float | None = None) -> list[str]:
        """Hand the account deletions whose rest is not done stall_seconds after they were asked (a crash, or a job
        that waits: workers/account_deletion.py), and the bans whose seats are not done (workers/moderation.py), to
        jobs that finish them, each entry claimed until stall_seconds from now; return the jobs."""
        return self._drain(keys.DELETIONS_PENDING, DELETE_ACCOUNT_JOB, "delete", now) + self._drain(
            keys.BANS_PENDING, APPLY_BAN_JOB, "ban", now)

    def reindex(self, now: float | None = None) -> list[str]:
        """Hand the players' index updates a crash left undone (matches/mine.py: outbox entries whose change began
        stall_seconds ago) to reindex jobs, each entry claimed until stall_seconds from now; return the jobs."""
        return self._drain(keys.MINE_PENDING, REINDEX_JOB, "mine", now)

    def rematches(self, now: float | None = None) -> list[str]:
        """Hand the rematches a crash left half-done (matches/rematch.py: outbox entries whose call began
        stall_seconds ago) to jobs that finish them, and the rematch offers whose time has come
        (matches/rematch_offers.py's timer) to jobs that expire them, each entry claimed until stall_seconds from
        now; return the jobs."""
        return self._drain(keys.REMATCH_PENDING, RESUME_JOB, "rematch", now) + self._drain(
            keys.REMATCH_OFFERS, EXPIRE_JOB, "offer", now, age=0.0)

    def finished(self, now: float | None = None) -> list[str]:
        """Hand the matches that ended (or may have: keys.finished_pending entries, written before the write that
        ends a match) to jobs that do what a finished match is owed (workers/finishing.py), each entry claimed
        until stall_seconds from now; return the jobs. No wait here: an entry whose ending write has not landed
        yet is left by its job, and claimed again after stall_seconds. The entries of one claim go to jobs of up to
        FINISHED_PER_JOB matches each: a short game ends every few moves, and an RQ job per match cost the workers
        more than the match's finishing itself."""
        return self._drain(keys.finished_pending(self.settings.queue), FINISHED_JOB, "finished", now, age=0.0,
                           per_job=FINISHED_PER_JOB)

    def seeks(self, now: float | None = None) -> list[str]:
        """Queue a matching pass for every pool with waiting seeks, unless one is queued (its guard, which lives
        stall_seconds at most, says so), and hand the tables a crash left half-formed (keys.seek_tables_pending
        entries older than stall_seconds: see matchmaking/tables.py) to jobs that finish them; return the jobs."""
        enqueued = []
        guard_ms = max(1, int(self.settings.stall_seconds * 1000))
        for raw in self.redis.zrange(keys.seek_pools(self.settings.queue), 0, -1):
            pool = raw.decode()
            if self.redis.set(keys.seek_job_guard(self.settings.queue, pool), "1", nx=True, px=guard_ms):
                job = f"seeks-{pool}-{time.time_ns()}"
                self.queue.enqueue(MATCH_SEEKS_JOB, pool, job_id=job, result_ttl=600, failure_ttl=7 * 24 * 3600,
                                   job_timeout=300)
                enqueued.append(job)
        return enqueued + self._drain(keys.seek_tables_pending(self.settings.queue), FORM_TABLE_JOB, "table", now)

    def _drain(self, outbox: str, function: str, prefix: str, now: float | None,
               age: float | None = None, per_job: int | None = None) -> list[str]:
        """Enqueue function(entry, claimed time) for every entry of an outbox older than `age` seconds (default:
        stall_seconds); with per_job, function(entries, claimed time) for each run of up to per_job entries."""
        now = time.time() if now is None else now
        again = repr(now + self.settings.stall_seconds)
        older = self.settings.stall_seconds if age is None else age
        claimed = [raw.decode() for raw in self._claim(keys=[outbox], args=[repr(now - older), BATCH, again])]
        size = per_job or 1
        enqueued = []
        for start in range(0, len(claimed), size):
            part = claimed[start:start + size]
            job = job_id(part[0], 0, f"{prefix}{time.time_ns()}")
            self.queue.enqueue(function, part if per_job else part[0], float(again), job_id=job, result_ttl=600,
                               failure_ttl=7 * 24 * 3600, job_timeout=300)
            enqueued.append(job)
        return enqueued

    def _ensure_job(self, match_id: str, claimed_at: str) -> str | None:
        status, version = self.matches.hmget(keys.meta(match_id), ["status", "version"])
        if status != MatchStatus.ACTIVE.encode() or version is None:
            # waiting (an early entry), over, or expired and gone
            self._drop(keys=[self.due_key, keys.due_versions(self.settings.queue)], args=[match_id, claimed_at])
            return None
        guard = keys.job_guard(match_id, int(version))
        latest = self.redis.get(guard)
        if latest is not None and self._waiting(latest.decode()):
            return None
        job = job_id(match_id, int(version), f"r{time.time_ns()}")
        enqueue_job(self.queue, match_id, int(version), job)
        self.redis.set(guard, job, ex=GUARD_TTL)
        self.redis.hincrby(keys.RECONCILER_COUNTER, "enqueued", 1)
        if latest is None:  # a timer (clock, taken-over seat, abandonment), or an enqueue that never happened
            log.debug("match %s at version %s: enqueued %s", match_id, int(version), job)
        else:  # the version's job died, failed, finished without moving it, or was lost
            log.info("match %s at version %s: enqueued %s again (the latest job, %s, is not waiting)", match_id,
                     int(version), job, latest.decode())
        return job

    def _waiting(self, job: str) -> bool:
        """Whether the job is queued and really in the queue (not started, finished, failed or lost)."""
        try:
            status = Job.fetch(job, connection=self.redis).get_status()
        except NoSuchJobError:
            return False
        return status == JobStatus.QUEUED and self.redis.lpos(self.queue.key, job) is not None

    def adopt(self) -> int:
        """Give a due time (now) to every active match stored before the due-set existed (its meta has no "at":
        since then the claim that starts a match writes both); return how many were added."""
        added, start = 0, 0
        while True:
            ids = self.redis.zrange(keys.lobby(MatchStatus.ACTIVE), start, start + ADOPT_CHUNK - 1)
            if not ids:
                return added
            pipe = self.matches.pipeline(transaction=False)
            for raw in ids:
                pipe.hexists(keys.meta(raw.decode()), "at")
            legacy = [raw for raw, new in zip(ids, pipe.execute(), strict=True) if not new]
            if legacy:
                added += int(self.redis.zadd(self.due_key, dict.fromkeys(legacy, time.time()), nx=True))
            start += ADOPT_CHUNK

    def run(self, stop: threading.Event) -> None:
        """Adopt, then tick every tick_seconds until stop is set; a failing tick (Redis away) is logged and
        the next one tries again."""
        adopted = False
        while not stop.is_set():
            try:
                if not adopted:
                    log.info("adopted %d active matches without a due time", self.adopt())
                    adopted = True
                self.tick()
            except Exception:
                log.exception("reconciler tick failed; retrying in %.1f s", self.settings.tick_seconds)
            stop.wait(self.settings.tick_seconds)


def start(settings: Settings, cluster: bool = False) -> tuple[threading.Thread, threading.Event]:
    """Run a reconciler in a daemon thread of this process (cluster: the matches Redis is one); set the returned
    event to stop it."""
    stop = threading.Event()
    queue = connections.sync_client(settings.queue_url)  # health-checked, retried
    shared = not cluster and settings.queue_url == settings.redis_url
    matches = queue if shared else connections.sync_matches_client(settings.redis_url, cluster)
    reconciler = Reconciler(queue, settings, matches)
    thread = threading.Thread(target=reconciler.run, args=(stop,), name="reconciler", daemon=True)
    thread.start()
    return thread, stop
