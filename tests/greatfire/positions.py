"""Crafted positions for rule tests: a match past setup, cleared, then set district by district."""

from __future__ import annotations

from typing import Any

import pytest

from firebreak.domain import titles
from firebreak.domain.errors import IllegalAction
from firebreak.domain.greatfire.components import Components
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules.flow import begin_non_player, start_turn
from firebreak.domain.greatfire.state import ACTION_POINTS, ORIGIN_START_CONES, TOTAL_CONES, Phase
from firebreak.domain.rng import Rng


def blank(seats: int = 4, seed: int = 1, *, hand: list[str] | None = None, **options: object) -> GreatFireMatch:
    """A match at seat 0's fire phase: houses as dealt, no bands, pawns in no district, fire only in Pudding Lane.

    The deck keeps its dealt stack structure; hand replaces seat 0's hand when given.
    """
    m = titles.get("greatfire").new_match(seats=seats, seed=seed, options={**options, "startSeat": 0})
    assert isinstance(m, GreatFireMatch)
    n = len(m.geo.ids)
    m.queue = []
    if m.phase in (Phase.REDEAL,):
        m.phase = Phase.PLACE_BANDS
    if not any(c.startswith("#") for c in m.deck):
        from firebreak.domain.greatfire.rules.setup import _build_fire_stack
        _build_fire_stack(m)
    m.cones = [0] * n
    m.cones[m.geo.origin] = ORIGIN_START_CONES
    m.supply = TOTAL_CONES - ORIGIN_START_CONES
    m.bands = [0] * n
    spare = m.geo.setup_sites[0]
    m.pawns = [[spare] * len(p) for p in m.pawns]
    if hand is not None:
        m.hands[0] = list(hand)
    m.turn = 0
    m.ap = ACTION_POINTS
    restart(m)
    return m


def restart(m: GreatFireMatch) -> list[dict[str, object]]:
    """Reopen the current seat's turn after a position was edited."""
    events: list[dict[str, object]] = []
    start_turn(m, events)
    m._legal = None
    return events


def idx(m: GreatFireMatch, district_id: str) -> int:
    """Index of a district id."""
    return m.geo.index[district_id]


def put(m: GreatFireMatch, district_id: str, *, cones: int | None = None, bands: int | None = None,
        houses: dict[str, int] | None = None, demolished: bool | None = None,
        token: str | bool | None = False) -> None:
    """Set a district's facts, moving cones between it and the supply so 65 stay conserved."""
    d = idx(m, district_id)
    if cones is not None:
        m.supply -= cones - m.cones[d]
        m.cones[d] = cones
        assert m.supply >= 0
    if bands is not None:
        m.bands[d] = bands
    if houses is not None:
        colours = m.comps.colours
        m.houses[d] = [houses.get(c, 0) for c in colours]
    if demolished is not None:
        m.demolished[d] = demolished
    if token is not False:
        m.board_tokens[d] = token  # type: ignore[assignment]
    m._legal = None


def empty(m: GreatFireMatch, district_id: str) -> None:
    """Burn a district's houses away (no cones), as after an old fire that was put out."""
    put(m, district_id, houses={})


def ids(actions: list[dict[str, object]], key: str = "district") -> list[object]:
    """The values of one field across a list of actions, sorted."""
    return sorted(a[key] for a in actions if key in a)  # type: ignore[type-var]


def to_actions(m: GreatFireMatch) -> None:
    """Skip the current seat's fire phase: open its actions phase with 4 action points."""
    from firebreak.domain.greatfire.rules.actions import begin_actions

    m.ap = ACTION_POINTS
    begin_actions(m, [])
    m._legal = None


