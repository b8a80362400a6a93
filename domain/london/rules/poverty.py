"""Poverty ("Бідність"): what running a city costs, and the prestige the end-game table takes for it."""

from __future__ import annotations

from firebreak.domain.contract import Event
from firebreak.domain.london.state import State

# "Втрата престижу через бідність": poverty 1-2 -> -1, 3 -> -2, ... 10 -> -15, then -3 for each over 10.
TABLE = (0, 1, 1, 2, 3, 5, 7, 9, 11, 13, 15)
OVER_TEN = 3


def prestige_lost(poverty: int) -> int:
    """Prestige lost for the poverty left after the end-game comparison."""
    if poverty <= 10:
        return TABLE[max(poverty, 0)]
    return TABLE[10] + OVER_TEN * (poverty - 10)


def running_poverty(s: State, seat: int, events: list[Event]) -> int:
    """After running the city: one poverty per building stack, per loan and per card in hand; return the total."""
    stacks, loans, hand = len(s.stacks[seat]), s.loans[seat], len(s.hands[seat])
    total = stacks + loans + hand
    s.poverty[seat] += total
    events.append({"type": "povertyGained", "seat": seat, "stacks": stacks, "loans": loans, "hand": hand,
                   "total": total, "poverty": s.poverty[seat]})
    return total


def compared(poverty: list[int]) -> list[int]:
    """End-game step 6: the lowest returns all its poverty, every other seat returns as many."""
    low = min(poverty)
    return [p - low for p in poverty]
