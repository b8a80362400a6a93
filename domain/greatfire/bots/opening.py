"""Setup decisions of the search bot (R15, R16), by a plain heuristic on public facts and the seat's own."""

from __future__ import annotations

from firebreak.domain.contract import Action
from firebreak.domain.greatfire.state import Phase, State


def fire_distance(s: State) -> list[int]:
    """Steps the fire needs from Pudding Lane to each district over burnable districts (grass: unreachable)."""
    return s.geo.steps_over_burnable(s.geo.origin, len(s.geo.ids))


def own_value(s: State, seat: int) -> list[float]:
    """VP the seat holds in each district: 2 per own house, plus an own objective's VP."""
    geo = s.geo
    own = s.colours[seat]
    value = [2.0 * sum(row[c] for c in own) for row in s.houses]
    for district_id in s.objectives[seat]:
        d = geo.index[district_id]
        value[d] += geo.objective_vp[d]
    return value


def setup_choice(s: State, seat: int) -> Action:
    """Put bands on own property the fire reaches soon, pawns near the fire (and near bands)."""
    geo = s.geo
    dist = fire_distance(s)
    value = own_value(s, seat)
    near = [value[d] + 0.5 * sum(value[e] for e in geo.adjacent[d]) for d in range(len(geo.ids))]
    if s.phase is Phase.PLACE_BANDS:
        def band_score(d: int) -> float:
            return (value[d] + 0.25 * near[d]) / (1 + dist[d]) / (1 + s.bands[d])

        best = max(geo.setup_sites, key=band_score)
        return {"type": "placeBand", "district": geo.ids[best]}

    def pawn_score(d: int) -> float:
        return -dist[d] + 0.05 * near[d] + 0.5 * min(1, s.bands[d] + sum(s.bands[e] for e in geo.adjacent[d]))

    taken = {d for d in s.pawns[seat] if d >= 0}
    best = max((d for d in geo.setup_sites if d not in taken), key=pawn_score)
    return {"type": "placePawn", "district": geo.ids[best]}
