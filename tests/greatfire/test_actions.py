"""The actions phase through the public contract: R11 movement, R11b putting out (Example 6), R11c
demolition, and R18b (an exhausted action phase still ends only by endActions).

Each test crafts a position with positions.py, reaches seat 0's actions phase by a real fire move far
from the scene (south from Bethnal into Whitechapel), then drives it with legal_actions/apply only.
"""

from __future__ import annotations

from typing import Any

import pytest

from firebreak.domain.errors import NotYourTurn
from firebreak.domain.greatfire.match import GreatFireMatch
from tests.greatfire.positions import act, blank, conserved, empty, ids, legal, of, put, refused, restart

Action = dict[str, Any]
Event = dict[str, Any]


# --- helpers -----------------------------------------------------------------------------------------










def band_moves(m: GreatFireMatch, source: str) -> list[Any]:
    return ids([a for a in m.legal_actions(0) if a["type"] == "moveBand" and a["from"] == source], "to")


def i(m: GreatFireMatch, district_id: str) -> int:
    return m.geo.index[district_id]




def scene() -> GreatFireMatch:
    """Seat 0's fire phase with five south cards; Bethnal (2 cones, far north-east) gives the move."""
    m = blank(hand=["S"] * 5)
    put(m, "bethnal", cones=2, houses={})
    put(m, "whitechapel", token=None)
    return m


def to_actions(m: GreatFireMatch) -> list[Event]:
    """Make seat 0's fire move (Bethnal -> Whitechapel, south) and return the events; actions begin (after
    the R18b pause, ended with endFire, when the card still gives a move)."""
    restart(m)
    conserved(m)
    act(m, {"type": "playCard", "card": "S"})
    act(m, {"type": "chooseSource", "district": "bethnal"})
    events = act(m, {"type": "spreadFire", "district": "whitechapel"})
    if m.phase == "fire":
        assert "endFire" in [a["type"] for a in m.legal_actions(0)]
        events += act(m, {"type": "endFire"})
    assert m.phase == "actions" and m.turn == 0
    return events


def pawn_at(m: GreatFireMatch, district_id: str, seat: int = 0) -> None:
    m.pawns[seat] = [i(m, district_id)]


# --- R11 movement ------------------------------------------------------------------------------------


def test_r11_actions_phase_opens_with_four_action_points() -> None:
    """R11: 4 action points per turn, announced when the phase opens."""
    m = scene()
    events = to_actions(m)
    assert [(e["seat"], e["actionPoints"]) for e in of(events, "actionsStarted")] == [(0, 4)]
    assert m.ap == 4


def test_r11_pawn_moves_to_burning_burnt_and_demolished_neighbours_never_pudding_lane() -> None:
    """R11: from S. Mary the pawn may go to S. Bennet (burning), Candlewick Ward (burnt), Tallow Hall
    (demolished) and Mercers' Hall; never into Pudding Lane."""
    m = scene()
    put(m, "s-bennet", cones=2, houses={})
    empty(m, "candlewick-ward")
    put(m, "tallow-hall", houses={}, demolished=True)
    pawn_at(m, "s-mary")
    to_actions(m)
    assert legal(m, "movePawn", "to") == ["candlewick-ward", "mercers-hall", "s-bennet", "tallow-hall"]
    refused(m, {"type": "movePawn", "pawn": 0, "to": "pudding-lane"})
    refused(m, {"type": "movePawn", "pawn": 0, "to": "guild-hall"})  # not adjacent


def test_r11_pawn_moves_onto_grass() -> None:
    """R11: from Tower Street the pawn may go onto Tower Hill (grass)."""
    m = scene()
    pawn_at(m, "tower-street")
    to_actions(m)
    assert legal(m, "movePawn", "to") == ["custom-house", "mark-lane", "pepys-house", "tower-hill"]
    act(m, {"type": "movePawn", "pawn": 0, "to": "tower-hill"})
    assert m.pawns[0] == [i(m, "tower-hill")]


def test_r11_pawn_moves_diagonally_across_a_four_way_cross() -> None:
    """R11: Cripplegate -> Moorgate (SE, four-way cross) is an ordinary step for a pawn."""
    m = scene()
    pawn_at(m, "cripplegate")
    to_actions(m)
    assert "moorgate" in legal(m, "movePawn", "to")
    act(m, {"type": "movePawn", "pawn": 0, "to": "moorgate"})
    assert m.pawns[0] == [i(m, "moorgate")]


