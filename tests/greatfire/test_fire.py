"""The fire phase through the public contract: the rulebook's Examples 1, 3 and 4 and rulings R1-R10.

Every test crafts a position with positions.py, then drives it with legal_actions/apply only and checks
the legal lists, the events and the state. The fire phase is staged: playCard -> chooseSource ->
spreadFire, then the pause after a move that leaves the card a move: endFire, or playDoubleMove for a
token holder (R7, R18b); with no move (R8) the phase is "discard" then three placeCone decisions.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from firebreak.domain.errors import NotYourTurn
from firebreak.domain.events import visible_to
from firebreak.domain.greatfire.match import GreatFireMatch
from tests.greatfire.positions import act, blank, conserved, empty, legal, of, put, refused, restart

Action = dict[str, Any]
Event = dict[str, Any]

# The districts a fire card reaches from Pudding Lane and S. Bennet burning together (Example 3):
# each card's own direction and the two diagonals beside it (R3), from either burning district (R2).
EXAMPLE_3_WHOLE_FIRE = {
    "N": ["bridgeward", "candlewick-ward", "coleman-street", "guild-hall", "pepys-house", "s-mary"],
    "E": ["billingsgate", "pepys-house", "philpott-lane", "s-mary"],
    "S": ["tallow-hall"],
    "W": ["cheapside", "tallow-hall", "voyners-hall"],
}
# Example 3's own words: the exits from S. Bennet, and the direct exits from Pudding Lane.
EXAMPLE_3_FROM_S_BENNET = {
    "N": {"guild-hall", "coleman-street"}, "E": {"s-mary"}, "S": {"tallow-hall"}, "W": {"cheapside"},
}
EXAMPLE_3_FROM_PUDDING_LANE = {
    "N": {"s-mary", "bridgeward", "candlewick-ward", "pepys-house"},
    "W": {"tallow-hall", "voyners-hall"},
    "E": {"pepys-house", "philpott-lane", "billingsgate"},
}
# Example 4: the fire, cones per district (burnt down, so no houses), as assumed in test_board.py.
EXAMPLE_4_FIRE = {
    "pudding-lane": 25, "s-bennet": 2, "guild-hall": 4, "milk-street": 1, "wood-street": 2,
    "bassishaw": 1, "philpott-lane": 1,
}


# --- helpers -----------------------------------------------------------------------------------------










def i(m: GreatFireMatch, district_id: str) -> int:
    return m.geo.index[district_id]




def position(hand: list[str], fire: dict[str, int] | None = None, *, seats: int = 4) -> GreatFireMatch:
    """Seat 0's fire phase; each district in fire burnt down (no houses) and holding that many cones."""
    m = blank(seats, hand=hand)
    for district_id, cones in (fire or {}).items():
        if district_id == "pudding-lane":
            put(m, district_id, cones=cones)
        else:
            put(m, district_id, cones=cones, houses={})
    restart(m)
    conserved(m)
    return m


def play(m: GreatFireMatch, card: str, source: str) -> list[Any]:
    """Play a card, choose a source; return the legal spreadFire targets."""
    act(m, {"type": "playCard", "card": card})
    act(m, {"type": "chooseSource", "district": source})
    return legal(m, "spreadFire")


def green_seat_0(m: GreatFireMatch) -> str:
    colour: str = m.comps.colours[m.colours[0][0]]
    assert colour == "green", "seed 1 deals green to seat 0"
    return colour


# --- Example 1 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "expected"),
    [("E", ["finsbury", "moorgate"]), ("S", ["brewers-hall"]), ("N", ["cripplegate", "finsbury"]),
     ("W", ["aldersgate"])],
)
def test_example_1_sion_college_exits_r3(card: str, expected: list[str]) -> None:
    """Example 1, R3: Sion College -> Moorgate by an east card, -> Brewer's Hall by a south card,
    -> Finsbury (four-way cross, NE) by a north or east card only."""
    m = position([card] * 5, {"sion-college": 2})
    assert play(m, card, "sion-college") == expected


def test_example_1_sion_college_to_moorgate_as_a_move() -> None:
    """Example 1: the east card carries a cone from Sion College into Moorgate, which burns (R6)."""
    m = position(["E"] * 5, {"sion-college": 2})
    put(m, "moorgate", token=None)
    assert play(m, "E", "sion-college") == ["finsbury", "moorgate"]
    events = act(m, {"type": "spreadFire", "district": "moorgate"})
    assert of(events, "fireSpread")[0]["from"] == "sion-college"
    assert of(events, "fireSpread")[0]["to"] == "moorgate"
    assert m.cones[i(m, "sion-college")] == 1
    assert m.cones[i(m, "moorgate")] == 2
    assert not any(m.houses[i(m, "moorgate")])


@pytest.mark.parametrize(
    ("card", "expected"),
    [("S", ["moorgate", "sion-college"]), ("E", ["finsbury", "moorgate"]), ("N", ["st-giles"]),
     ("W", ["aldersgate"])],
)
def test_example_1_cripplegate_to_moorgate_with_south_or_east_only_r3(card: str, expected: list[str]) -> None:
    """Example 1, R3: Cripplegate -> Moorgate (a four-way cross, SE) with a south or east card, never with
    north or west."""
    m = position([card] * 5, {"cripplegate": 2})
    targets = play(m, card, "cripplegate")
    assert targets == expected
    assert ("moorgate" in targets) == (card in ("S", "E"))


