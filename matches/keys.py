"""Every Redis key the service uses, and which Redis holds it.

The matches Redis (REDIS_URL: one server, or a Redis Cluster) holds every match:{match_id}:* key but the job
guard; a match's keys share the {match_id} hash tag (one cluster slot), so each multi-key script stays in one
slot. The queue Redis (QUEUE_REDIS_URL, always one plain server; REDIS_URL's when that is not a cluster)
holds what is global: RQ's keys, the due-set, the lobby indexes, the job guards, the counters and the rate
buckets. Keys on the queue Redis never meet a match's keys in one command or script.
"""

from __future__ import annotations


def meta(match_id: str) -> str:
    """Hash: title, seats, options, seed, status, created, started, host token hash."""
    return f"match:{{{match_id}}}:meta"


def seats(match_id: str) -> str:
    """Hash: seat number -> JSON {name, kind, level, tokenHash}."""
    return f"match:{{{match_id}}}:seats"


def state(match_id: str) -> str:
    """Hash: v (version) and data (the engine's to_dict JSON)."""
    return f"match:{{{match_id}}}:state"


def log(match_id: str) -> str:
    """List: the applied steps in order, the oldest folded into packed chunks (see matches/history.py)."""
    return f"match:{{{match_id}}}:log"


def events(match_id: str) -> str:
    """Stream of the newest steps (history.EVENTS_KEPT): entry id "<version>-0", field events = the step's JSON
    events (with audiences); older steps' events are replayed from the log."""
    return f"match:{{{match_id}}}:events"


def idempotency(match_id: str) -> str:
    """Hash with a TTL: "<seat>:<key>" -> "<time>|<first outcome JSON>" of acts sent with an idempotency key, at
    most Settings.idempotency_kept records, each honoured for Settings.idempotency_ttl seconds."""
    return f"match:{{{match_id}}}:idem"


def idempotency_field(seat: int, key: str) -> str:
    """A seat's idempotency key's field in the idempotency hash."""
    return f"{seat}:{key}"


def archive(match_id: str) -> str:
    """String with the finished match's time to live: the whole match packed in one value (meta, seats, state,
    log), which replaces its other keys once it is over (the idempotency hash stays until it expires)."""
    return f"match:{{{match_id}}}:archive"


def job_guard(match_id: str, version: int) -> str:
    """String with a TTL, on the queue Redis (beside the jobs it guards): the id of the latest job enqueued for
    (match, version)."""
    return f"match:{{{match_id}}}:job:{version}"


def all_of(match_id: str) -> list[str]:
    """The keys that live and expire together."""
    return [meta(match_id), seats(match_id), state(match_id), log(match_id), events(match_id)]


def rematch(match_id: str) -> str:
    """String in the over match's slot, with its archive's time to live: the id of its rematch, claimed once (SET
    NX in matches/rematch.py's script) before the new match is created (see matches/rematch.py)."""
    return f"match:{{{match_id}}}:rematch"


def rematch_offer(match_id: str) -> str:
    """Hash in the over match's slot: its standing (or last) rematch offer, each person's answer and its expiry
    (matches/rematch_offers.py)."""
    return f"match:{{{match_id}}}:rematch-offer"


def invited(match_id: str) -> str:
    """Hash in the waiting match's slot, with its time to live: invited player id -> JSON {at, by, name} (when,
    and by which player: null for the host token); the truth the players' invitation lists are checked against."""
    return f"match:{{{match_id}}}:invited"


def invite_code(code_hash: str) -> str:
    """String with the waiting match's time to live: the id of the private match whose invite code has that SHA-256
    (a global lookup on the matches Redis, in a slot of its own; never read together with a match's keys)."""
    return f"match:{{code:{code_hash}}}:invite"


def lobby(status: str) -> str:
    """Sorted set of match ids by creation time, one per status (waiting, active, over); on the queue Redis,
    written after the match's own keys (an entry whose match is gone is pruned when listed)."""
    return f"lobby:{status}"