def test_r11_pawns_are_never_pinned() -> None:
    """R11: a pawn in a burning district moves on freely, and enters and leaves it."""
    m = scene()
    put(m, "s-bennet", cones=2, houses={})
    pawn_at(m, "s-mary")
    to_actions(m)
    act(m, {"type": "movePawn", "pawn": 0, "to": "s-bennet"})
    assert legal(m, "movePawn", "to") == ["cheapside", "coleman-street", "guild-hall", "s-mary", "tallow-hall"]
    act(m, {"type": "movePawn", "pawn": 0, "to": "guild-hall"})
    assert m.pawns[0] == [i(m, "guild-hall")]
    assert m.ap == 2


def test_r11_player_moves_only_their_own_pawn() -> None:
    """R11: seat 0 is offered moves for its own pawn only (pawn 0, from S. Mary), none for seat 1's pawn
    in Cripplegate; seat 1 cannot act in seat 0's turn."""
    m = scene()
    pawn_at(m, "s-mary")
    pawn_at(m, "cripplegate", seat=1)
    to_actions(m)
    moves = [a for a in m.legal_actions(0) if a["type"] == "movePawn"]
    assert {a["pawn"] for a in moves} == {0}
    assert "finsbury" not in {a["to"] for a in moves}
    refused(m, {"type": "movePawn", "pawn": 1, "to": "finsbury"})
    refused(m, {"type": "movePawn", "pawn": 0, "to": "finsbury"}, seat=1, error=NotYourTurn)
    assert m.legal_actions(1) == []


def test_r11_band_moves_anywhere_adjacent_but_pudding_lane() -> None:
    """R11: a free band in S. Mary may go to S. Bennet (burning), Candlewick Ward (burnt), Tallow Hall
    (demolished) and Mercers' Hall; never Pudding Lane. Any free band may be moved by the active player."""
    m = scene()
    put(m, "s-bennet", cones=2, houses={})
    empty(m, "candlewick-ward")
    put(m, "tallow-hall", houses={}, demolished=True)
    put(m, "s-mary", bands=1)
    to_actions(m)
    assert band_moves(m, "s-mary") == ["candlewick-ward", "mercers-hall", "s-bennet", "tallow-hall"]
    refused(m, {"type": "moveBand", "from": "s-mary", "to": "pudding-lane"})
    act(m, {"type": "moveBand", "from": "s-mary", "to": "tallow-hall"})
    assert m.bands[i(m, "tallow-hall")] == 1 and m.bands[i(m, "s-mary")] == 0
    assert m.ap == 3


def test_r11_band_onto_grass_and_diagonally() -> None:
    """R11: a band moves onto grass (Tower Street -> Tower Hill) and across a four-way cross (Tower Hill ->
    Minories, NE)."""
    m = scene()
    put(m, "tower-street", bands=1)
    to_actions(m)
    assert "tower-hill" in band_moves(m, "tower-street")
    act(m, {"type": "moveBand", "from": "tower-street", "to": "tower-hill"})
    assert "minories" in band_moves(m, "tower-hill")
    act(m, {"type": "moveBand", "from": "tower-hill", "to": "minories"})
    assert m.bands[i(m, "minories")] == 1


def test_r11_band_entering_an_uncovered_cone_stops_and_is_pinned() -> None:
    """R11: the band entering burning S. Bennet (2 cones, no band) covers a cone and is pinned: it can no
    longer move, although action points are left."""
    m = scene()
    put(m, "s-bennet", cones=2, houses={})
    put(m, "s-mary", bands=1)
    to_actions(m)
    events = act(m, {"type": "moveBand", "from": "s-mary", "to": "s-bennet"})
    assert [e["pinned"] for e in of(events, "bandMoved")] == [True]
    assert m.bands[i(m, "s-bennet")] == 1
    assert m.ap == 3
    assert band_moves(m, "s-bennet") == []
    refused(m, {"type": "moveBand", "from": "s-bennet", "to": "s-mary"})


