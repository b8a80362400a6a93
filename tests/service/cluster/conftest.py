"""The service on a Redis Cluster: a 3-master cluster on loopback ports for match state, a plain queue Redis,
2 API processes and 2 workers. The fixtures keep the names of tests/service/conftest.py's, so the core service
tests run here unchanged (tests/service/cluster/test_core.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest
from redis import RedisCluster

from firebreak.matches.embedded import EmbeddedCluster, EmbeddedRedis
from tests.service.conftest import Client, api_process, worker_processes


@pytest.fixture(scope="session")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A 3-master Redis Cluster (no replicas) for the test session; its first node's URL."""
    cluster = EmbeddedCluster(tmp_path_factory.mktemp("cluster"))
    url = cluster.start()
    yield url
    cluster.stop()


@pytest.fixture(scope="session")
def queue_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The plain queue Redis beside the cluster."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("queue-redis"), appendonly=False, prefer_bundled=False)
    yield server.start()
    server.stop()


@pytest.fixture(scope="session")
def cluster_env(queue_url: str) -> dict[str, str]:
    """The settings that point service processes at the queue Redis."""
    return {"QUEUE_REDIS_URL": queue_url}


@pytest.fixture(scope="session")
def redis_url(cluster_url: str) -> str:
    """REDIS_URL of the processes under test: a cluster node."""
    return cluster_url


@pytest.fixture(scope="session")
def workers(redis_url: str, cluster_env: dict[str, str],
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Two workers over the cluster and the queue Redis."""
    with worker_processes(redis_url, tmp_path_factory.mktemp("cluster-workers"), env=cluster_env) as procs:
        yield procs


@pytest.fixture(scope="session")
def server(redis_url: str, cluster_env: dict[str, str], workers: list[subprocess.Popen[bytes]],
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The first API process over the cluster."""
    with api_process(redis_url, tmp_path_factory.mktemp("cluster-api") / "api.log", cluster_env) as base:
        yield base


@pytest.fixture(scope="session")
def second_server(redis_url: str, cluster_env: dict[str, str], server: str,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The second API process over the cluster."""
    with api_process(redis_url, tmp_path_factory.mktemp("cluster-api2") / "api.log", cluster_env) as base:
        yield base


@pytest.fixture(scope="session")
def redis(redis_url: str) -> Iterator[RedisCluster]:
    """A cluster client, for checking what is stored for a match."""
    r = RedisCluster.from_url(redis_url, decode_responses=True)
    yield r
    r.close()


@pytest.fixture(scope="session")
def client(server: str) -> Iterator[Client]:
    """A GraphQL client bound to the first API process."""
    c = Client(server)
    yield c
    c.http.close()
