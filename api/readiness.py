"""Readiness: the matches Redis (a cluster: its state ok and every slot assigned) and the queue Redis answer."""

from __future__ import annotations

from typing import Any

from firebreak.matches.connections import Redises
from firebreak.matches.embedded import SLOTS


async def _matches_problem(redises: Redises) -> str | None:
    if not redises.cluster:
        info = await redises.matches.info("cluster")
        if int(info.get("cluster_enabled", 0)):  # a cluster came up where a plain Redis was found at start
            return "ClusterNotExpected"
        return None
    fields: dict[str, Any] = await redises.matches.cluster_info()
    if fields.get("cluster_state") != "ok":
        return "ClusterStateFail"
    if int(fields.get("cluster_slots_assigned", 0)) != SLOTS:
        return "ClusterSlotsMissing"
    return None


async def readiness(redises: Redises) -> dict[str, str]:
    """{"status": "ready" | "unavailable", "redis": ..., "queue": ...}: "ok" or why not, per role."""
    answer = {"status": "ready", "redis": "ok", "queue": "ok"}
    try:
        problem = await _matches_problem(redises)
    except Exception as exc:  # any failure to reach Redis means not ready
        problem = type(exc).__name__
    if problem is not None:
        answer["redis"] = problem
    if redises.queue is not redises.matches:
        try:
            await redises.queue.ping()
        except Exception as exc:
            answer["queue"] = type(exc).__name__
    if problem is not None or answer["queue"] != "ok":
        answer["status"] = "unavailable"
    return answer