def test_r11_band_entering_a_fully_covered_fire_is_not_pinned() -> None:
    """R11: S. Bennet's one cone already carries a band (contained); the entering band finds no uncovered
    cone, stays free and may move on."""
    m = scene()
    put(m, "s-bennet", cones=1, bands=1)
    put(m, "s-mary", bands=1)
    to_actions(m)
    events = act(m, {"type": "moveBand", "from": "s-mary", "to": "s-bennet"})
    assert [e["pinned"] for e in of(events, "bandMoved")] == [False]
    assert band_moves(m, "s-bennet") == ["cheapside", "coleman-street", "guild-hall", "s-mary", "tallow-hall"]
    act(m, {"type": "moveBand", "from": "s-bennet", "to": "guild-hall"})
    assert (m.cones[i(m, "s-bennet")], m.bands[i(m, "s-bennet")]) == (1, 1)


@pytest.mark.parametrize(("cones", "bands", "free"), [(2, 1, False), (2, 2, False), (1, 1, False), (2, 3, True)])
def test_r11_pinned_band_cannot_move(cones: int, bands: int, free: bool) -> None:
    """R11: bands sitting on cones are pinned; only a band beyond the cones' number may move."""
    m = scene()
    put(m, "s-bennet", cones=cones, bands=bands)
    to_actions(m)
    assert bool(band_moves(m, "s-bennet")) is free


def test_r11_each_step_costs_one_point_and_r18b_zero_points_end_only_by_end_actions() -> None:
    """R11, R18b: four single steps spend the four points; with none left and no demolition possible the
    phase still waits for the player's endActions (ending by itself would tell everyone that the player
    holds no usable demolition charge); then the turn passes to seat 1."""
    m = scene()
    pawn_at(m, "clerkenwell")
    put(m, "holborn", bands=1)
    to_actions(m)
    act(m, {"type": "movePawn", "pawn": 0, "to": "charterhouse"})
    assert m.ap == 3
    act(m, {"type": "moveBand", "from": "holborn", "to": "clerkenwell"})
    assert m.ap == 2
    act(m, {"type": "movePawn", "pawn": 0, "to": "clerkenwell"})
    assert m.ap == 1 and m.phase == "actions" and m.turn == 0
    events = act(m, {"type": "movePawn", "pawn": 0, "to": "holborn"})
    assert not of(events, "actionsEnded")
    assert m.ap == 0 and m.phase == "actions" and m.turn == 0
    assert m.legal_actions(0) == [{"type": "endActions"}]
    events = act(m, {"type": "endActions"})
    assert of(events, "actionsEnded") and of(events, "turnStarted")
    assert m.turn == 1
    assert m.pawns[0] == [i(m, "holborn")]


def test_r11_ending_actions_early_loses_the_points() -> None:
    """R11: the player may end the phase with points left; they are lost (the next turn has 4 again)."""
    m = scene()
    pawn_at(m, "clerkenwell")
    to_actions(m)
    act(m, {"type": "movePawn", "pawn": 0, "to": "charterhouse"})
    act(m, {"type": "endActions"})
    assert m.turn == 1 and m.ap == 4


# --- R11b putting out fire; Example 6 ----------------------------------------------------------------


def st_pauls(cones: int = 5, bands: int = 5, pawn: str = "st-pauls") -> GreatFireMatch:
    """Example 6: St. Pauls (size 5) holds 5 fires and 5 trained bands; Green's (seat 0's) pawn is there."""
    m = scene()
    assert m.comps.colours[m.colours[0][0]] == "green", "seed 1 deals green to seat 0"
    put(m, "st-pauls", cones=cones, bands=bands)
    pawn_at(m, pawn)
    to_actions(m)
    return m


def test_example_6_repeated_put_outs_each_remove_one_cone_for_one_point_r11b() -> None:
    """Example 6, R11b: each Put out Fire order removes exactly one cone, kept by Green, for 1 AP; the
    houses stay (the fire was held)."""
    m = st_pauls()
    sp = i(m, "st-pauls")
    houses = list(m.houses[sp])
    assert legal(m, "putOut") == ["st-pauls"]
    for n in (1, 2, 3):
        events = act(m, {"type": "putOut", "district": "st-pauls"})
        assert [(e["seat"], e["district"], e["putOut"]) for e in of(events, "firePutOut")] == [
            (0, "st-pauls", n)]
        assert m.cones[sp] == 5 - n
        assert m.put_out[0] == n
        assert m.ap == 4 - n
        assert m.houses[sp] == houses
    act(m, {"type": "putOut", "district": "st-pauls"})
    assert m.cones[sp] == 1 and m.put_out[0] == 4
    assert m.turn == 0 and m.legal_actions(0) == [{"type": "endActions"}]  # R18b: no points left


