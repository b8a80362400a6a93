"""A player's data export (GDPR Art. 15 and 20): one JSON document of everything kept about the player, written piece by
piece so that a long history is never held in memory whole, and the one-time download tickets GraphQL hands out for it.

The document (format firebreak.player-export, version 1) holds the profile, the linked identities (issuer and
subject: never the device's secret or its hash), the live sessions and personal access tokens (ids, scopes, dates:
never a token or its hash), the ratings and every rating change, the open invitations, the seeks, the push
registrations, the events still kept in the player's feed and, last, every match of the player (from Redis and the
archive) with its seats and result. Matches are read a page at a time through the my-matches index (matches/mypage.py)
and events a page at a time from the feed, each page written out before the next is read.

A ticket (fbx_<secret>) is a credential for one download only (api/tickets.py: kept as its SHA-256 with a short time
to live, and taken by the download, so a ticket in a URL is worthless once used).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import orjson
from sqlalchemy import select

from firebreak.api import leaderboards
from firebreak.api.rest.invitations import listed_sender_json
from firebreak.api.rest.mine import my_match_json
from firebreak.api.rest.ratings import rating_json
from firebreak.api.rest.seeks import seek_json
from firebreak.api.services import Services
from firebreak.api.tickets import TicketKind
from firebreak.matches import feed, mypage
from firebreak.players import keys
from firebreak.players.directory import ID
from firebreak.players.records import Player
from firebreak.ratings import model
from firebreak.ratings.tables import rating_changes

FORMAT, VERSION = "firebreak.player-export", 1
PAGE = 100  # matches, events and rating changes read per round trip
TICKETS = TicketKind("fbx_", "export-ticket", 120)  # a download ticket lives two minutes unless used
PATH = "/v1/me/export"

PushHook = Callable[[Services, str], Awaitable[list[dict[str, Any]]]]


async def no_push_registrations(_services: Services, _player: str) -> list[dict[str, Any]]:
    """The push registrations hook's default: none (the push/ package lists a player's registrations once it
    exists; set PUSH_REGISTRATIONS to its listing)."""
    return []


PUSH_REGISTRATIONS: list[PushHook] = [no_push_registrations]  # the hook the push package replaces


async def issue_ticket(services: Services, player_id: str) -> tuple[str, int]:
    """A fresh one-time download ticket for the player's export, and how many seconds it lives."""
    return await TICKETS.issue(services.store.redis, player_id)


async def redeem_ticket(services: Services, ticket: str) -> str | None:
    """The player a ticket was issued to, taking it (it works once), or None for a ticket unknown, used or expired."""
    held = await TICKETS.redeem(services.store.redis, ticket)
    return held if held is not None and ID.match(held) else None


