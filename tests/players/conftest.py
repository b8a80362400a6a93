"""Real parts for the players layer's tests: the service tests' redis-server (tests/service/conftest.py)."""

from __future__ import annotations

from tests.service.conftest import redis_url as redis_url