def due(queue: str) -> str:
    """Sorted set on the queue Redis: match id -> when the service must next look at the match (a pending
    service step's watchdog, a running turn clock's deadline, the abandonment time), for the matches served on
    that queue.

    On one plain Redis the commit script writes it with the step. On a separate queue Redis it cannot be written
    in one script with the match (another Redis, or another slot): a write that may leave the
    service something to do is preceded by a "look soon" entry (ZADD LT now + stall_seconds) and followed by
    the exact time (store.MatchStore.commit), so a crash in between leaves an entry too early (harmless: the
    reconciler finds nothing due and reschedules or drops it), never a missing or late one.
    """
    return f"due:{queue}"


def finished_pending(queue: str) -> str:
    """Sorted set on the queue Redis, one per queue: match id -> when a write that may end it began (the
    finished-match outbox: written before the write, dropped once workers/finishing.py's finishers (ratings,
    archive) are done with the match; the reconcilers hand each entry to a job)."""
    return f"finished:pending:{queue}"


def due_versions(queue: str) -> str:
    """Hash on the queue Redis: match id -> the version whose due time the due-set holds (a later version's
    time is never overwritten by an earlier one's, whichever write arrives last)."""
    return f"due:{queue}:versions"


def rate_bucket(kind: str, who: str) -> str:
    """Hash with a TTL on the queue Redis: a token bucket (tokens, at) of one token or client address for one kind
    of request. Every bucket shares the {rate} hash tag, so one script can take from a token's and a client's
    bucket at once."""
    return f"rate:{{rate}}:{kind}:{who}"


JOBS_COUNTER = "stats:jobs"  # hash on the queue Redis: outcome -> count, written by workers, read by /metrics
RECONCILER_COUNTER = "stats:reconciler"  # hash on the queue Redis: enqueued -> jobs the reconcilers enqueued


def mine(player_id: str) -> str:
    """Hash on the matches Redis, in the player's slot ({p:<id>}, as players/keys.py): match id -> the player's
    index row of that match (JSON: the stamp it was indexed at, its part, seat, who is to act...; matches/mine.py)."""
    return f"player:{{p:{player_id}}}:mine"


def mine_part(player_id: str, part: str) -> str:
    """Sorted set in the player's slot: one part of the player's matches index (matches/mine.py): "turn" (active,
    the player to act; score: since when), "waiting", "active" (not the player's turn), "over" and "rest" (every
    match not in "turn"); score: last activity."""
    return f"player:{{p:{player_id}}}:mine:{part}"


def feed(player_id: str) -> str:
    """Stream: the player's own events (matches/feed.py), in the player's slot."""
    return f"player:{{p:{player_id}}}:feed"


def feed_seen(player_id: str) -> str:
    """Hash: the dedupe keys of the player's events written by feed.emit -> the entry id they wrote."""
    return f"player:{{p:{player_id}}}:feed:seen"


def feed_forwarded(player_id: str) -> str:
    """String: the id of the player's last event handed on to the webhooks."""
    return f"player:{{p:{player_id}}}:feed:forwarded"


def feed_pending(queue: str) -> str:
    """Sorted set on the queue Redis, one per queue: player id -> when an event was last written to the player's
    feed (the webhooks' forwarder looks at these players; an entry is dropped once all is handed on)."""
    return f"feed:pending:{queue}"


MINE_PENDING = "mine:pending"  # sorted set on the queue Redis: match id -> when a change to its players' rows began
REMATCH_PENDING = "rematch:pending"  # sorted set on the queue Redis: over match id -> when a rematch call began
# (matches/rematch.py's outbox: dropped once the rematch exists with every carried seat; the reconciler finishes
# an entry older than stall_seconds, moving its score to when it may look again)
DELETIONS_PENDING = "players:deletions"  # sorted set on the queue Redis: player id -> when its account's deletion
# was asked (players/deletion.py's outbox: dropped once every part of the deletion is done; the reconciler hands an
# entry older than stall_seconds to a job that finishes it, workers/account_deletion.py)
BANS_PENDING = "moderation:bans"  # sorted set on the queue Redis: player id -> when its ban was laid (the ban's
# outbox, moderation/bans.py: its seats are resigned by workers/moderation.py; dropped once done, handed on by the
# reconciler after stall_seconds)
REMATCH_OFFERS = "rematch:offers"  # sorted set on the queue Redis: over match id -> when its rematch offer expires
# (matches/rematch_offers.py's timer: the reconciler hands each entry whose time has come to a job that expires it)


