"""The plain HTTP endpoints: liveness, readiness (with Redis up and down) and Prometheus metrics."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from firebreak.matches.embedded import free_port
from tests.service import support as h


def scrape(base: str) -> dict[str, list[tuple[str, dict[str, str], float]]]:
    """family name -> [(sample name, labels, value)], parsed as Prometheus text (a parse error fails the test)."""
    response = httpx.get(f"{base}/metrics", timeout=10)
    assert response.status_code == 200, response.text[:300]
    assert response.headers["content-type"].startswith("text/plain"), response.headers["content-type"]
    out: dict[str, list[tuple[str, dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(response.text):
        out[family.name] = [(s.name, dict(s.labels), s.value) for s in family.samples]
    return out


def value(metrics: dict[str, list[tuple[str, dict[str, str], float]]], family: str, sample: str,
          **labels: str) -> float:
    return sum(v for name, got, v in metrics.get(family, []) if name == sample
               and all(got.get(k) == want for k, want in labels.items()))


@pytest.fixture(scope="module")
def redis_down_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process whose Redis URL points at a port where nothing listens."""
    log: Path = tmp_path_factory.mktemp("api-no-redis") / "api.log"
    with h.api_process(f"redis://127.0.0.1:{free_port()}/0", log) as base:
        yield base


def test_healthz_is_200(server: str) -> None:
    response = httpx.get(f"{server}/healthz", timeout=10)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_is_200_with_redis_up(server: str) -> None:
    response = httpx.get(f"{server}/readyz", timeout=10)
    assert response.status_code == 200
    assert response.json()["status"] == "ready"


def test_readyz_is_503_with_redis_down_and_healthz_still_200(redis_down_api: str) -> None:
    assert httpx.get(f"{redis_down_api}/healthz", timeout=10).status_code == 200
    response = httpx.get(f"{redis_down_api}/readyz", timeout=30)
    assert response.status_code == 503, response.text
    assert response.json()["status"] == "unavailable"


def test_metrics_still_render_with_redis_down(redis_down_api: str) -> None:
    """The job collector reads Redis at scrape time; when Redis is unreachable the API's own metrics must still
    be served (the collector means to skip the job counts then)."""
    httpx.get(f"{redis_down_api}/healthz", timeout=10)
    metrics = scrape(redis_down_api)
    assert value(metrics, "firebreak_http_requests", "firebreak_http_requests_total", path="/healthz") >= 1


def test_metrics_count_requests_actions_jobs_and_latency(server: str) -> None:
    before = scrape(server)
    stray = f"/no-such-{uuid.uuid4().hex}"
    assert httpx.get(f"{server}{stray}", timeout=10).status_code == 404
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=601)
        _seat, token, m = h.to_act(c, s)
        assert h.act(c, s.match_id, token, m["legalActions"][0], m["version"])["__typename"] == "ActionAccepted"
        assert h.act(c, s.match_id, token, m["legalActions"][0], m["version"])["__typename"] == "StaleVersion"
        _seat, token, m = h.to_act(c, s)
        assert h.act(c, s.match_id, token, {"type": "nope"}, m["version"])["__typename"] == "IllegalAction"
        assert h.act(c, s.match_id, None, {"type": "nope"}, m["version"])["__typename"] == "Unauthorized"
        bots = h.new_match(c, 3, 602, humans=0, bots=["random"] * 3)
        h.wait_for(lambda: h.state(c, bots.match_id, None)["status"] == "OVER", "the bot match to end", pause=0.1)
        graphql_posts = len(c.bodies)
    after = scrape(server)

    for outcome, n in {"accepted": 1, "stale": 1, "illegal": 1, "unauthorized": 1}.items():
        got = value(after, "firebreak_actions", "firebreak_actions_total", outcome=outcome) - \
            value(before, "firebreak_actions", "firebreak_actions_total", outcome=outcome)
        assert got == n, f"firebreak_actions_total{{outcome={outcome!r}}} rose by {got}, expected {n}"

    posted = value(after, "firebreak_http_requests", "firebreak_http_requests_total", method="POST",
                   path="/graphql", status="200") - value(before, "firebreak_http_requests",
                                                          "firebreak_http_requests_total", method="POST",
                                                          path="/graphql", status="200")
    assert posted == graphql_posts, f"{graphql_posts} GraphQL posts made, {posted} counted"
    assert value(after, "firebreak_http_requests", "firebreak_http_requests_total", path="other", status="404") > \
        value(before, "firebreak_http_requests", "firebreak_http_requests_total", path="other", status="404")
    paths = {labels.get("path") for _, labels, _ in after["firebreak_http_requests"]}
    assert stray not in paths, "an unknown path became a label value (unbounded cardinality)"

    jobs_run = value(after, "firebreak_jobs", "firebreak_jobs_total") - value(before, "firebreak_jobs",
                                                                             "firebreak_jobs_total")
    assert jobs_run >= 1, "no worker job was counted while a bot match was played"
    assert value(after, "firebreak_jobs", "firebreak_jobs_total", outcome="over") >= 1
    assert "firebreak_jobs_queued" in after
    assert "firebreak_matches_overdue" in after and "firebreak_reconciler_jobs" in after

    buckets = [(labels["le"], v) for name, labels, v in after["firebreak_http_request_seconds"]
               if name == "firebreak_http_request_seconds_bucket" and labels["path"] == "/graphql"]
    assert len(buckets) >= 5 and buckets[-1][0] == "+Inf", buckets
    counts = [v for _, v in buckets]
    assert counts == sorted(counts), "histogram buckets are not cumulative"
    total = value(after, "firebreak_http_request_seconds", "firebreak_http_request_seconds_count", path="/graphql")
    assert counts[-1] == total >= graphql_posts