@pytest.mark.parametrize(
    ("card", "expected"),
    [("N", ["cripplegate", "finsbury"]), ("W", ["brewers-hall", "cripplegate", "sion-college"]),
     ("E", ["austin-friars"]), ("S", ["bassishaw"])],
)
def test_example_1_moorgate_to_cripplegate_with_north_or_west_only_r3(card: str, expected: list[str]) -> None:
    """Example 1, R3: the cross the other way: Moorgate -> Cripplegate (NW) with a north or west card."""
    m = position([card] * 5, {"moorgate": 2})
    targets = play(m, card, "moorgate")
    assert targets == expected
    assert ("cripplegate" in targets) == (card in ("N", "W"))


@pytest.mark.parametrize(
    ("card", "expected"),
    [("S", ["moorgate", "sion-college"]), ("W", ["cripplegate", "sion-college"]), ("E", ["bedlam"])],
)
def test_example_1_finsbury_to_sion_college_with_south_or_west_only_r3(card: str, expected: list[str]) -> None:
    """Example 1, R3: Finsbury -> Sion College (SW) with a south or west card."""
    m = position([card] * 5, {"finsbury": 2})
    assert play(m, card, "finsbury") == expected


def test_r4_finsbury_north_card_leads_only_onto_grass() -> None:
    """R4: north of Finsbury lies Moorfields (grass), never a target; so with a north card Finsbury is no
    source at all, while Pudding Lane is."""
    m = position(["N"] * 5, {"finsbury": 2})
    act(m, {"type": "playCard", "card": "N"})
    assert legal(m, "chooseSource") == ["pudding-lane"]
    refused(m, {"type": "chooseSource", "district": "finsbury"})


# --- Example 3 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["pudding-lane", "s-bennet"])
@pytest.mark.parametrize("card", ["N", "E", "S", "W"])
def test_example_3_card_targets_with_s_bennet_on_fire(card: str, source: str) -> None:
    """Example 3 (R2, R3): with S. Bennet on fire the cone, from Pudding Lane or from S. Bennet, reaches
    every district the example names for the card, and no other."""
    m = position([card] * 5, {"s-bennet": 2})
    act(m, {"type": "playCard", "card": card})
    assert legal(m, "chooseSource") == ["pudding-lane", "s-bennet"]
    act(m, {"type": "chooseSource", "district": source})
    targets = legal(m, "spreadFire")
    assert targets == EXAMPLE_3_WHOLE_FIRE[card]
    assert EXAMPLE_3_FROM_S_BENNET[card] <= set(targets)
    assert EXAMPLE_3_FROM_PUDDING_LANE.get(card, set()) <= set(targets)
    assert "pudding-lane" not in targets and "s-bennet" not in targets


def test_example_3_north_card_through_s_bennet_into_guild_hall() -> None:
    """Example 3 and "Fire Damage": the cone leaves Pudding Lane, flows to S. Bennet, exits north into
    Guild Hall (size 4), whose houses burn and which is topped up with 3 cones from the stock."""
    m = position(["N"] * 5, {"s-bennet": 2})
    guild = i(m, "guild-hall")
    lost = {m.comps.colours[c]: n for c, n in enumerate(m.houses[guild]) if n}
    supply = m.supply
    assert "guild-hall" in play(m, "N", "pudding-lane")
    events = act(m, {"type": "spreadFire", "district": "guild-hall"})
    assert m.cones[i(m, "pudding-lane")] == 24
    assert m.cones[i(m, "s-bennet")] == 2
    assert m.cones[guild] == 4
    assert m.supply == supply - 3
    assert of(events, "housesBurnt") == [
        {"type": "housesBurnt", "district": "guild-hall", "houses": lost, "version": m.version}]
    assert sum(lost.values()) == 4
    assert of(events, "fireGrew")[0]["cones"] == 3
    assert m.phase == "fire" and m.legal_actions(0) == [{"type": "endFire"}]  # R18b: the card still gives a move


@pytest.mark.parametrize(
    ("card", "expected"),
    [("N", ["bridgeward", "candlewick-ward", "pepys-house", "s-bennet", "s-mary"]),
     ("W", ["s-bennet", "tallow-hall", "voyners-hall"]),
     ("E", ["billingsgate", "pepys-house", "philpott-lane"])],
)
def test_example_3_pudding_lane_alone(card: str, expected: list[str]) -> None:
    """Example 3's direct exits from Pudding Lane (plus S. Bennet, NW, when it is not on fire): N, W, E."""
    m = position([card] * 5)
    assert play(m, card, "pudding-lane") == expected


def test_r3_south_card_gives_no_move_from_pudding_lane_alone() -> None:
    """R3: Pudding Lane lies on the Thames; a south card has no exit from it, so is not playable."""
    m = position(["S", "S", "N", "S", "S"])
    assert legal(m, "playCard", "card") == ["N"]
    refused(m, {"type": "playCard", "card": "S"})


# --- Example 4 ---------------------------------------------------------------------------------------


def example_4() -> GreatFireMatch:
    m = position(["S"] * 5, EXAMPLE_4_FIRE)
    put(m, "coleman-street", bands=1)
    put(m, "bread-street", bands=1)
    empty(m, "watlin-street")
    put(m, "cheapside", token=None)
    restart(m)
    return m


def test_example_4_sources_r1() -> None:
    """Example 4, R1: every burning district with >= 2 cones is a source (Pudding Lane, S. Bennet, Guild
    Hall, Wood Street); Milk Street, Bassishaw and Philpott Lane hold one cone and are not."""
    m = example_4()
    act(m, {"type": "playCard", "card": "S"})
    assert legal(m, "chooseSource") == ["guild-hall", "pudding-lane", "s-bennet", "wood-street"]