def test_r11b_put_out_frees_a_band_which_can_then_move() -> None:
    """R11b: the removed cone carried a band; that band is free and may move away."""
    m = st_pauls()
    assert band_moves(m, "st-pauls") == []
    act(m, {"type": "putOut", "district": "st-pauls"})
    assert band_moves(m, "st-pauls") == [
        "baynards-castle", "bread-street", "christs-hospital", "ludgate", "pauls-wharf", "watlin-street"]
    act(m, {"type": "moveBand", "from": "st-pauls", "to": "bread-street"})
    assert (m.cones[i(m, "st-pauls")], m.bands[i(m, "st-pauls")]) == (4, 4)
    assert legal(m, "putOut") == ["st-pauls"]  # still contained


def test_r11b_no_put_out_when_not_contained() -> None:
    """R11b: 5 fires and 4 bands is not contained: no put-out order."""
    m = st_pauls(bands=4)
    assert legal(m, "putOut") == []
    refused(m, {"type": "putOut", "district": "st-pauls"})


def test_r11b_no_put_out_without_the_players_pawn() -> None:
    """R11b: the pawn must be in the district: Green's pawn in Bread Street next door, seat 1's pawn in St.
    Pauls: seat 0 may not put out."""
    m = scene()
    put(m, "st-pauls", cones=5, bands=5)
    pawn_at(m, "bread-street")
    pawn_at(m, "st-pauls", seat=1)
    to_actions(m)
    assert legal(m, "putOut") == []
    refused(m, {"type": "putOut", "district": "st-pauls"})
    act(m, {"type": "movePawn", "pawn": 0, "to": "st-pauls"})
    assert legal(m, "putOut") == ["st-pauls"]


def test_r11b_hero_of_london_at_three_put_out_cones() -> None:
    """R11b: the first player to hold 3 put-out cones takes the Hero of London card, not before."""
    m = st_pauls()
    for _ in range(2):
        events = act(m, {"type": "putOut", "district": "st-pauls"})
        assert not of(events, "heroOfLondon")
        assert m.hero is None
    events = act(m, {"type": "putOut", "district": "st-pauls"})
    assert [(e["seat"], e["from"]) for e in of(events, "heroOfLondon")] == [(0, None)]
    assert m.hero == 0
    events = act(m, {"type": "putOut", "district": "st-pauls"})
    assert not of(events, "heroOfLondon") and m.hero == 0


def test_r11b_hero_of_london_taken_over_only_by_strictly_more() -> None:
    """R11b: seat 1 holds the card with 3; seat 0 (2 cones) draws level at 3 and does not take it; at 4 it
    takes it."""
    m = scene()
    put(m, "st-pauls", cones=5, bands=5)
    pawn_at(m, "st-pauls")
    m.put_out = [2, 3, 0, 0]
    m.supply -= 5
    m.hero = 1
    to_actions(m)
    events = act(m, {"type": "putOut", "district": "st-pauls"})
    assert m.put_out[:2] == [3, 3]
    assert m.hero == 1 and not of(events, "heroOfLondon")
    events = act(m, {"type": "putOut", "district": "st-pauls"})
    assert m.hero == 0
    assert [(e["seat"], e["from"]) for e in of(events, "heroOfLondon")] == [(0, 1)]


def test_r11b_putting_out_the_last_cone_frees_the_band() -> None:
    """R11b: one cone under one band: putting it out leaves the district with no fire and a free band."""
    m = st_pauls(cones=1, bands=1)
    act(m, {"type": "putOut", "district": "st-pauls"})
    assert m.cones[i(m, "st-pauls")] == 0
    assert legal(m, "putOut") == []
    assert "bread-street" in band_moves(m, "st-pauls")


# --- R11c demolition ---------------------------------------------------------------------------------


