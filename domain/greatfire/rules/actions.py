"""The actions phase (R11, R11b, R11c): 4 action points for moving pawns and bands, putting out fire, demolishing."""

from __future__ import annotations

from firebreak.domain.contract import Action, Event
from firebreak.domain.greatfire.state import HERO_THRESHOLD, Phase, State


def begin_actions(s: State, events: list[Event]) -> None:
    """Open the actions phase with a fresh allowance of action points."""
    s.phase = Phase.ACTIONS
    s.card, s.source, s.moves_left = None, None, 0
    events.append({"type": "actionsStarted", "seat": s.turn, "actionPoints": s.ap})


def demolition_sites(s: State) -> list[int]:
    """R11c: districts a held charge may blow up now (a band stands there; next to fire; not on fire...)."""
    if "demolition" not in s.tokens[s.turn]:
        return []
    geo = s.geo
    out = []
    for d, bands in enumerate(s.bands):
        if (bands and not s.cones[d] and geo.burnable[d] and not s.demolished[d]
                and (geo.size[d] < 3 or not any(s.houses[d]))
                and any(s.cones[e] for e in geo.adjacent[d])):
            out.append(d)
    return out


def action_phase_actions(s: State) -> list[Action]:
    """Every legal action of the actions phase."""
    geo, ids, seat = s.geo, s.geo.ids, s.turn
    enterable = geo.enterable  # R11: pawns and bands never enter Pudding Lane
    out: list[Action] = []
    if s.ap:
        for pawn, at in enumerate(s.pawns[seat]):
            out.extend({"type": "movePawn", "pawn": pawn, "to": ids[e]} for e in enterable[at])
        for d, (cones, bands) in enumerate(zip(s.cones, s.bands, strict=True)):
            if bands > cones:
                out.extend({"type": "moveBand", "from": ids[d], "to": ids[e]} for e in enterable[d])
        for d in sorted(set(s.pawns[seat])):
            if s.contained(d):
                out.append({"type": "putOut", "district": ids[d]})
    out.extend({"type": "demolish", "district": ids[d]} for d in demolition_sites(s))
    out.append({"type": "endActions"})
    return out


def move_pawn(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """R11: one action point moves one of the seat's pawns one step."""
    s.pawns[seat][action["pawn"]] = s.geo.index[action["to"]]
    s.ap -= 1
    events.append({"type": "pawnMoved", "seat": seat, "pawn": action["pawn"], "to": action["to"]})


def move_band(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """R11: one action point moves a free trained band one step."""
    index = s.geo.index
    a, b = index[action["from"]], index[action["to"]]
    pinned = s.cones[b] > s.bands[b]  # R11: entering an uncovered cone stops the band on it
    s.bands[a] -= 1
    s.bands[b] += 1
    s.ap -= 1
    events.append({"type": "bandMoved", "seat": seat, "from": action["from"], "to": action["to"],
                   "pinned": pinned})


def put_out(s: State, seat: int, d: int, events: list[Event]) -> None:
    """R11b: remove one cone from a contained district holding the seat's pawn; Hero of London."""
    s.cones[d] -= 1
    s.put_out[seat] += 1
    s.ap -= 1
    events.append({"type": "firePutOut", "seat": seat, "district": s.geo.ids[d], "putOut": s.put_out[seat]})
    holder = s.hero
    if s.put_out[seat] >= HERO_THRESHOLD and holder != seat and (
            holder is None or s.put_out[seat] > s.put_out[holder]):
        s.hero = seat
        events.append({"type": "heroOfLondon", "seat": seat, "from": holder})


def demolish(s: State, seat: int, d: int, events: list[Event]) -> None:
    """R11c: the district's houses go, any token there is destroyed, and it becomes a fire break."""
    ids = s.geo.ids
    s.tokens[seat].remove("demolition")
    lost = {s.comps.colours[c]: n for c, n in enumerate(s.houses[d]) if n}
    s.houses[d] = [0] * len(s.houses[d])
    s.demolished[d] = True
    events.append({"type": "demolished", "seat": seat, "district": ids[d], "houses": lost})
    if s.board_tokens[d] is not None:
        s.board_tokens[d] = None
        events.append({"type": "tokenDestroyed", "district": ids[d]})
