"""The live public matches of players (a friend's, to watch): read from each player's matches index
(matches/mine.py: its "turn" and "active" parts), kept to the matches that are active and listed (not private)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firebreak.matches import keys
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.mine import TURN

PER_PLAYER = 3  # live matches shown per player at most (the most recently active first)


@dataclass(frozen=True)
class Live:
    """A live public match: its id and title."""

    id: str
    title: str


async def live(redis: Any, players: list[str], most: int = PER_PLAYER) -> dict[str, list[Live]]:
    """Each player's live public matches (at most `most`), in two pipelined round trips."""
    if not players:
        return {}
    pipe = redis.pipeline(transaction=False)
    for player in players:
        pipe.zrevrange(keys.mine_part(player, MatchStatus.ACTIVE.value), 0, most - 1)
        pipe.zrange(keys.mine_part(player, TURN), 0, most - 1)
    rows = await pipe.execute()
    wanted: dict[str, list[str]] = {}
    for i, player in enumerate(players):
        wanted[player] = list(dict.fromkeys([*rows[2 * i], *rows[2 * i + 1]]))
    ids = list(dict.fromkeys(m for ms in wanted.values() for m in ms))
    if not ids:
        return {player: [] for player in players}
    pipe = redis.pipeline(transaction=False)
    for match_id in ids:
        pipe.hmget(keys.meta(match_id), "title", "status", "private")
    metas = dict(zip(ids, await pipe.execute(), strict=True))
    out: dict[str, list[Live]] = {}
    for player, match_ids in wanted.items():
        shown = []
        for match_id in match_ids:
            title, status, private = metas[match_id]
            if title and status == MatchStatus.ACTIVE.value and private != "1":
                shown.append(Live(match_id, str(title)))
        out[player] = shown[:most]
    return out
