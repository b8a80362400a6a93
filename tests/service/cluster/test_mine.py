"""My matches on a Redis Cluster: a player's index lives in the player's slot, apart from the matches it lists."""

from __future__ import annotations

from redis import RedisCluster
from redis.crc import key_slot

from firebreak.matches import keys
from tests.service.conftest import Client
from tests.service.players_support import guest
from tests.service.test_my_matches import ids, two_seats, waiting


def test_a_players_index_is_in_the_players_slot(client: Client, redis: RedisCluster) -> None:
    me = guest(client, "clustered")
    turn, waits = two_seats(client, me, 0), waiting(client, me)
    assert ids(client, me) == [turn.match_id, waits.match_id]
    everywhere: list[str] = redis.keys(f"player:{{p:{me.player}}}*", target_nodes=RedisCluster.PRIMARIES)
    assert {keys.mine(me.player), keys.mine_part(me.player, "turn"), keys.mine_part(me.player, "rest")} \
        <= set(everywhere)
    assert len({key_slot(k.encode()) for k in everywhere}) == 1
