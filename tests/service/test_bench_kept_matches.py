"""bench/kept_matches.py: the memory an API process holds per kept match, freed when the kept matches are dropped."""

from __future__ import annotations

import asyncio
import tracemalloc

import pytest

from bench import kept_matches


@pytest.mark.parametrize("title", ["greatfire", "london"])
def test_the_kept_matches_hold_memory_that_dropping_them_frees(redis_url: str, title: str) -> None:
    tracemalloc.start()
    try:
        freed, kept = asyncio.run(kept_matches.kept_bytes(redis_url, title, 3, 4, 20, 7))
    finally:
        tracemalloc.stop()
    assert kept == 3
    assert 2_000 < freed / kept < 200_000  # an engine, its stored text and records: kilobytes, not bytes or megabytes
