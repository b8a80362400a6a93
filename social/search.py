"""Player search by handle prefix: the prefix is case-folded as handles are compared (NFKC, casefold, NFKC), and the
players whose handle's key starts with it come in pages ordered by that key (then id), read from the handles'
index (players/handle_index.py) with ZRANGEBYLEX: a page costs O(log N + page size) whatever the number of players.
Each entry is checked against the player's hash on the way (a stale one, its player gone or renamed, is dropped).

Players whose handles were given before the index existed are put in by a one-time backfill: the first search of a
process finding no BUILT marker scans the handle keys (players:handle:*) into the index, then sets the marker."""

from __future__ import annotations

import base64
import binascii
import unicodedata
from dataclasses import dataclass
from typing import Any

from firebreak.matches.refusals import Refusal
from firebreak.players import handle_index, handles
from firebreak.players import keys as player_keys
from firebreak.players.records import Player
from firebreak.social.errors import SocialError

PAGE_MAX = 50        # players a page holds at most
ROUNDS = 3           # index reads one page makes at most (stale entries dropped on the way may leave it short)
_HANDLE_KEYS = player_keys.handle("")  # the prefix of every handle's key
_built = False       # whether this process saw the backfill done


@dataclass(frozen=True)
class Found:
    """A page of players whose handle starts with the prefix, the cursor of its last one and whether more follow."""

    items: list[Player]
    end_cursor: str | None
    has_next_page: bool


def prefix_key(prefix: str) -> str:
    """The prefix as handles are compared (SocialError BAD_SEARCH unless 1 to 24 characters a handle may hold)."""
    text = unicodedata.normalize("NFKC", prefix.strip())
    folded = handles.key(text)
    if not 1 <= len(text) <= handles.HANDLE_MAX or not all(c in handles.PUNCTUATION or
                                                          unicodedata.category(c)[0] in "LN" for c in folded):
        raise SocialError(Refusal.BAD_SEARCH, f"a search prefix is 1 to {handles.HANDLE_MAX} characters a handle may "
                                              "hold: letters, digits, '-', '_' and '.'")
    return folded


def _cursor(member: str) -> str:
    return base64.urlsafe_b64encode(member.encode()).decode().rstrip("=")


def _member(cursor: str, key: str) -> str:
    try:
        member = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        member = ""
    if not member.startswith(key) or " " not in member:
        raise SocialError(Refusal.BAD_CURSOR, "after is not a cursor of this search (pass a page's endCursor)")
    return member


async def search(redis: Any, prefix: str, first: int, after: str | None = None) -> Found:
    """A page of the players whose handle starts with the prefix (first clamped to 1-PAGE_MAX; SocialError
    BAD_SEARCH, BAD_CURSOR)."""
    key = prefix_key(prefix)
    first = max(1, min(first, PAGE_MAX))
    start = b"[" + key.encode() if after is None else b"(" + _member(after, key).encode()
    end = b"(" + key.encode() + b"\xff"
    await backfill(redis)
    found: list[Player] = []
    last: str | None = None  # the last entry read (shown, or dropped as stale)
    for _round in range(ROUNDS):
        want = first - len(found)
        members = [str(m) for m in await redis.zrangebylex(handle_index.INDEX, start, end, 0, want)]
        players = await _players(redis, members)
        found += [player for player in players if player is not None]
        stale = [member for member, player in zip(members, players, strict=True) if player is None]
        if stale:
            await redis.zrem(handle_index.INDEX, *stale)
        if members:
            last = members[-1]
            start = b"(" + last.encode()
        if len(members) < want or len(found) == first:
            break
    more = last is not None and bool(await redis.zrangebylex(handle_index.INDEX, b"(" + last.encode(), end, 0, 1))
    return Found(found, None if last is None else _cursor(last), more)


async def _players(redis: Any, members: list[str]) -> list[Player | None]:
    """The players of index entries, each None unless the player exists and shows a handle of that key."""
    if not members:
        return []
    pipe = redis.pipeline(transaction=False)
    for member in members:
        pipe.hgetall(player_keys.player(member.rpartition(" ")[2]))
    out: list[Player | None] = []
    for member, fields in zip(members, await pipe.execute(), strict=True):
        key, _, player_id = member.rpartition(" ")
        player = Player.from_fields(player_id, fields) if fields.get("name") else None
        out.append(player if player is not None and handles.key(player.handle) == key else None)
    return out


async def backfill(redis: Any) -> None:
    """Put every handle given before the index existed into it, once (a marker key says it was done; a crash before
    the marker makes the next search do it again, which changes nothing already there)."""
    global _built
    if _built:
        return
    if await redis.exists(handle_index.BUILT):
        _built = True
        return
    batch: dict[str, int] = {}
    async for name in redis.scan_iter(match=_HANDLE_KEYS + "*", count=1000):
        held = await redis.get(name)
        if held:
            batch[f"{str(name)[len(_HANDLE_KEYS):]} {held.partition(' ')[0]}"] = 0
        if len(batch) >= 500:
            await redis.zadd(handle_index.INDEX, batch)
            batch = {}
    if batch:
        await redis.zadd(handle_index.INDEX, batch)
    await redis.set(handle_index.BUILT, "1")
    _built = True
