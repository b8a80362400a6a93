"""The players layer on a Redis Cluster: every script runs (its keys in one slot: the player's {p:<id>} tag), and
every key of a player hashes to one slot."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import jwt
import pytest
from redis import RedisCluster
from redis.cluster import key_slot

from firebreak.matches import connections
from firebreak.matches.embedded import EmbeddedCluster
from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.errors import Reason
from firebreak.players.records import Scope, Session, Via
from tests.players.support import AUDIENCE, ISSUER, device, refused

OPERATOR_SECRET = "the operator's shared secret on the cluster run"
SETTINGS = PlayerSettings(jwt_issuer=ISSUER, jwt_audience=AUDIENCE, jwt_secret=OPERATOR_SECRET)


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A 2-master Redis Cluster for this module."""
    cluster = EmbeddedCluster(tmp_path_factory.mktemp("players-cluster"), masters=2)
    yield cluster.start()
    cluster.stop()


def test_every_script_runs_on_a_cluster_in_one_slot(cluster_url: str) -> None:
    async def body() -> str:
        redis = connections.async_cluster_client(cluster_url, decode_responses=True)
        try:
            auth = Authenticator.build(redis, SETTINGS)
            phone = device()
            session = await auth.sessions.sign_in_as_guest("Ada", phone)
            assert (await auth.sessions.sign_in_as_guest("Ada", phone)).player.id == session.player.id
            me = await auth.authenticate(f"Bearer {session.access_token}")
            assert me.via is Via.SESSION
            renamed = await auth.directory.rename(me.player.id, "Ada L.")
            assert renamed.name == "Ada L." and session.player.handle.startswith("ada-")
            handled = await auth.directory.change_handle(me.player.id, "ada.cluster")
            assert handled.handle == "ada.cluster" and (await auth.directory.by_handle("ADA.cluster")) == handled
            second = await auth.sessions.refresh(session.refresh_token)
            again = await auth.sessions.refresh(session.refresh_token)  # within the reuse grace: the same successor
            assert again.refresh_token == second.refresh_token
            await auth.sessions.refresh(second.refresh_token)
            assert (await refused(auth.sessions.refresh(session.refresh_token), session.refresh_token)).reason \
                is Reason.REUSED
            await refused(auth.sessions.refresh(second.refresh_token), second.refresh_token)
            fresh = await auth.sessions.begin(me.player.id)
            outcomes = await asyncio.gather(*(auth.sessions.refresh(fresh.refresh_token) for _ in range(10)),
                                            return_exceptions=True)
            assert all(isinstance(o, Session) for o in outcomes)  # within the reuse grace: the one successor
            assert len({o.refresh_token for o in outcomes if isinstance(o, Session)}) == 1
            token, info = await auth.access.create(me, "bot", ["bot"], expires_in=3600)
            assert (await auth.authenticate(f"Bearer {token}")).scopes == {Scope.BOT}
            assert [t.id for t in await auth.access.listing(me.player.id)] == [info.id]
            now = int(time.time())
            operator = jwt.encode({"sub": "cluster-user", "iss": ISSUER, "aud": AUDIENCE, "exp": now + 60},
                                  OPERATOR_SECRET, algorithm="HS256")
            linked = await auth.link_external(me.player, operator)
            assert (await auth.authenticate(f"Bearer {operator}")).player.id == linked.id == me.player.id
            last = await auth.sessions.begin(me.player.id)
            await auth.sessions.sign_out(me.player.id, last.session_id)
            await refused(auth.authenticate(f"Bearer {last.access_token}"), last.access_token)
            await auth.sessions.sign_out_everywhere(me.player.id)
            after = await auth.sessions.begin(me.player.id)
            assert (await auth.authenticate(f"Bearer {after.access_token}")).player.token_version == 1
            await auth.access.revoke(me.player.id, info.id)
            return me.player.id
        finally:
            await redis.aclose()

    player_id = asyncio.run(body())
    client = RedisCluster.from_url(cluster_url, decode_responses=True)
    try:
        everywhere: list[str] = client.keys("*", target_nodes=RedisCluster.PRIMARIES)
        mine = [k for k in everywhere if k.startswith(f"player:{{p:{player_id}}}")]
        assert len(mine) >= 3  # the player, session families, the token index
        assert len({key_slot(k.encode()) for k in mine}) == 1
    finally:
        client.close()
