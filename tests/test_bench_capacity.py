"""bench/capacity.py's arithmetic: unit costs from a calibration run, the check's predictions and errors, and the
plans with their first bottleneck (the load runs themselves are the bench's, not the tests')."""

from __future__ import annotations

import argparse

import pytest

from bench import capacity
from bench.api_load import Report, Tally
from bench.layouts import RedisFigures


def _report(accepted: int, seconds: float, cpu: dict[str, float], per_match: float) -> Report:
    tally = Tally()
    tally.accepted = accepted
    redis = RedisFigures(per_match, {"state": per_match}, 5, 100.0, 0, 40, 0)
    return Report(tally, seconds, redis, cpu)


def _args(**changes: float) -> argparse.Namespace:
    values = {"act_every": 20.0, "api_busy": 0.5, "redis_busy": 0.5, "redis_gb": 8.0, "finished_per_live": 1.0,
              "bot_share": 0.25, "bot_ms": 1.0, "check_api_processes": 2}
    return argparse.Namespace(**{**values, **changes})


def test_unit_costs_are_per_accepted_act_and_the_check_predicts_from_them() -> None:
    calibration = _report(2000, 20.0, {"api": 2.0, "worker": 0.4, "redis": 0.2, "bench client": 9.0}, 14_000)
    units = capacity.Units.of(calibration)  # 100 acts/s
    assert units == capacity.Units(api_ms=1.0, redis_ms=0.1, worker_ms_per_s=20.0, match_bytes=14_000)
    cluster = {"api": 4.4, "worker": 0.4, "redis node0": 0.1, "redis node1": 0.1, "redis node2": 0.1,
               "queue redis": 0.14, "machine busy": 30.0}
    rows = capacity.check(units, _report(4000, 20.0, cluster, 15_000))  # 200 acts/s
    assert rows[0] == ("API cores", pytest.approx(0.2), pytest.approx(0.22))
    assert rows[1] == ("Redis cores (all servers)", pytest.approx(0.02), pytest.approx(0.022))
    assert rows[2] == ("worker cores", pytest.approx(0.02), pytest.approx(0.02))
    assert rows[3] == ("bytes per live match", 14_000, 15_000)


def test_a_plan_sizes_every_role_and_names_the_first_bottleneck() -> None:
    units = capacity.Units(api_ms=1.0, redis_ms=0.1, worker_ms_per_s=20.0, match_bytes=14_000)
    small = capacity.plan(units, 10_000, _args())
    assert (small.acts_per_second, small.api_processes, small.redis_masters, small.workers) == (500, 1, 1, 1)
    big = capacity.plan(units, 1_000_000, _args())  # 50,000 acts/s
    assert big.api_processes == 100 and big.redis_masters_cpu == 10 and big.redis_masters_memory == 4
    assert big.memory_gb == pytest.approx(28.0) and big.workers == 25 and big.first_bottleneck == "API CPU"
    searching = capacity.plan(units, 1_000_000, _args(bot_ms=400.0))
    assert searching.workers == 10_000 and searching.first_bottleneck == "worker CPU (bots)"
