"""What only a cluster deployment shows (issue 14): where keys live, readiness, the refusal to start without a
queue Redis, one stream reader per watched match."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from redis import Redis, RedisCluster
from redis.cluster import key_slot

from firebreak.api.fanout import Fanout
from firebreak.api.services import Services
from firebreak.matches import connections, embedded, keys
from firebreak.matches.config import Settings
from firebreak.matches.embedded import EmbeddedCluster
from tests.service import support as h
from tests.service.conftest import ROOT, service_env
from tests.service.players_support import CREATE_TOKEN, guest


def test_readyz_checks_the_cluster_and_the_queue_redis(server: str) -> None:
    response = httpx.get(f"{server}/readyz", timeout=10)
    assert response.status_code == 200, response.text
    assert response.json() == {"status": "ready", "redis": "ok", "queue": "ok"}


def test_a_match_lives_in_one_slot_and_the_global_keys_on_the_queue_redis(server: str, redis: RedisCluster,
                                                                          queue_url: str) -> None:
    """Every key of a started match hashes to the match's slot, and a player's keys to the player's; the lobby,
    due-set and counters are on the queue Redis and nowhere on the cluster (players live beside the matches: their
    keys, and the lookups by device, external identity and the signing secret, are on the cluster)."""
    with h.recording(server) as c:
        signed = guest(c, "clustered")
        made = c.gql(CREATE_TOKEN, {"input": {"name": "bot", "scopes": ["PLAY"]}}, signed.access)
        assert made["createAccessToken"]["__typename"] == "AccessTokenCreated"
        s = h.new_match(c, 2, 77, humans=1, bots=["random"])
    everywhere: list[str] = redis.keys("*", target_nodes=RedisCluster.PRIMARIES)
    match_keys = [k for k in everywhere if k.startswith(f"match:{{{s.match_id}}}:")]
    assert {keys.meta(s.match_id), keys.state(s.match_id), keys.seats(s.match_id)} <= set(match_keys)
    assert len({key_slot(k.encode()) for k in match_keys}) == 1
    player_keys = [k for k in everywhere if k.startswith(f"player:{{p:{signed.player}}}")]
    assert len(player_keys) >= 3 and len({key_slot(k.encode()) for k in player_keys}) == 1, player_keys
    assert not [k for k in everywhere if not k.startswith(("match:", "player:", "players:"))], \
        "a global key on the cluster"
    queue = Redis.from_url(queue_url, decode_responses=True)
    try:
        assert queue.zscore(keys.lobby("active"), s.match_id) is not None
        assert queue.zscore(keys.due(h.QUEUE), s.match_id) is not None
        assert not queue.exists(keys.meta(s.match_id)), "match state on the queue Redis"
    finally:
        queue.close()


def test_a_cluster_without_a_queue_redis_is_refused_at_start(redis_url: str) -> None:
    """API and worker both name the missing setting instead of failing later (RQ cannot run on a cluster)."""
    with pytest.raises(connections.ClusterRefused, match="QUEUE_REDIS_URL"):
        Services.connect(Settings(redis_url=redis_url))
    env = {k: v for k, v in service_env(redis_url).items() if k != "QUEUE_REDIS_URL"}
    done = subprocess.run([sys.executable, "-m", "firebreak.workers.main"], cwd=ROOT, env=env, capture_output=True,
                          timeout=60, check=False)
    assert done.returncode == 2 and b"QUEUE_REDIS_URL" in done.stderr, done.stderr


def test_many_subscribers_of_a_match_share_one_reader(server: str, redis_url: str, queue_url: str) -> None:
    """Fifty waiters on one match: one stream read (one connection), and every waiter gets the next step from
    it."""
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=511)
        _seat, token, m = h.to_act(c, s)

        async def scenario() -> tuple[int, list[list[int]], int]:
            services = Services.connect(Settings(redis_url=redis_url, queue_redis_url=queue_url, queue=h.QUEUE))
            fanout = Fanout(services.store)
            try:
                waiters = [asyncio.create_task(fanout.next(s.match_id, m["version"], 20)) for _ in range(50)]
                await asyncio.sleep(0.5)
                readers = fanout.readers()
                await asyncio.to_thread(h.act, c, s.match_id, token, m["legalActions"][0], m["version"])
                woke = [[version for version, _ in step.rows or []] for step in await asyncio.gather(*waiters)]
                node = services.redises.matches.get_node_from_key(keys.events(s.match_id))
                return readers, woke, len(node._connections)
            finally:
                await fanout.close()
                await services.close()

        readers, woke, connections_held = asyncio.run(scenario())
    assert readers == 1
    assert woke == [[m["version"] + 1]] * 50, "a waiter did not get the step from the reader"
    assert connections_held <= 2, f"{connections_held} connections to the match's node for 50 waiters"


def test_a_cluster_that_fails_to_start_leaves_no_server_running(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    cluster = EmbeddedCluster(tmp_path, masters=2)
    monkeypatch.setattr(embedded, "_cluster_ok", lambda client, nodes: False)  # it never becomes ready
    with pytest.raises(RuntimeError, match="cluster_state:ok"):
        cluster.start(timeout=1.0)
    assert all(node.process is None for node in cluster.nodes)


@pytest.mark.parametrize("prefer_bundled", [True, False])
def test_the_embedded_cluster_starts_on_the_bundled_and_the_system_server(tmp_path: Path,
                                                                          prefer_bundled: bool) -> None:
    cluster = EmbeddedCluster(tmp_path, masters=2, prefer_bundled=prefer_bundled)
    try:
        url = cluster.start()
        client = RedisCluster.from_url(url)
        client.set("k", "v")
        assert client.get("k") == b"v"
        client.close()
    finally:
        cluster.stop()