@pytest.mark.parametrize("source", ["pudding-lane", "guild-hall"])
def test_example_4_south_targets_are_cheapside_tallow_hall_billingsgate_r5(source: str) -> None:
    """Example 4, R5: bands in Coleman Street and Bread Street, Watlin Street burnt down: the legal south
    moves are exactly Cheapside, Tallow Hall and Billingsgate (from Pudding Lane or from Guild Hall)."""
    m = example_4()
    assert play(m, "S", source) == ["billingsgate", "cheapside", "tallow-hall"]
    for barred in ("coleman-street", "bread-street", "watlin-street"):
        refused(m, {"type": "spreadFire", "district": barred})


def test_example_4_cone_from_pudding_lane_through_the_fire_into_cheapside() -> None:
    """Example 4: the cone taken from Pudding Lane moves north and west through the fire and exits south
    into Cheapside: Pudding Lane loses it, Cheapside burns and is topped up to its size 2."""
    m = example_4()
    cheapside = i(m, "cheapside")
    play(m, "S", "pudding-lane")
    events = act(m, {"type": "spreadFire", "district": "cheapside"})
    assert [(e["from"], e["to"]) for e in of(events, "fireSpread")] == [("pudding-lane", "cheapside")]
    assert m.cones[i(m, "pudding-lane")] == 24
    assert m.cones[i(m, "guild-hall")] == 4
    assert m.cones[cheapside] == 2
    assert not any(m.houses[cheapside])


# --- R1 source ---------------------------------------------------------------------------------------


def test_r1_district_with_one_cone_is_not_a_source() -> None:
    """R1: a burning district with a single cone cannot give one away; with two it can."""
    m = position(["N"] * 5, {"s-bennet": 1})
    act(m, {"type": "playCard", "card": "N"})
    assert legal(m, "chooseSource") == ["pudding-lane"]
    refused(m, {"type": "chooseSource", "district": "s-bennet"})

    m = position(["N"] * 5, {"s-bennet": 2})
    act(m, {"type": "playCard", "card": "N"})
    assert legal(m, "chooseSource") == ["pudding-lane", "s-bennet"]


def test_r1_a_source_never_drops_to_zero_cones() -> None:
    """R1: a source with two cones keeps one; it is then no longer a source."""
    m = position(["N"] * 5, {"sion-college": 2})
    play(m, "N", "sion-college")
    act(m, {"type": "spreadFire", "district": "cripplegate"})
    assert m.cones[i(m, "sion-college")] == 1


@pytest.mark.parametrize(("cones", "bands"), [(2, 2), (3, 3), (2, 3)])
def test_r1_contained_district_is_not_a_source(cones: int, bands: int) -> None:
    """R1: a contained district (bands >= cones) is not a source, however many cones it holds."""
    m = position(["E"] * 5, {"sion-college": cones})
    put(m, "sion-college", bands=bands)
    restart(m)
    act(m, {"type": "playCard", "card": "E"})
    assert legal(m, "chooseSource") == ["pudding-lane"]
    refused(m, {"type": "chooseSource", "district": "sion-college"})


def test_r1_partly_held_district_is_still_a_source() -> None:
    """R1: two cones and one band is burning (not contained), so it is a source."""
    m = position(["E"] * 5, {"sion-college": 2})
    put(m, "sion-college", bands=1)
    restart(m)
    act(m, {"type": "playCard", "card": "E"})
    assert legal(m, "chooseSource") == ["pudding-lane", "sion-college"]


def test_r1_source_must_be_on_fire() -> None:
    """R1: a district not on fire is never a source."""
    m = position(["N"] * 5)
    act(m, {"type": "playCard", "card": "N"})
    assert legal(m, "chooseSource") == ["pudding-lane"]
    refused(m, {"type": "chooseSource", "district": "guild-hall"})


# --- R2 path -----------------------------------------------------------------------------------------


def s_bennet_blocker(kind: str) -> GreatFireMatch:
    """Pudding Lane and Guild Hall burn; S. Bennet between them is in the given state."""
    m = position(["N"] * 5, {"guild-hall": 2})
    if kind == "burning":
        put(m, "s-bennet", cones=2, houses={})
    elif kind == "contained":
        put(m, "s-bennet", cones=2, bands=2)  # a held fire keeps its houses (R6)
    elif kind == "burnt":
        empty(m, "s-bennet")
    elif kind == "demolished":
        put(m, "s-bennet", houses={}, demolished=True)
    restart(m)
    return m


@pytest.mark.parametrize("kind", ["contained", "burnt", "demolished"])
def test_r2_path_does_not_cross_a_district_that_is_not_burning(kind: str) -> None:
    """R2: with S. Bennet contained, burnt out or demolished, a cone from Pudding Lane cannot reach Guild
    Hall's fire, so north of Guild Hall (Brewer's Hall) and north of S. Bennet (Coleman Street) are out of
    reach; Guild Hall's own cones still reach Brewer's Hall."""
    m = s_bennet_blocker(kind)
    act(m, {"type": "playCard", "card": "N"})
    assert legal(m, "chooseSource") == ["guild-hall", "pudding-lane"]
    act(m, {"type": "chooseSource", "district": "pudding-lane"})
    assert legal(m, "spreadFire") == ["bridgeward", "candlewick-ward", "pepys-house", "s-mary"]

    m = s_bennet_blocker(kind)
    assert play(m, "N", "guild-hall") == ["brewers-hall"]


def test_r2_path_runs_through_burning_districts() -> None:
    """R2 (the control of the test above): with S. Bennet burning, Pudding Lane's cone crosses S. Bennet
    and Guild Hall and exits north of either."""
    m = s_bennet_blocker("burning")
    assert play(m, "N", "pudding-lane") == [
        "brewers-hall", "bridgeward", "candlewick-ward", "coleman-street", "pepys-house", "s-mary"]