def _dump(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


async def sessions_of(services: Services, player: Player) -> list[dict[str, Any]]:
    """The player's live session families, from its index (players/keys.py:families; entries whose family is gone
    are dropped on the way): id, when it began, when its refresh token expires, and how many times it was refreshed
    (never a token or its hash)."""
    redis = services.store.redis
    index = keys.families(player.id)
    listed: list[tuple[str, float]] = await redis.zrange(index, 0, -1, withscores=True)
    pipe = redis.pipeline(transaction=False)
    for family_id, _ in listed:
        pipe.hgetall(keys.family(player.id, family_id))
        pipe.ttl(keys.family(player.id, family_id))
    replies = await pipe.execute() if listed else []
    found: list[dict[str, Any]] = []
    gone: list[str] = []
    now = time.time()
    for n, (family_id, began) in enumerate(listed):
        fields, ttl = replies[2 * n], replies[2 * n + 1]
        if not fields:
            gone.append(family_id)
        elif fields.get("ver") == str(player.token_version):  # else ended by signing out everywhere
            found.append({"id": family_id, "began": float(fields.get("began", began)),
                          "refreshExpires": None if ttl < 0 else now + ttl, "refreshed": int(fields.get("gen", 0))})
    if gone:
        await redis.zrem(index, *gone)
    return found


async def rating_history(services: Services, player: str) -> AsyncIterator[dict[str, Any]]:
    """Every rating change of the player, oldest first, read a page at a time from the archive's ledger."""
    db = await services.database()
    after: tuple[float, str, int] | None = None
    while True:
        def read(start: tuple[float, str, int] | None = after) -> list[Any]:
            query = select(rating_changes).where(rating_changes.c.key == player)
            if start is not None:
                at, match_id, seat = start
                query = query.where((rating_changes.c.at > at) | ((rating_changes.c.at == at) & (
                    (rating_changes.c.match_id > match_id) | ((rating_changes.c.match_id == match_id)
                                                              & (rating_changes.c.seat > seat)))))
            query = query.order_by(rating_changes.c.at, rating_changes.c.match_id, rating_changes.c.seat).limit(PAGE)
            with db.read() as conn:
                return list(conn.execute(query).mappings())

        rows = await db.run(read)
        for row in rows:
            before, later = model.Skill(row["mu_before"], row["sigma_before"]), \
                model.Skill(row["mu_after"], row["sigma_after"])
            yield {"matchId": row["match_id"], "title": row["title"], "seat": row["seat"], "place": row["place"],
                   "at": row["at"], "before": before.display, "after": later.display,
                   "delta": later.display - before.display, "games": row["games_after"]}
        if len(rows) < PAGE:
            return
        last = rows[-1]
        after = (last["at"], last["match_id"], last["seat"])


async def events_of(services: Services, player: str) -> AsyncIterator[dict[str, Any]]:
    """The events still kept in the player's feed, oldest first, a page at a time."""
    after = "0"
    while True:
        page = await feed.read(services.store.redis, player, after, PAGE)
        for event in page:
            yield event.to_json()
        if len(page) < PAGE:
            return
        after = page[-1].id


async def matches_of(services: Services, player: str) -> AsyncIterator[dict[str, Any]]:
    """Every match of the player (live ones in Redis, finished ones Redis let go from the archive) with its seats,
    result and the player's rating change, a page at a time."""
    after: str | None = None
    handles: dict[str, str | None] = {}  # the other players' handles now, each read once
    while True:
        page = await mypage.page(services.store, player, None, PAGE, after)
        changes = await leaderboards.changes(services, player, page.items)
        for item in page.items:
            entry = my_match_json(item, changes.get(item.reading.id))
            for dropped in ("cursor", "yourTurn", "clockDeadline", "version"):
                entry.pop(dropped, None)
            for other in entry["others"]:
                if other["player"] is not None:
                    other["handle"] = await _handle(services, other["player"], handles)
            yield entry
        if not page.has_next_page or page.end_cursor is None:
            return
        after = page.end_cursor


async def _handle(services: Services, player: str, known: dict[str, str | None]) -> str | None:
    """A player's handle now (None: the player is gone), read once per export."""
    if player not in known:
        found = await services.players.directory.get(player)
        known[player] = None if found is None else found.handle
    return known[player]


async def document(services: Services, player: Player) -> AsyncIterator[bytes]:
    """The player's export as pieces of one JSON document (the small sections first, the long lists last)."""
    now = time.time()
    head: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "exportedAt": now,
        "profile": {"id": player.id, "handle": player.handle, "name": player.name, "kind": player.kind.name,
                    "created": player.created},
        "identities": [{"issuer": i.issuer, "subject": i.subject} for i in player.identities],
        "sessions": await sessions_of(services, player),
        "accessTokens": [{"id": t.id, "name": t.name, "scopes": sorted(s.name for s in t.scopes),
                          "created": t.created, "expires": t.expires}
                         for t in await services.players.access.listing(player.id)],
        "ratings": [rating_json(r) for r in await leaderboards.ratings_of(services, player.id)],
        "invitations": [{"matchId": item.match.id, "title": item.match.meta["title"],
                         "from": listed_sender_json(item), "invitedAt": item.invitation.at}
                        for item in await services.invitations.listing(player.id)],
        "seeks": [seek_json(seek, now) for seek in await services.seeks.of_player(player.id)],
        "pushRegistrations": [reg for hook in PUSH_REGISTRATIONS for reg in await hook(services, player.id)],
    }
    yield _dump(head)[:-1]
    for name, rows in (("ratingHistory", rating_history(services, player.id)),
                       ("events", events_of(services, player.id)),
                       ("matches", matches_of(services, player.id))):
        yield b',"' + name.encode() + b'":['
        first = True
        async for row in rows:
            yield (b"" if first else b",") + _dump(row)
            first = False
        yield b"]"
    yield b"}"