def demolition_scene(*, token: bool = True, band: str | None = "s-mary") -> GreatFireMatch:
    """Seat 0 holds a demolition charge; a band stands in S. Mary (size 1, next to Pudding Lane)."""
    m = scene()
    if token:
        m.tokens[0] = ["demolition"]
    if band is not None:
        put(m, band, bands=1)
    return m


def test_r11c_demolition_is_free_and_makes_a_fire_break() -> None:
    """R11c: demolishing S. Mary costs no action point; its houses go (2 VP each to their owners), the
    token lying there is destroyed (not gained), the charge is used up, the district is demolished."""
    m = demolition_scene()
    put(m, "s-mary", token="victoryPoint")
    to_actions(m)
    sm = i(m, "s-mary")
    lost = {m.comps.colours[c]: n for c, n in enumerate(m.houses[sm]) if n}
    assert sum(lost.values()) == 1
    assert legal(m, "demolish") == ["s-mary"]
    events = act(m, {"type": "demolish", "district": "s-mary"})
    assert [(e["seat"], e["district"], e["houses"]) for e in of(events, "demolished")] == [(0, "s-mary", lost)]
    assert [e["district"] for e in of(events, "tokenDestroyed")] == ["s-mary"]
    assert m.ap == 4
    assert not any(m.houses[sm])
    assert m.demolished[sm]
    assert m.board_tokens[sm] is None
    assert m.tokens[0] == []
    assert legal(m, "demolish") == []


def test_r11c_needs_a_demolition_token() -> None:
    """R11c: without a charge there is no demolition."""
    m = demolition_scene(token=False)
    m.tokens[0] = ["doubleMove", "victoryPoint"]
    to_actions(m)
    assert legal(m, "demolish") == []
    refused(m, {"type": "demolish", "district": "s-mary"})


def test_r11c_needs_a_band_in_the_target_moved_there_first() -> None:
    """R11c: no band in S. Mary, no demolition; moving one in from Mercers' Hall (1 AP) makes it possible."""
    m = demolition_scene(band="mercers-hall")
    to_actions(m)
    assert legal(m, "demolish") == []
    refused(m, {"type": "demolish", "district": "s-mary"})
    act(m, {"type": "moveBand", "from": "mercers-hall", "to": "s-mary"})
    assert legal(m, "demolish") == ["s-mary"]
    act(m, {"type": "demolish", "district": "s-mary"})
    assert m.ap == 3


def test_r11c_target_must_be_next_to_a_fire_contained_or_not() -> None:
    """R11c: Coleman Street (size 2) borders no fire: no demolition. Once S. Bennet next door holds a
    contained fire, it may be demolished."""
    m = demolition_scene(band="coleman-street")
    to_actions(m)
    assert legal(m, "demolish") == []

    m = demolition_scene(band="coleman-street")
    put(m, "s-bennet", cones=1, bands=1)
    to_actions(m)
    assert legal(m, "demolish") == ["coleman-street"]


def test_r11c_next_to_pudding_lane_counts() -> None:
    """R11c: S. Mary's only neighbour on fire is Pudding Lane; that is enough."""
    m = demolition_scene()
    to_actions(m)
    sm = i(m, "s-mary")
    assert [e for e in m.geo.adjacent[sm] if m.cones[e]] == [m.geo.origin]
    assert legal(m, "demolish") == ["s-mary"]


def test_r11c_not_a_district_on_fire() -> None:
    """R11c: S. Mary holding a contained fire (1 cone, 2 bands: one free) may not be demolished."""
    m = demolition_scene()
    put(m, "s-mary", cones=1, bands=2)
    to_actions(m)
    assert legal(m, "demolish") == []
    refused(m, {"type": "demolish", "district": "s-mary"})


def test_r11c_not_grass() -> None:
    """R11c: Tower Hill (grass) next to a held fire in Tower Street may not be demolished; Mark Lane, next
    to the same fire, may."""
    m = demolition_scene(band="tower-hill")
    put(m, "tower-street", cones=1, bands=1)
    put(m, "mark-lane", bands=1)
    to_actions(m)
    assert legal(m, "demolish") == ["mark-lane"]
    refused(m, {"type": "demolish", "district": "tower-hill"})