def test_r2_r4_grass_is_neither_crossed_nor_a_target() -> None:
    """R2, R4: west of Aldersgate lie Smithfield (grass), St. Bartholomews and Christ's Hospital. Smithfield
    is no target, and Clerkenwell and Holborn behind it are out of reach."""
    m = position(["W"] * 5, {"aldersgate": 2})
    assert play(m, "W", "aldersgate") == ["christs-hospital", "st-bartholomews"]


# --- R3 exit -----------------------------------------------------------------------------------------


def test_r3_diagonal_pair_needs_a_card_allowing_the_diagonal() -> None:
    """R3: Pudding Lane -> S. Bennet is a NW diagonal: reachable with N and W cards, not with E."""
    for card, reachable in (("N", True), ("W", True), ("E", False)):
        m = position([card] * 5)
        assert ("s-bennet" in play(m, card, "pudding-lane")) is reachable, card


def test_r3_exit_into_a_burning_district_is_no_move() -> None:
    """R3: the last step must enter a district that is not burning: from S. Bennet, Pudding Lane (SE) is
    burning and never a target, whatever the card."""
    for card in ("S", "E"):
        m = position([card] * 5, {"s-bennet": 2})
        targets = play(m, card, "s-bennet")
        assert "pudding-lane" not in targets and "s-bennet" not in targets


# --- R4 targets --------------------------------------------------------------------------------------


def test_r4_contained_district_is_a_target() -> None:
    """R4: a contained district (Moorgate: 1 cone, 1 band) is a target, classed by its houses and band."""
    m = position(["E"] * 5, {"sion-college": 2})
    put(m, "moorgate", cones=1, bands=1)
    put(m, "finsbury", houses={}, bands=1)  # class 4, below Moorgate's class 2
    restart(m)
    assert play(m, "E", "sion-college") == ["moorgate"]


def test_r4_demolished_district_is_never_a_target() -> None:
    """R4: Brewer's Hall is the only south exit of Sion College; demolished, it is no target, so the south
    card gives no move at all."""
    m = position(["S", "S", "S", "S", "N"], {"sion-college": 2})
    assert legal(m, "playCard", "card") == ["N", "S"]

    m = position(["S", "S", "S", "S", "N"], {"sion-college": 2})
    put(m, "brewers-hall", houses={}, demolished=True)
    restart(m)
    assert legal(m, "playCard", "card") == ["N"]


def test_r4_pudding_lane_is_never_a_target() -> None:
    """R4: from every source and card of Example 3's fire, Pudding Lane is never offered."""
    for card in ("N", "E", "S", "W"):
        m = position([card] * 5, {"s-bennet": 2, "tallow-hall": 2, "s-mary": 2})
        for source in ("s-bennet", "tallow-hall", "s-mary"):
            c = m.clone()
            assert "pudding-lane" not in play(c, card, source)


# --- R5 priority -------------------------------------------------------------------------------------

# Pudding Lane alone, north card: S. Bennet, S. Mary, Candlewick Ward, Bridgeward and Pepys' House.
R5_CASES = [
    # (districts burnt down, districts with a band, legal targets)
    pytest.param([], [], ["bridgeward", "candlewick-ward", "pepys-house", "s-bennet", "s-mary"], id="all-class-1"),
    pytest.param(["candlewick-ward", "bridgeward"], ["s-bennet", "bridgeward", "pepys-house"], ["s-mary"],
                 id="class-1-only"),
    pytest.param(["candlewick-ward", "bridgeward"], ["s-bennet", "bridgeward", "pepys-house", "s-mary"],
                 ["pepys-house", "s-bennet", "s-mary"], id="class-2-best"),
    pytest.param(["s-bennet", "s-mary", "candlewick-ward", "bridgeward", "pepys-house"],
                 ["s-bennet", "s-mary", "bridgeward", "pepys-house"], ["candlewick-ward"], id="class-3-best"),
    pytest.param(["s-bennet", "s-mary", "candlewick-ward", "bridgeward", "pepys-house"],
                 ["s-bennet", "s-mary", "candlewick-ward", "bridgeward", "pepys-house"],
                 ["bridgeward", "candlewick-ward", "pepys-house", "s-bennet", "s-mary"], id="class-4-only"),
]


@pytest.mark.parametrize(("burnt", "banded", "expected"), R5_CASES)
def test_r5_only_the_best_class_is_legal(burnt: list[str], banded: list[str], expected: list[str]) -> None:
    """R5: (1) houses, no band; (2) houses and band; (3) no houses, no band; (4) no houses, band. Only the
    best class reachable is legal; the player picks among equals."""
    m = position(["N"] * 5)
    for d in burnt:
        empty(m, d)
    for d in banded:
        put(m, d, bands=1)
    restart(m)
    targets = play(m, "N", "pudding-lane")
    assert targets == expected
    for other in {"bridgeward", "candlewick-ward", "pepys-house", "s-bennet", "s-mary"} - set(expected):
        refused(m, {"type": "spreadFire", "district": other})


def test_r5_priority_prefers_houses_without_bands() -> None:
    """R5 class 1 over class 2: a band in every exit but one leaves that one the only legal target."""
    m = position(["E"] * 5)
    put(m, "pepys-house", bands=1)
    put(m, "billingsgate", bands=1)
    restart(m)
    assert play(m, "E", "pudding-lane") == ["philpott-lane"]


def test_r5_priority_is_judged_from_the_chosen_source() -> None:
    """R5: the card, then the source, then the target: from Sion College (its own fire) the only west
    exit, Aldersgate, is burnt (class 3) and legal, though Pudding Lane's fire has class 1 west exits."""
    m = position(["W"] * 5, {"sion-college": 2})
    empty(m, "aldersgate")
    restart(m)
    act(m, {"type": "playCard", "card": "W"})
    assert legal(m, "chooseSource") == ["pudding-lane", "sion-college"]
    act(m, {"type": "chooseSource", "district": "sion-college"})
    assert legal(m, "spreadFire") == ["aldersgate"]


