"""/metrics answers only whom the operator lets in (issue 47, part 5, item 5: it answered anyone): by default the
machine itself (a request from a loopback address that no proxy forwarded), and with FIREBREAK_METRICS_TOKEN set
only a request bearing that token. Real API processes over real HTTP."""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx
import pytest

from firebreak.api.metrics import MetricsSettings
from firebreak.matches.envsettings import SettingsError
from tests.service.conftest import api_process

FORWARDED = ({"x-forwarded-for": "203.0.113.9"}, {"forwarded": "for=203.0.113.9"}, {"x-real-ip": "203.0.113.9"})


def refused(answer: httpx.Response) -> None:
    """A refused scrape: 401 with a Bearer challenge, and no figure in it."""
    assert answer.status_code == 401, answer.text
    assert answer.headers["www-authenticate"].startswith("Bearer")
    assert "firebreak_" not in answer.text


def test_by_default_only_the_machine_itself_reads_the_metrics(server: str) -> None:
    """From 127.0.0.1: the figures; the same request as a proxy forwards it (from another client): refused."""
    local = httpx.get(f"{server}/metrics", timeout=10)
    assert local.status_code == 200 and "firebreak_http_requests_total" in local.text
    for headers in FORWARDED:
        refused(httpx.get(f"{server}/metrics", headers=headers, timeout=10))


def test_with_a_token_set_only_a_request_bearing_it_reads_the_metrics(redis_url: str, tmp_path: Path) -> None:
    token = secrets.token_urlsafe(32)
    with api_process(redis_url, tmp_path / "api.log", {"FIREBREAK_METRICS_TOKEN": token}) as base:
        for headers in ({}, {"authorization": f"Bearer {token}x"}, {"authorization": token},
                        {"authorization": "Bearer"}):
            refused(httpx.get(f"{base}/metrics", headers=headers, timeout=10))
        scraped = httpx.get(f"{base}/metrics", headers={"authorization": f"Bearer {token}"}, timeout=10)
        assert scraped.status_code == 200 and "firebreak_http_requests_total" in scraped.text
        proxied = httpx.get(f"{base}/metrics", headers={"authorization": f"Bearer {token}", **FORWARDED[0]},
                            timeout=10)
        assert proxied.status_code == 200  # the token is enough, whoever forwards it
    assert token not in (tmp_path / "api.log").read_text()


def test_a_short_metrics_token_stops_the_start() -> None:
    with pytest.raises(SettingsError, match="FIREBREAK_METRICS_TOKEN") as raised:
        MetricsSettings.from_env({"FIREBREAK_METRICS_TOKEN": "short"})
    assert "short" not in str(raised.value)