def test_r11c_not_already_demolished() -> None:
    """R11c: a demolished S. Mary with a band in it cannot be demolished again."""
    m = demolition_scene()
    put(m, "s-mary", houses={}, demolished=True)
    to_actions(m)
    assert legal(m, "demolish") == []
    refused(m, {"type": "demolish", "district": "s-mary"})


def test_r11c_size_three_or_more_only_once_burnt() -> None:
    """R11c: Mercers' Hall (size 3), next to a held fire in S. Mary, may not be demolished while it has
    houses; once burnt down it may."""
    m = demolition_scene(band="mercers-hall")
    put(m, "s-mary", cones=1, bands=1)
    to_actions(m)
    assert legal(m, "demolish") == []
    refused(m, {"type": "demolish", "district": "mercers-hall"})

    m = demolition_scene(band="mercers-hall")
    put(m, "s-mary", cones=1, bands=1)
    empty(m, "mercers-hall")
    to_actions(m)
    assert legal(m, "demolish") == ["mercers-hall"]


def test_r11c_empty_district_may_be_demolished() -> None:
    """R11c ("Players can demolish empty districts"): a burnt-down S. Mary may be demolished."""
    m = demolition_scene()
    empty(m, "s-mary")
    to_actions(m)
    events = act(m, {"type": "demolish", "district": "s-mary"})
    assert [e["houses"] for e in of(events, "demolished")] == [{}]
    assert m.demolished[i(m, "s-mary")]


def test_r11c_several_demolitions_in_one_turn() -> None:
    """R11c: two charges, bands in S. Mary and Candlewick Ward: both may be demolished in the same turn,
    for no action points."""
    m = demolition_scene()
    m.tokens[0] = ["demolition", "demolition"]
    put(m, "candlewick-ward", bands=1)
    to_actions(m)
    assert legal(m, "demolish") == ["candlewick-ward", "s-mary"]
    act(m, {"type": "demolish", "district": "s-mary"})
    assert legal(m, "demolish") == ["candlewick-ward"]
    act(m, {"type": "demolish", "district": "candlewick-ward"})
    assert m.tokens[0] == []
    assert m.demolished[i(m, "s-mary")] and m.demolished[i(m, "candlewick-ward")]
    assert m.ap == 4


def test_r11c_r18b_demolition_possible_with_no_points_left() -> None:
    """R11c, R18b: demolition is free, so after the four points are spent a demolition is still offered;
    after it, the phase waits for endActions as it would for a player without a charge."""
    m = demolition_scene()
    pawn_at(m, "clerkenwell")
    to_actions(m)
    for to in ("charterhouse", "clerkenwell", "charterhouse", "clerkenwell"):
        act(m, {"type": "movePawn", "pawn": 0, "to": to})
    assert m.ap == 0 and m.phase == "actions" and m.turn == 0
    assert sorted(a["type"] for a in m.legal_actions(0)) == ["demolish", "endActions"]
    refused(m, {"type": "movePawn", "pawn": 0, "to": "charterhouse"})
    events = act(m, {"type": "demolish", "district": "s-mary"})
    assert not of(events, "actionsEnded")
    assert m.legal_actions(0) == [{"type": "endActions"}]
    act(m, {"type": "endActions"})
    assert m.turn == 1


def test_r11c_demolished_district_is_a_fire_break() -> None:
    """R11c, R4: after S. Mary is demolished (its band moved on), the next player's north card from
    Pudding Lane may reach the other burnt-down districts north of it (class 3) but never S. Mary, which
    would otherwise be class 3 too."""
    m = demolition_scene()
    for d in ("s-bennet", "candlewick-ward", "bridgeward", "pepys-house"):
        empty(m, d)
    m.hands[1] = ["N"] * 5
    to_actions(m)
    act(m, {"type": "demolish", "district": "s-mary"})
    act(m, {"type": "moveBand", "from": "s-mary", "to": "mercers-hall"})
    act(m, {"type": "endActions"})
    assert m.turn == 1 and m.phase == "fire"
    act(m, {"type": "playCard", "card": "N"}, seat=1)
    act(m, {"type": "chooseSource", "district": "pudding-lane"}, seat=1)
    assert legal(m, "spreadFire", seat=1) == ["bridgeward", "candlewick-ward", "pepys-house", "s-bennet"]
    refused(m, {"type": "spreadFire", "district": "s-mary"}, seat=1)