def test_r5_pinned_bands_count_as_bands() -> None:
    """R5: a contained district with houses is class 2 and loses to a class 1 district."""
    m = position(["E"] * 5, {"sion-college": 2})
    put(m, "moorgate", cones=1, bands=1)
    restart(m)
    assert play(m, "E", "sion-college") == ["finsbury"]


# --- R6 arrival --------------------------------------------------------------------------------------


def sion_to_moorgate(moorgate_bands: int, token: str | None) -> GreatFireMatch:
    """Sion College burns (2 cones), east card: Moorgate (token site) and Finsbury (with a band)."""
    m = position(["E"] * 5, {"sion-college": 2})
    put(m, "moorgate", bands=moorgate_bands, token=token)
    put(m, "finsbury", bands=1)
    restart(m)
    return m


def test_r6_free_band_takes_the_arriving_cone_and_nothing_burns() -> None:
    """R6: a free band in the target sits on the arriving cone; the fire is contained: the houses stay,
    no cones are added (Moorgate has size 2 but keeps 1 cone) and the token stays on the board."""
    m = sion_to_moorgate(1, "demolition")
    moorgate = i(m, "moorgate")
    houses = list(m.houses[moorgate])
    supply = m.supply
    assert play(m, "E", "sion-college") == ["finsbury", "moorgate"]
    events = act(m, {"type": "spreadFire", "district": "moorgate"})
    assert of(events, "fireSpread")[0]["contained"] is True
    assert (m.cones[moorgate], m.bands[moorgate]) == (1, 1)
    assert m.houses[moorgate] == houses and any(houses)
    assert m.supply == supply
    assert m.board_tokens[moorgate] == "demolition"
    assert m.tokens[0] == []
    assert not of(events, "housesBurnt") and not of(events, "fireGrew") and not of(events, "tokenTaken")


def test_r6_uncontained_arrival_burns_houses_tops_up_and_takes_the_token() -> None:
    """R6: no band: all houses go (an event names them by colour), cones rise to the size (2) from the
    supply, and the active player takes the token."""
    m = position(["E"] * 5, {"sion-college": 2})
    put(m, "moorgate", token="demolition")
    restart(m)
    moorgate = i(m, "moorgate")
    lost = {m.comps.colours[c]: n for c, n in enumerate(m.houses[moorgate]) if n}
    supply = m.supply
    play(m, "E", "sion-college")
    events = act(m, {"type": "spreadFire", "district": "moorgate"})
    assert of(events, "fireSpread")[0]["contained"] is False
    assert [e["houses"] for e in of(events, "housesBurnt")] == [lost]
    assert sum(lost.values()) == 2
    assert not any(m.houses[moorgate])
    assert m.cones[moorgate] == 2
    assert m.supply == supply - 1
    assert [e["cones"] for e in of(events, "fireGrew")] == [1]
    assert m.tokens[0] == ["demolition"]
    assert m.board_tokens[moorgate] is None


def test_r6_token_kind_is_seen_only_by_the_active_player() -> None:
    """R6, R18: everyone learns that seat 0 took Moorgate's token; only seat 0 learns its kind."""
    m = position(["E"] * 5, {"sion-college": 2})
    put(m, "moorgate", token="victoryPoint")
    restart(m)
    play(m, "E", "sion-college")
    events = act(m, {"type": "spreadFire", "district": "moorgate"})
    public = [e for e in of(events, "tokenTaken")]
    assert [(e["seat"], e["district"]) for e in public] == [(0, "moorgate")]
    mine = [e for e in visible_to(events, 0) if e.get("token") == "victoryPoint"]
    assert len(mine) == 1
    for viewer in (1, 2, 3, None):
        seen = visible_to(events, viewer)
        assert of(seen, "tokenTaken"), viewer
        assert all("victoryPoint" not in e.values() for e in seen), viewer
        assert all("token" not in e for e in seen), viewer
        assert "victoryPoint" not in json.dumps(m.view(viewer)), viewer
    assert "victoryPoint" in json.dumps(m.view(0))


def test_r6_arrival_at_a_contained_district_breaks_containment() -> None:
    """R6 and "Fire Moving into New Districts": Mercers' Hall (size 3) holds 1 cone under 1 band; a second
    cone makes it burn: the houses go and the cones rise to 3."""
    m = position(["E"] * 5, {"bassishaw": 2})
    put(m, "mercers-hall", cones=1, bands=1)
    restart(m)
    mercers = i(m, "mercers-hall")
    assert any(m.houses[mercers])
    assert play(m, "E", "bassishaw") == ["mercers-hall"]
    events = act(m, {"type": "spreadFire", "district": "mercers-hall"})
    assert of(events, "fireSpread")[0]["contained"] is False
    assert not any(m.houses[mercers])
    assert (m.cones[mercers], m.bands[mercers]) == (3, 1)
    assert [e["cones"] for e in of(events, "fireGrew")] == [1]
    assert of(events, "housesBurnt")


def test_r6_free_band_in_a_held_district_keeps_it_contained() -> None:
    """R6: Mercers' Hall holds 1 cone under 1 band plus a free band; the arriving cone is covered by the
    free band: still contained, houses stay, no cones added."""
    m = position(["E"] * 5, {"bassishaw": 2})
    put(m, "mercers-hall", cones=1, bands=2)
    restart(m)
    mercers = i(m, "mercers-hall")
    houses = list(m.houses[mercers])
    play(m, "E", "bassishaw")
    act(m, {"type": "spreadFire", "district": "mercers-hall"})
    assert (m.cones[mercers], m.bands[mercers]) == (2, 2)
    assert m.houses[mercers] == houses


