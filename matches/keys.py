"""Every Redis key the service uses. A match's keys share a {match_id} hash tag (one Redis Cluster slot)."""

from __future__ import annotations


def meta(match_id: str) -> str:
    """Hash: title, seats, options, seed, status, created, host token hash."""
    return f"match:{{{match_id}}}:meta"


def seats(match_id: str) -> str:
    """Hash: seat number -> JSON {name, kind, level, tokenHash}."""
    return f"match:{{{match_id}}}:seats"


def state(match_id: str) -> str:
    """Hash: v (version) and data (the engine's to_dict JSON)."""
    return f"match:{{{match_id}}}:state"


def log(match_id: str) -> str:
    """List: one JSON entry per applied step ({"seat", "action"} or {"system": true})."""
    return f"match:{{{match_id}}}:log"


def events(match_id: str) -> str:
    """Stream: entry id "<version>-0", field events = the step's JSON events (with audiences)."""
    return f"match:{{{match_id}}}:events"


def idempotency(match_id: str, seat: int, key: str) -> str:
    """String with a TTL: the first outcome of an act with this idempotency key."""
    return f"match:{{{match_id}}}:idem:{seat}:{key}"


def job_guard(match_id: str, version: int) -> str:
    """String with a TTL: the id of the latest job enqueued for (match, version)."""
    return f"match:{{{match_id}}}:job:{version}"


def all_of(match_id: str) -> list[str]:
    """The keys that live and expire together."""
    return [meta(match_id), seats(match_id), state(match_id), log(match_id), events(match_id)]


def lobby(status: str) -> str:
    """Sorted set of match ids by creation time, one per status (waiting, active, over)."""
    return f"lobby:{status}"


def due(queue: str) -> str:
    """Sorted set: match id -> when the service must next look at the match (a pending service step's
    watchdog, a running turn clock's deadline, the abandonment time), for the matches served on that queue.

    Written by the commit and claim scripts together with the match's own keys. On a Redis Cluster this one
    key would be in another slot than the match's: there it would become one due-set per shard (e.g.
    "due:<queue>:{s<n>}", with each match's keys tagged "{s<n>}" too, n = hash(match_id) mod N shards, instead
    of "{match_id}"), each reconciler tick walking the N shards; not built while the service runs on one Redis.
    """
    return f"due:{queue}"


def rate_bucket(kind: str, who: str) -> str:
    """Hash with a TTL: a token bucket (tokens, at) of one token or client address for one kind of request. Every
    bucket shares the {rate} hash tag, so one script can take from a token's and a client's bucket at once."""
    return f"rate:{{rate}}:{kind}:{who}"


JOBS_COUNTER = "stats:jobs"  # hash: outcome -> count, written by workers, read by /metrics
RECONCILER_COUNTER = "stats:reconciler"  # hash: enqueued -> jobs the reconcilers enqueued, read by /metrics
