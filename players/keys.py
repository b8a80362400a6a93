"""Every Redis key of the players layer, all on the matches Redis (a player is kept as durably as a match, and placed
by the same Cluster rules).

A player's keys share the {p:<player_id>} hash tag (one cluster slot), so each script over a player, its session
families and its personal access tokens stays in one slot. The global lookups (a device, an external identity, a
handle, the signing secret) are single keys, each in its own slot, that map to a player id; no script reads one of them
together with a player's keys.
"""

from __future__ import annotations

import hashlib


def player(player_id: str) -> str:
    """Hash: name, handle, kind, created, ver (token version), links (JSON [[issuer, subject], ...]), device (its
    hash)."""
    return f"player:{{p:{player_id}}}"


def family(player_id: str, family_id: str) -> str:
    """Hash with the refresh TTL: refresh (the current refresh secret's hash), ver (the player's token version when
    the family began), gen (rotations so far), began (epoch seconds; the data export shows it). Gone once signed
    out, revoked or expired."""
    return f"player:{{p:{player_id}}}:family:{family_id}"


def family_used(player_id: str, family_id: str) -> str:
    """Sorted set with the family's TTL: the hashes of the family's already used refresh secrets -> generation."""
    return f"player:{{p:{player_id}}}:family:{family_id}:used"


def families(player_id: str) -> str:
    """Sorted set: the ids of the player's session families -> when each began (an index for the data export:
    an entry whose family is gone is dropped when read; at most FAMILIES_KEPT, the newest)."""
    return f"player:{{p:{player_id}}}:families"


def token(player_id: str, token_id: str) -> str:
    """Hash (with a TTL when it expires): a personal access token's name, scopes, hash, created, expires."""
    return f"player:{{p:{player_id}}}:pat:{token_id}"


def tokens(player_id: str) -> str:
    """Sorted set: the player's personal access token ids -> when created."""
    return f"player:{{p:{player_id}}}:pats"


def invitations(player_id: str) -> str:
    """Sorted set: the ids of the matches the player is invited to -> when invited (an index: each entry is checked
    against the match's own invited hash when listed, and dropped once stale)."""
    return f"player:{{p:{player_id}}}:invitations"


def handle_changes(player_id: str) -> str:
    """Sorted set: when the player changed handle in the last day (entry -> epoch seconds), for the daily limit."""
    return f"player:{{p:{player_id}}}:handle-changes"


def handle(handle_key: str) -> str:
    """String "<player id> <epoch seconds>": the player holding the handle of that key (players/handles.py:key)
    since then."""
    return f"players:handle:{handle_key}"


def device(device_hash: str) -> str:
    """String: the guest player signed in from the device whose id has that SHA-256."""
    return f"players:device:{device_hash}"


def external(issuer: str, subject: str) -> str:
    """String: the player of an external identity (issuer and subject, hashed to bound the key's length)."""
    digest = hashlib.sha256(f"{issuer}\n{subject}".encode()).hexdigest()
    return f"players:external:{digest}"


SIGNING_SECRET = "players:signing-secret"  # string: the access tokens' HS256 key, when no setting gives one


def deleted(player_id: str) -> str:
    """String, kept for good: the player's account was deleted (players/deletion.py). While the deletion is under
    way it holds JSON {at, handle, device, links}: what the deletion job needs to free the player's lookups; once
    done, {at} alone. No sign-in may create a player of that id again (the sign-in scripts read it)."""
    return f"player:{{p:{player_id}}}:deleted"