def to_non_player(m: GreatFireMatch, *, card: str, priority: list[str] | None = None,
                  objective: str | None = None, conductor: int = 0) -> None:
    """Open a 2-player non-player turn conducted by a seat, with the next flips stacked.

    card: the fire card the flip will show; priority: the colour priority card (large house first, then
    clockwise), added to the components' cards if it is not one of them; objective: the movement card.
    """
    m.deck.append(card)
    if priority is not None:
        cards = list(m.comps.colour_priority)
        if tuple(priority) not in cards:
            object.__setattr__(m, "comps", _with_priority_card(m, tuple(priority)))
            cards = list(m.comps.colour_priority)
        m.priority_deck.append(cards.index(tuple(priority)))
    if objective is not None:
        m.movement_deck.append(objective)
    m.turn = conductor
    begin_non_player(m, [])
    m._legal = None


def _with_priority_card(m: GreatFireMatch, card: tuple[str, ...]) -> Components:
    from dataclasses import replace

    return replace(m.comps, colour_priority=(*m.comps.colour_priority, card))


def run_non_player(m: GreatFireMatch) -> list[dict[str, object]]:
    """Run automated steps until a seat owes a decision; return their events."""
    events: list[dict[str, object]] = []
    while m.system_due():
        events += m.run_system_step()
    return events


def conserved(m: GreatFireMatch) -> None:
    """R10: 65 cones in all, between the supply, the board and the players' put-out piles."""
    assert m.supply >= 0 and min(m.cones) >= 0 and min(m.put_out) >= 0
    assert m.supply + sum(m.cones) + sum(m.put_out) == TOTAL_CONES


def act(m: GreatFireMatch, action: dict[str, Any], seat: int = 0) -> list[dict[str, Any]]:
    """Apply through the contract and check the cones are conserved."""
    events = m.apply(seat, action)
    conserved(m)
    return events


def refused(m: GreatFireMatch, action: dict[str, Any], seat: int = 0,
            error: type[Exception] = IllegalAction) -> None:
    """The action raises the given RulesError and changes nothing."""
    before = m.to_dict()
    with pytest.raises(error):
        m.apply(seat, action)
    assert m.to_dict() == before


def legal(m: GreatFireMatch, kind: str, key: str = "district", seat: int = 0) -> list[Any]:
    """Sorted values of one field over the legal actions of one type."""
    return ids([a for a in m.legal_actions(seat) if a["type"] == kind], key)


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


def scrambled(m: GreatFireMatch, viewer: int | None) -> GreatFireMatch:
    """A copy that differs from m in everything the viewer may not see (R18): other hands, objectives, held
    tokens and hidden colours, deck and box, face-down tokens, the 2-player deck orders, the engine's random
    state and the seed."""
    s = m.clone()
    others = [seat for seat in range(s.seats) if seat != viewer]
    cards = ["N", "E", "S", "W"]
    objectives = [d.id for d in s.geo.board.districts if d.objective]
    for k, seat in enumerate(others):
        s.hands[seat] = [cards[(k + i) % 4] for i in range(len(s.hands[seat]))][::-1]
        s.objectives[seat] = [objectives[(k * 5 + i + 1) % len(objectives)] for i in range(3)]
        s.tokens[seat] = ["victoryPoint" if x != "victoryPoint" else "doubleMove" for x in s.tokens[seat]]
    if s.options["hiddenColours"] and len(others) > 1:
        rotated = [s.colours[seat] for seat in others[1:] + others[:1]]
        for seat, colours in zip(others, rotated, strict=True):
            s.colours[seat] = colours
    s.deck = [c if c.startswith("#") else cards[(cards.index(c) + 1) % 4] for c in s.deck]
    s.box = [cards[(cards.index(c) + 3) % 4] for c in s.box][::-1]
    s.priority_deck = s.priority_deck[::-1]
    s.movement_deck = s.movement_deck[::-1]
    s.board_tokens = [None if x is None else "demolition" if x != "demolition" else "doubleMove"
                      for x in s.board_tokens]
    s.rng = Rng(987654321)
    s.seed = m.seed + 1
    return s
