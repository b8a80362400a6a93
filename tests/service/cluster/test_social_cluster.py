"""Friends, blocks and search over a Redis Cluster (two API processes, real workers): each player's side of a pair in
the player's own slot, the handles' index in a slot of its own, every step of two sides written one after the other
and read from either API process; forget_player's pipelines span slots."""

from __future__ import annotations

import asyncio
import secrets

from redis.asyncio.cluster import RedisCluster as AsyncCluster
from redis.cluster import RedisCluster, key_slot

from firebreak.players import handle_index
from firebreak.social import keys
from firebreak.social.forget import forget_player
from tests.service.conftest import Client
from tests.service.players_support import guest, rest
from tests.service.test_social import SEARCH, lists, named, step


def test_friends_blocks_and_search_over_the_cluster(client: Client, server: str, second_server: str, redis_url: str,
                                                    redis: RedisCluster) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    assert key_slot(keys.friends(ann.player).encode()) != key_slot(keys.friends(bob.player).encode())
    start = "c" + secrets.token_hex(4)
    handle = named(client, ann, f"{start}Ann")
    found = client.gql(SEARCH, {"prefix": start.upper()}, bob.access)["searchPlayers"]["players"]
    assert [p["id"] for p in found] == [ann.player]
    assert step(client, "requestFriend", bob, handle=handle)["status"] == "REQUESTED"
    accepted = rest(second_server, "POST", f"/v1/me/friend-requests/{bob.player}/accept", ann.access)
    assert accepted.status_code == 200 and accepted.json()["status"] == "FRIENDS", accepted.text
    assert [f["player"]["id"] for f in lists(client, bob)["friends"]] == [ann.player]
    assert step(client, "blockPlayer", ann, playerId=bob.player)["blocked"] is True
    assert lists(client, bob)["friends"] == [] and redis.zscore(keys.blockers(bob.player), ann.player) is not None
    refused = rest(second_server, "POST", "/v1/me/friend-requests", bob.access, {"playerId": ann.player})
    assert (refused.status_code, refused.json()["code"]) == (409, "NOT_ACCEPTED")

    async def forget() -> None:
        cluster = AsyncCluster.from_url(redis_url, decode_responses=True)
        try:
            await forget_player(cluster, ann.player)
        finally:
            await cluster.aclose()

    asyncio.run(forget())
    assert redis.zscore(keys.blockers(bob.player), ann.player) is None
    assert redis.zscore(handle_index.INDEX, handle_index.member(handle, ann.player)) is None
    assert all(redis.exists(key) == 0 for key in keys.every(ann.player))
