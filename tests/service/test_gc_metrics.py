"""The collector's pauses: firebreak_gc_pause_seconds counts every collection while the API runs (the
collections_timed mechanism bench/act_path.py also uses), by generation, and stops when the API stops."""

from __future__ import annotations

import gc

from prometheus_client import generate_latest

from firebreak.api.metrics import Metrics, collections_timed


def _count(metrics: Metrics, generation: int) -> float:
    text = generate_latest(metrics.registry).decode()
    line = next(line for line in text.splitlines()
                if line.startswith(f'firebreak_gc_pause_seconds_count{{generation="{generation}"}}'))
    return float(line.rsplit(" ", 1)[1])


def test_every_collection_is_timed_by_generation_while_the_block_runs(redis_url: str) -> None:
    metrics = Metrics(redis_url, "firebreak-gc-metrics")
    gc.disable()  # only the test's own collections
    try:
        with metrics.gc_timed():
            gc.collect(0)
            gc.collect(2)
        assert (_count(metrics, 0), _count(metrics, 2)) == (1.0, 1.0)
        gc.collect(2)  # after the block: not counted
        assert _count(metrics, 2) == 1.0
    finally:
        gc.enable()


def test_the_timer_reports_by_its_clock() -> None:
    seen: list[tuple[int, float]] = []
    ticks = iter([10.0, 10.25])
    gc.disable()
    try:
        with collections_timed(lambda generation, seconds: seen.append((generation, seconds)), lambda: next(ticks)):
            gc.collect(1)
    finally:
        gc.enable()
    assert seen == [(1, 0.25)]