def test_r6_cones_rise_to_max_of_size_and_cones_present() -> None:
    """R6: a held Mercers' Hall (size 3) with 4 cones under 4 bands; the fifth cone breaks it and no cone
    is added (max(size, cones already there) = 5)."""
    m = position(["E"] * 5, {"bassishaw": 2})
    put(m, "mercers-hall", cones=4, bands=4)
    restart(m)
    mercers = i(m, "mercers-hall")
    supply = m.supply
    play(m, "E", "bassishaw")
    events = act(m, {"type": "spreadFire", "district": "mercers-hall"})
    assert m.cones[mercers] == 5
    assert not any(m.houses[mercers])
    assert m.supply == supply
    assert not of(events, "fireGrew")


# --- R7 double move ----------------------------------------------------------------------------------


def test_r7_double_move_offered_after_a_move_when_the_token_is_held() -> None:
    """R7, R18b: after the first move, with a double-move token and a move left, the player may play the
    token or end the fire phase; only those two."""
    m = position(["E"] * 5)
    m.tokens[0] = ["doubleMove"]
    play(m, "E", "pudding-lane")
    act(m, {"type": "spreadFire", "district": "billingsgate"})
    assert m.phase == "fire"
    assert sorted(a["type"] for a in m.legal_actions(0)) == ["endFire", "playDoubleMove"]


def test_r18b_without_the_token_the_same_pause_offers_only_end_fire() -> None:
    """R7, R18b: without the token the player pauses just the same (so the pause shows nobody whether a token
    is held); only endFire is offered, and it opens the actions phase."""
    m = position(["E"] * 5)
    play(m, "E", "pudding-lane")
    events = act(m, {"type": "spreadFire", "district": "billingsgate"})
    assert m.phase == "fire" and not of(events, "actionsStarted")
    assert m.view(1)["stage"] == {"card": "E", "source": None, "movesLeft": 0, "doubleMovePlayed": False}
    assert m.legal_actions(0) == [{"type": "endFire"}]
    refused(m, {"type": "playDoubleMove"})
    events = act(m, {"type": "endFire"})
    assert m.phase == "actions" and of(events, "actionsStarted")


def test_r7_no_double_move_offer_when_the_card_has_no_move_left() -> None:
    """R7, R18b: Sion College's only south exit is Brewer's Hall; after that move no district holds 2
    burning cones with a south exit, so there is no pause (for anyone) and the token stays held."""
    m = position(["S"] * 5, {"sion-college": 2})
    m.tokens[0] = ["doubleMove"]
    assert play(m, "S", "sion-college") == ["brewers-hall"]
    act(m, {"type": "spreadFire", "district": "brewers-hall"})
    assert m.phase == "actions"
    assert m.tokens[0] == ["doubleMove"]


def test_r7_double_move_grants_exactly_one_extra_move_with_the_same_card() -> None:
    """R7: the token gives one more move with the card already played (no second card leaves the hand),
    its own source and target; the token leaves the game; then the phase is over."""
    m = position(["E", "E", "E", "N", "N"])
    m.tokens[0] = ["doubleMove"]
    on_board = m.board_tokens.count("doubleMove")
    play(m, "E", "pudding-lane")
    act(m, {"type": "spreadFire", "district": "billingsgate"})
    events = act(m, {"type": "playDoubleMove"})
    assert [(e["seat"], e["token"]) for e in of(events, "tokenPlayed")] == [(0, "doubleMove")]
    assert m.tokens[0] == []
    assert m.board_tokens.count("doubleMove") == on_board
    assert legal(m, "chooseSource") == ["billingsgate", "pudding-lane"]
    act(m, {"type": "chooseSource", "district": "pudding-lane"})
    # East again, not north: Billingsgate now burns, so Custom House (east of it) is reachable.
    assert legal(m, "spreadFire") == ["custom-house", "pepys-house", "philpott-lane"]
    act(m, {"type": "spreadFire", "district": "custom-house"})
    assert m.phase == "actions"
    assert sorted(m.hands[0]) == ["E", "E", "N", "N"]
    assert m.cones[i(m, "pudding-lane")] == 23


def test_r7_at_most_one_double_move_per_turn() -> None:
    """R7: holding two tokens, only one may be played in a turn; the other stays held."""
    m = position(["E"] * 5)
    put(m, "pepys-house", token=None)
    m.tokens[0] = ["doubleMove", "doubleMove"]
    play(m, "E", "pudding-lane")
    act(m, {"type": "spreadFire", "district": "billingsgate"})
    act(m, {"type": "playDoubleMove"})
    act(m, {"type": "chooseSource", "district": "pudding-lane"})
    act(m, {"type": "spreadFire", "district": "pepys-house"})
    assert m.phase == "actions"
    assert m.tokens[0] == ["doubleMove"]
    refused(m, {"type": "playDoubleMove"})


def test_r7_token_gained_by_the_first_move_can_be_played_at_once() -> None:
    """R7: the first move burns Philpott Lane and takes its double-move token; it is offered at once and
    gives the second move."""
    m = position(["E"] * 5)
    put(m, "philpott-lane", token="doubleMove")
    restart(m)
    assert m.tokens[0] == []
    play(m, "E", "pudding-lane")
    act(m, {"type": "spreadFire", "district": "philpott-lane"})
    assert m.tokens[0] == ["doubleMove"]
    assert sorted(a["type"] for a in m.legal_actions(0)) == ["endFire", "playDoubleMove"]
    act(m, {"type": "playDoubleMove"})
    assert m.tokens[0] == []
    act(m, {"type": "chooseSource", "district": "pudding-lane"})
    assert "custom-house" in legal(m, "spreadFire")  # east of the newly burning Philpott Lane
    act(m, {"type": "spreadFire", "district": "custom-house"})
    assert m.phase == "actions"