# Matchmaking (matchmaking/): every key on the queue Redis (one plain server), so that one script may claim several
# seekers of a pool at once.
def seek(seek_id: str) -> str:
    """Hash on the queue Redis: one seek (player, name, title, seats, options, pool, rating, created, expires,
    botsAfter, status, table, match, seat, ended); kept a while once it ends (matchmaking/seeks.py)."""
    return f"seek:{seek_id}"


def seek_pool(queue: str, pool: str) -> str:
    """Sorted set on the queue Redis: the waiting seeks of one pool (same title, seat count and options) served on
    that queue -> when each was made."""
    return f"seeks:{queue}:pool:{pool}"


def player_seeks(player_id: str) -> str:
    """Sorted set on the queue Redis: a player's seeks (the newest kept ones) -> when each was made."""
    return f"seeks:player:{player_id}"


def seek_table(table_id: str) -> str:
    """Hash on the queue Redis: a table of claimed seekers being formed into a match (its pool, the match id chosen
    at the claim, the seat plan); see matchmaking/tables.py."""
    return f"seeks:table:{table_id}"


def seek_job_guard(queue: str, pool: str) -> str:
    """String with a TTL on the queue Redis: a matching pass over the pool is queued or running (dropped when it
    ends)."""
    return f"seeks:{queue}:job:{pool}"


def seek_pools(queue: str) -> str:
    """Sorted set on the queue Redis: the pools of waiting seeks served on that queue -> when a seek last joined."""
    return f"seeks:{queue}:pools"


def seek_tables_pending(queue: str) -> str:
    """Sorted set on the queue Redis: table id -> when its seekers were claimed (matchmaking/tables.py's outbox:
    dropped once the match exists with every seat taken and every seek settled; the reconcilers hand an entry older
    than stall_seconds to a job that finishes it)."""
    return f"seeks:{queue}:forming"

SEEKS_COUNTER = "stats:seeks"  # hash on the queue Redis: matched / expired / cancelled -> count (for /metrics)
# ----- the operator's webhooks (notifications/webhooks): plain keys on the queue Redis, one set per queue ---------
WEBHOOK_COUNTER = "stats:webhooks"  # hash: attempt:<outcome> / delivery:<outcome> -> count, written by workers
WEBHOOK_LATENCY = "stats:webhooks:latency"  # hash: le:<bucket> (cumulative), count, sum of attempt seconds


def webhook_endpoints(queue: str) -> str:
    """Hash: endpoint id -> JSON {id, url, types, description, created, secrets} (those the admin API added)."""
    return f"webhook:{queue}:endpoints"


def webhook_deliveries(queue: str) -> str:
    """Sorted set: delivery id -> when it was made (every kept delivery: the listing's index)."""
    return f"webhook:{queue}:deliveries"


def webhook_failed(queue: str) -> str:
    """Sorted set: delivery id -> when it was given up (the failed ones, kept for the operator)."""
    return f"webhook:{queue}:deliveries:failed"


def webhook_delivery(queue: str, delivery_id: str) -> str:
    """Hash with the kept deliveries' time to live: one delivery (endpoint, player, event, payload, status,
    attempts, next attempt, the last attempt's answer)."""
    return f"webhook:{queue}:delivery:{delivery_id}"


def webhook_due(queue: str, endpoint_id: str) -> str:
    """Sorted set: delivery id -> when its next attempt is due, or, while an attempt holds it, when that attempt's
    lease ends (a sender killed mid-send leaves the entry to come due again: at least once)."""
    return f"webhook:{queue}:due:{endpoint_id}"


def webhook_endpoint_deliveries(queue: str, endpoint_id: str) -> str:
    """Sorted set: delivery id -> when it was made, of one endpoint (the listing's index by endpoint)."""
    return f"webhook:{queue}:deliveries:endpoint:{endpoint_id}"
