"""Where fire cones come from when the rules add them (R9, R10)."""

from __future__ import annotations

from firebreak.domain.contract import Event
from firebreak.domain.greatfire.state import State

PUDDING_LANE_REFILL = 5


def take_cone(s: State, events: list[Event], *, from_origin: bool = True, may_return: bool = True) -> str | None:
    """Take one cone for a placement (R10) and say where from: "supply", "origin" or "returned".

    The supply first, then Pudding Lane down to 1 cone, then (once per placement, ruling P10: may_return)
    one put-out cone back from each player holding any. None when no cone can be had.
    """
    if s.supply == 0 and from_origin and s.cones[s.geo.origin] > 1:
        s.cones[s.geo.origin] -= 1
        return "origin"
    source = "supply"
    if s.supply == 0:
        givers = [seat for seat in range(s.seats) if s.put_out[seat] > 0]
        if not givers or not may_return:
            return None
        for seat in givers:
            s.put_out[seat] -= 1
            s.supply += 1
        events.append({"type": "conesReturned", "seats": givers})
        source = "returned"
    s.supply -= 1
    return source


def add_cones(s: State, district: int, count: int, events: list[Event]) -> int:
    """Add up to count cones to a district as one placement (R10, P10); return how many were added."""
    added = 0
    may_return = True
    for _ in range(count):
        source = take_cone(s, events, from_origin=district != s.geo.origin, may_return=may_return)
        if source is None:
            break
        may_return = may_return and source != "returned"
        s.cones[district] += 1
        added += 1
    return added


def refill_origin(s: State, events: list[Event]) -> None:
    """R9: Pudding Lane below 2 cones after a fire move gets 5 more from the supply."""
    origin = s.geo.origin
    if s.cones[origin] < 2:
        added = add_cones(s, origin, PUDDING_LANE_REFILL, events)
        events.append({"type": "puddingLaneRefilled", "cones": added})


def cone_available(s: State, *, may_return: bool) -> bool:
    """Whether take_cone could find a cone for a placement anywhere but Pudding Lane."""
    return s.supply > 0 or s.cones[s.geo.origin] > 1 or (may_return and any(s.put_out))