def test_r7_declining_the_double_move_keeps_the_token() -> None:
    """R7: endFire instead of the token: actions begin and the token stays for a later turn."""
    m = position(["E"] * 5)
    m.tokens[0] = ["doubleMove"]
    play(m, "E", "pudding-lane")
    act(m, {"type": "spreadFire", "district": "billingsgate"})
    act(m, {"type": "endFire"})
    assert m.phase == "actions"
    assert m.tokens[0] == ["doubleMove"]


# --- R8 no move --------------------------------------------------------------------------------------


def test_r8_no_move_reveals_the_hand_to_everyone() -> None:
    """R8: seat 0 spreads north into Candlewick Ward and ends; seat 1 holds five south cards and the fire
    (Pudding Lane, Candlewick Ward) has no south exit: its turn opens with its hand revealed in a public
    event, then a discard."""
    m = position(["N"] * 5)
    m.hands[1] = ["S"] * 5
    play(m, "N", "pudding-lane")
    act(m, {"type": "spreadFire", "district": "candlewick-ward"})
    act(m, {"type": "endFire"})
    events = act(m, {"type": "endActions"})
    revealed = of(events, "handRevealed")
    assert [(e["seat"], e["hand"]) for e in revealed] == [(1, ["S"] * 5)]
    assert "audience" not in revealed[0]
    for viewer in (0, 2, 3, None):
        assert of(visible_to(events, viewer), "handRevealed"), viewer
    assert m.turn == 1 and m.phase == "discard"
    assert "hand" not in m.view(2)["players"][1]  # R18: shown for that event only
    assert m.legal_actions(1) == [{"type": "discard", "card": "S"}]
    refused(m, {"type": "playCard", "card": "S"}, seat=1)
    refused(m, {"type": "discard", "card": "S"}, seat=0, error=NotYourTurn)


def test_r8_discard_then_three_cones_placed_as_in_intensify() -> None:
    """R8, R12: after the discard, three cones go one at a time into burning districts other than Pudding
    Lane, each staying <= size + 2: The Tower (size 5) takes one to 7, Candlewick Ward (size 2) two to 4;
    the contained S. Mary never. Then the actions phase."""
    m = position(["S"] * 5, {"candlewick-ward": 2, "the-tower": 6})
    put(m, "s-mary", cones=1, bands=1)
    restart(m)
    assert m.phase == "discard"
    supply = m.supply
    events = act(m, {"type": "discard", "card": "S"})
    assert of(events, "cardDiscarded")[0]["card"] == "S"
    assert m.hands[0] == ["S"] * 4
    assert m.phase == "placeCones"
    assert legal(m, "placeCone") == ["candlewick-ward", "the-tower"]
    act(m, {"type": "placeCone", "district": "the-tower"})
    assert legal(m, "placeCone") == ["candlewick-ward"]
    refused(m, {"type": "placeCone", "district": "the-tower"})
    refused(m, {"type": "placeCone", "district": "pudding-lane"})
    refused(m, {"type": "placeCone", "district": "s-mary"})
    act(m, {"type": "placeCone", "district": "candlewick-ward"})
    assert m.phase == "placeCones"
    act(m, {"type": "placeCone", "district": "candlewick-ward"})
    assert m.cones[i(m, "the-tower")] == 7 and m.cones[i(m, "candlewick-ward")] == 4
    assert m.supply == supply - 3
    assert m.phase == "actions" and m.ap == 4


def test_r8_any_card_may_be_discarded_and_unplaceable_cones_are_lost() -> None:
    """R8, R12: Pudding Lane boxed in by demolished districts: no card moves; the player discards a card of
    their choice; with no burning district but Pudding Lane the three cones are lost."""
    m = position(["N", "E", "S", "W", "N"])
    for d in ("s-bennet", "s-mary", "candlewick-ward", "bridgeward", "tallow-hall", "philpott-lane",
              "voyners-hall", "billingsgate", "pepys-house"):
        put(m, d, houses={}, demolished=True)
    restart(m)
    assert m.phase == "discard"
    assert legal(m, "discard", "card") == ["E", "N", "S", "W"]
    supply = m.supply
    events = act(m, {"type": "discard", "card": "W"})
    assert sorted(m.hands[0]) == ["E", "N", "N", "S"]
    assert [e["cones"] for e in of(events, "conesLost")] == [3]
    assert m.supply == supply
    assert m.phase == "actions"


def test_r8_move_burning_own_houses_is_still_a_legal_move() -> None:
    """R8: the only move (south from Sion College into Brewer's Hall) burns the player's own house; it is
    a legal move, so there is no no-move case and the player must make it."""
    m = position(["S"] * 5, {"sion-college": 2})
    colour = green_seat_0(m)
    put(m, "brewers-hall", houses={colour: 1})
    restart(m)
    assert m.phase == "fire"
    assert legal(m, "playCard", "card") == ["S"]
    assert play(m, "S", "sion-college") == ["brewers-hall"]
    events = act(m, {"type": "spreadFire", "district": "brewers-hall"})
    assert [e["houses"] for e in of(events, "housesBurnt")] == [{colour: 1}]
    assert not any(m.houses[i(m, "brewers-hall")])


# --- R9 Pudding Lane refill --------------------------------------------------------------------------


