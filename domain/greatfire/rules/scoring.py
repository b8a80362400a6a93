"""Final scoring and tie-breaks (R17)."""

from __future__ import annotations

from typing import Any

from firebreak.domain.contract import Result, SeatScore
from firebreak.domain.greatfire.state import HERO_VP, State

PARTS = ("houses", "putOut", "objectives", "tokens", "hero")  # the title's score columns, in order


def survives(s: State, d: int) -> bool:
    """R17: an objective survives if it still holds houses and is not burning."""
    return any(s.houses[d]) and not s.burning(d)


def score(s: State, seat: int) -> dict[str, int]:
    """The seat's score breakdown as it stands now."""
    geo = s.geo
    houses_left = s.seat_houses(seat)
    objectives = sum(geo.objective_vp[geo.index[o]] for o in s.objectives[seat] if survives(s, geo.index[o]))
    parts = {
        "houses": 2 * houses_left,
        "putOut": s.put_out[seat],
        "objectives": objectives,
        "tokens": s.tokens[seat].count("victoryPoint"),
        "hero": HERO_VP if s.hero == seat else 0,
    }
    return {"seat": seat, "total": sum(parts.values()), **parts, "housesLeft": houses_left}


def result(s: State, among: tuple[int, ...] | None = None) -> dict[str, Any]:
    """Scores of every seat and the winners among `among` (every seat by default): most VP, then put-out cones,
    houses left, objective VP."""
    scores = [score(s, seat) for seat in range(s.seats)]

    def rank(row: dict[str, int]) -> tuple[int, int, int, int]:
        return row["total"], row["putOut"], row["housesLeft"], row["objectives"]

    ranked = [row for row in scores if among is None or row["seat"] in among]
    best = max(rank(row) for row in ranked)
    return {"scores": scores, "winners": [row["seat"] for row in ranked if rank(row) == best]}


def typed_result(s: State, among: tuple[int, ...] | None = None, reason: str = "") -> Result:
    """The result as the contract's Result (parts keyed by the score columns): the final one, or (among: the seats
    to rank, reason: why it ended) the standing of a match the service ended early."""
    plain = result(s, among)
    scores = tuple(SeatScore(row["seat"], row["total"], {part: row[part] for part in PARTS})
                   for row in plain["scores"])
    return Result(scores, tuple(plain["winners"]), reason=reason or END_REASON)


END_REASON = "the last card was drawn from the deck and every player took one more turn"
