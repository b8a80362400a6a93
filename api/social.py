"""The social room (social/) as both API surfaces serve it: the other player an operation names, the search's rate
limit, and the lists (friends with presence and live matches, requests, blocks) with their players, which GraphQL
and REST each render."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firebreak.api.context import Context
from firebreak.api.ratelimit import rate_limited
from firebreak.api.services import Services
from firebreak.matches.keys import rate_bucket
from firebreak.matches.ratelimit import Charge, Rate
from firebreak.matches.refusals import Refusal
from firebreak.players import keys as player_keys
from firebreak.players.records import Player
from firebreak.social import presence, watching
from firebreak.social.blocks import Blocks
from firebreak.social.config import SocialSettings
from firebreak.social.errors import SocialError
from firebreak.social.friends import Friends, Listed
from firebreak.social.presence import Presence
from firebreak.social.watching import Live

HANDLE_READ = 100  # characters of a handle looked up at most (a handle is 24 after NFKC; more names nobody)


@dataclass(frozen=True)
class Friend:
    """A friend as their friend lists them: the player, since when, whether online (else when last seen) and their
    live public matches to watch."""

    player: Player
    since: float
    presence: Presence
    live: list[Live]


@dataclass(frozen=True)
class Other:
    """Another player in one of the caller's lists (a request, a block): the player and since when."""

    player: Player
    since: float


def settings() -> SocialSettings:
    """The social settings (read once per set of environment values)."""
    return SocialSettings.from_env()


def friends(services: Services) -> Friends:
    """The friendship steps over the services' store."""
    return Friends(services.store, settings())


def blocks(services: Services) -> Blocks:
    """The block steps over the matches Redis."""
    return Blocks(services.store.redis, settings().blocks_max)


async def other(services: Services, player_id: str | None, handle: str | None) -> Player:
    """The player an operation names by id or by handle (both: they must name the same one); SocialError
    PLAYER_NOT_FOUND."""
    directory = services.players.directory
    by_id = None if player_id is None else await directory.get(player_id)
    by_handle = None if handle is None or len(handle) > HANDLE_READ else await directory.by_handle(handle)
    found = by_id or by_handle
    if found is None or (player_id is not None and handle is not None and by_id != by_handle):
        raise SocialError(Refusal.PLAYER_NOT_FOUND, "no such player (name one by playerId or handle)")
    return found


async def charge_search(context: Context, player: str) -> None:
    """Take one search from the player's bucket (raise RATE_LIMITED past FIREBREAK_SEARCH_PER_SECOND)."""
    s = settings()
    services = context.services
    verdict = await services.limits.limiter.take([Charge(rate_bucket("searches", f"player:{player}"),
                                                         Rate(s.search_per_second, s.search_burst))])
    if not verdict.allowed:
        if services.metrics is not None:
            services.metrics.rate_limited("searches")
        raise rate_limited(verdict.retry_after)


async def players(redis: Any, ids: list[str]) -> dict[str, Player]:
    """The players of several ids that still exist (one pipelined round trip)."""
    if not ids:
        return {}
    pipe = redis.pipeline(transaction=False)
    for player_id in ids:
        pipe.hgetall(player_keys.player(player_id))
    return {player_id: Player.from_fields(player_id, fields)
            for player_id, fields in zip(ids, await pipe.execute(), strict=True) if fields.get("name")}


async def friend_list(services: Services, player: str) -> list[Friend]:
    """The player's friends, oldest friendship first, with presence and live public matches."""
    listed = await friends(services).friends(player)
    ids = [entry.player for entry in listed]
    redis = services.store.redis
    found = await players(redis, ids)
    seen = await presence.of(redis, ids, settings().online_seconds)
    live = await watching.live(redis, ids)
    return [Friend(found[entry.player], entry.since, seen[entry.player], live.get(entry.player, []))
            for entry in listed if entry.player in found]


async def others(services: Services, listed: list[Listed]) -> list[Other]:
    """The players of a list's entries (those gone left out)."""
    found = await players(services.store.redis, [entry.player for entry in listed])
    return [Other(found[entry.player], entry.since) for entry in listed if entry.player in found]


async def block_list(services: Services, player: str) -> list[Other]:
    """The players the player blocks, most recent first."""
    return await others(services, [Listed(p, since) for p, since in await blocks(services).listing(player)])