def test_r9_pudding_lane_below_two_gets_five_more() -> None:
    """R9: Pudding Lane with 2 cones gives one away (1 left), then 5 come from the supply."""
    m = position(["N"] * 5, {"pudding-lane": 2})
    supply = m.supply
    play(m, "N", "pudding-lane")
    events = act(m, {"type": "spreadFire", "district": "s-mary"})
    assert m.cones[i(m, "pudding-lane")] == 6
    assert [e["cones"] for e in of(events, "puddingLaneRefilled")] == [5]
    assert m.supply == supply - 5


def test_r9_no_refill_at_two_or_more() -> None:
    """R9: Pudding Lane with 3 cones gives one away and keeps 2: no refill."""
    m = position(["N"] * 5, {"pudding-lane": 3})
    play(m, "N", "pudding-lane")
    events = act(m, {"type": "spreadFire", "district": "s-mary"})
    assert m.cones[i(m, "pudding-lane")] == 2
    assert not of(events, "puddingLaneRefilled")


# --- R10 supply --------------------------------------------------------------------------------------


def test_r10_empty_supply_takes_cones_from_pudding_lane() -> None:
    """R10: with the supply empty, Bridgeward's top-up (size 2) comes from Pudding Lane."""
    m = position(["N"] * 5)
    m.put_out[1] += m.supply
    m.supply = 0
    conserved(m)
    play(m, "N", "pudding-lane")
    events = act(m, {"type": "spreadFire", "district": "bridgeward"})
    assert m.cones[i(m, "bridgeward")] == 2
    assert m.cones[i(m, "pudding-lane")] == 23
    assert m.supply == 0
    assert not of(events, "conesReturned")


def test_r10_pudding_lane_down_to_one_then_put_out_cones_return() -> None:
    """R10 (through R8's placements): supply empty; the first cone comes from Pudding Lane (2 -> 1); for
    the second, Pudding Lane is exhausted and every holder of put-out cones (seats 1 and 2, not 0 and 3)
    returns one, in an event; the third comes from what they returned."""
    m = position(["S"] * 5, {"pudding-lane": 2, "candlewick-ward": 2, "the-tower": 1})
    m.put_out = [0, m.supply - 29, 29, 0]
    m.supply = 0
    conserved(m)
    assert m.phase == "discard"
    act(m, {"type": "discard", "card": "S"})
    events = act(m, {"type": "placeCone", "district": "candlewick-ward"})
    assert m.cones[i(m, "pudding-lane")] == 1
    assert not of(events, "conesReturned")
    events = act(m, {"type": "placeCone", "district": "candlewick-ward"})
    assert [e["seats"] for e in of(events, "conesReturned")] == [[1, 2]]
    assert m.put_out[2] == 28 and m.put_out[0] == 0 and m.put_out[3] == 0
    assert m.cones[i(m, "pudding-lane")] == 1
    assert m.supply == 1
    events = act(m, {"type": "placeCone", "district": "the-tower"})
    assert not of(events, "conesReturned")
    assert m.supply == 0
    assert m.cones[i(m, "candlewick-ward")] == 4 and m.cones[i(m, "the-tower")] == 2
    assert m.phase == "actions"


def test_r10_cones_conserved_through_a_double_move_turn() -> None:
    """R10: 65 cones in all, through two moves, top-ups, a refill and a token (checked after each apply)."""
    m = position(["N"] * 5, {"pudding-lane": 2, "s-bennet": 2})
    m.tokens[0] = ["doubleMove"]
    play(m, "N", "pudding-lane")
    act(m, {"type": "spreadFire", "district": "guild-hall"})
    act(m, {"type": "playDoubleMove"})
    act(m, {"type": "chooseSource", "district": "guild-hall"})
    act(m, {"type": "spreadFire", "district": "brewers-hall"})
    assert m.phase == "actions"
    assert m.cones[i(m, "pudding-lane")] == 6


def test_r10_p10_one_round_of_returns_per_placement() -> None:
    """R10/P10: supply and Pudding Lane exhausted; a placement of three gets one round of returned cones
    (seats 1 and 2 give one each), places those two, and the third cone is not placed."""
    m = position(["S"] * 5, {"pudding-lane": 1, "candlewick-ward": 2, "the-tower": 1})
    m.put_out = [0, m.supply - 29, 29, 0]
    m.supply = 0
    conserved(m)
    act(m, {"type": "discard", "card": "S"})
    events = act(m, {"type": "placeCone", "district": "candlewick-ward"})
    assert [e["seats"] for e in of(events, "conesReturned")] == [[1, 2]]
    events = act(m, {"type": "placeCone", "district": "the-tower"})
    assert not of(events, "conesReturned")
    assert [e["cones"] for e in of(events, "conesLost")] == [1]
    assert m.put_out[1:3] == [m.put_out[1], 28] and m.supply == 0
    assert m.phase == "actions"


def test_r10_p10_a_refill_gets_one_round_of_returns() -> None:
    """R10/P10/R9: two placements in one move, one round of returns each: Bridgeward's top-up takes one of
    the two returned cones; Pudding Lane's refill (R9) takes the other, then its own round gives two more,
    and the refill stops at 3 of its 5 cones."""
    m = position(["N"] * 5, {"pudding-lane": 2})
    m.put_out = [0, m.supply - 10, 10, 0]
    m.supply = 0
    conserved(m)
    play(m, "N", "pudding-lane")
    events = act(m, {"type": "spreadFire", "district": "bridgeward"})
    assert [e["seats"] for e in of(events, "conesReturned")] == [[1, 2], [1, 2]]
    assert m.cones[i(m, "bridgeward")] == 2
    assert [e["cones"] for e in of(events, "puddingLaneRefilled")] == [3]
    assert m.cones[i(m, "pudding-lane")] == 4 and m.supply == 0 and m.put_out[2] == 8
