"""The shipped map satisfies every fact of great-fire-board.md; the loader refuses malformed boards.

Each test names the fact it checks. Card reach follows the rulings: R2 (a cone travels freely through
burning districts) and R3 (the last step follows a direction the card allows: N = N/NE/NW,
E = E/NE/SE, S = S/SE/SW, W = W/SW/NW); R4 (grassed areas and Pudding Lane are never targets).
"""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firebreak.domain.errors import DataError
from firebreak.domain.greatfire.board import (
    DIRECTIONS,
    OPPOSITE,
    SHIPPED_BOARD,
    Board,
    District,
    Objective,
    load_board,
    parse_board,
)

# R3: the directions a fire card allows.
CARD = {
    "N": frozenset({"N", "NE", "NW"}),
    "E": frozenset({"E", "NE", "SE"}),
    "S": frozenset({"S", "SE", "SW"}),
    "W": frozenset({"W", "SW", "NW"}),
}
DIAGONALS = frozenset({"NE", "SE", "SW", "NW"})
# Unit vectors on the canvas (y grows southward).
VECTOR = {
    "N": (0.0, -1.0), "NE": (1.0, -1.0), "E": (1.0, 0.0), "SE": (1.0, 1.0),
    "S": (0.0, 1.0), "SW": (-1.0, 1.0), "W": (-1.0, 0.0), "NW": (-1.0, -1.0),
}

# Example 4: the burning districts assumed for the example. The cone leaves Pudding Lane, goes NW to
# S. Bennet, N to Guild Hall, W to Milk Street and W to Wood Street ("moved north and west through the
# fire"); Bassishaw (north of Coleman Street) and Philpott Lane (north of Billingsgate) burn too.
EXAMPLE_4_BURNING = frozenset(
    {"pudding-lane", "s-bennet", "guild-hall", "milk-street", "wood-street", "bassishaw", "philpott-lane"}
)
EXAMPLE_4_SOUTH_MOVES = frozenset(
    {"cheapside", "tallow-hall", "billingsgate", "coleman-street", "bread-street", "watlin-street"}
)


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


@pytest.fixture
def raw() -> dict[str, Any]:
    data = json.loads(SHIPPED_BOARD.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _d(board: Board, district_id: str) -> District:
    return board.district(district_id)


def _burnable(board: Board) -> list[District]:
    return [d for d in board.districts if d.kind == "burnable"]


def _links_from(board: Board, district_id: str) -> dict[str, str]:
    """Neighbour id -> direction from district_id to it."""
    i = board.index(district_id)
    return {board.districts[j].id: way for j, way in board.neighbours[i]}


def _card_exits(board: Board, district_id: str, card: str) -> set[str]:
    """Neighbours of one district along the directions a card allows (R3)."""
    return {other for other, way in _links_from(board, district_id).items() if way in CARD[card]}


def _card_targets(board: Board, burning: frozenset[str], card: str) -> set[str]:
    """R2+R3+R4: districts a cone can reach from a connected set of burning districts with a card."""
    found: set[str] = set()
    for district_id in burning:
        found |= _card_exits(board, district_id, card)
    return {t for t in found - burning if _d(board, t).kind == "burnable"}


def _connected(board: Board, ids: set[str]) -> bool:
    if not ids:
        return True
    start = next(iter(ids))
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        for other in _links_from(board, here):
            if other in ids and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen == ids


# --- Regions and house slots -------------------------------------------------------------------------


def test_four_regions_purple_blue_green_orange(board: Board) -> None:
    assert {d.region for d in board.districts} == {"purple", "blue", "green", "orange"}


def test_green_region_holds_pudding_lane(board: Board) -> None:
    assert _d(board, "pudding-lane").region == "green"


def test_orange_region_holds_the_tower(board: Board) -> None:
    tower = _d(board, "the-tower")
    assert (tower.name, tower.region, tower.kind) == ("The Tower", "orange", "burnable")


@pytest.mark.parametrize("region", ["purple", "blue", "green", "orange"])
def test_each_region_holds_30_house_slots(board: Board, region: str) -> None:
    assert sum(d.size or 0 for d in _burnable(board) if d.region == region) == 30


def test_120_house_slots_in_all(board: Board) -> None:
    assert sum(d.size or 0 for d in _burnable(board)) == 120


@pytest.mark.parametrize("region", ["purple", "blue", "green", "orange"])
def test_each_region_is_one_contiguous_blob(board: Board, region: str) -> None:
    assert _connected(board, {d.id for d in board.districts if d.region == region})


def test_map_has_55_to_75_districts(board: Board) -> None:
    assert 55 <= len(board.districts) <= 75


# --- Pudding Lane ------------------------------------------------------------------------------------


def test_pudding_lane_is_the_single_origin(board: Board) -> None:
    origins = [d for d in board.districts if d.kind == "origin"]
    assert [d.id for d in origins] == ["pudding-lane"]
    assert board.origin == board.index("pudding-lane")
    pudding = origins[0]
    assert pudding.name == "Pudding Lane"
    assert pudding.size == 0
    assert pudding.objective is None
    assert not pudding.token_site
    assert pudding.preset_band == ()


def test_pudding_lane_lies_on_the_thames(board: Board) -> None:
    """The Thames is the southern edge: nothing lies south of Pudding Lane."""
    assert _card_exits(board, "pudding-lane", "S") == set()
    pudding = _d(board, "pudding-lane")
    assert pudding.y >= max(d.y for d in board.districts) - 100


# --- Sizes and grassed areas -------------------------------------------------------------------------


def test_burnable_districts_hold_1_to_5_houses(board: Board) -> None:
    sizes = Counter(d.size for d in _burnable(board))
    assert set(sizes) <= {1, 2, 3, 4, 5}
    assert sizes[1] + sizes[2] > sizes[3] + sizes[4] + sizes[5], "most districts are small"


def test_grassed_areas_hold_no_houses_tokens_objectives_or_bands(board: Board) -> None:
    for d in board.districts:
        if d.kind == "grass":
            assert (d.size, d.objective, d.token_site, d.preset_band) == (None, None, False, ()), d.id


def test_several_grassed_areas_spread_over_regions(board: Board) -> None:
    grass = {d.id: d.region for d in board.districts if d.kind == "grass"}
    assert len(grass) >= 5
    assert len(set(grass.values())) >= 3
    assert {"moorfields", "finsbury-fields", "artillery-ground", "tower-hill", "smithfield",
            "lincolns-inn-fields"} <= set(grass)


def test_bethnal_has_size_1(board: Board) -> None:
    """Example 2: Bethnal gets 1 house."""
    assert _d(board, "bethnal").size == 1


# --- Objectives --------------------------------------------------------------------------------------


def test_the_12_objectives_are_exactly_the_districts_of_size_3_or_more(board: Board) -> None:
    large = {d.id for d in board.districts if (d.size or 0) >= 3}
    objectives = {d.id for d in board.districts if d.objective is not None}
    assert len(large) == 12
    assert objectives == large


def test_objective_decks_hold_four_objectives_each_worth_2_4_6(board: Board) -> None:
    decks = Counter((d.objective.deck, d.objective.vp) for d in board.districts if d.objective)
    assert decks == {("I", 2): 4, ("II", 4): 4, ("III", 6): 4}


@pytest.mark.parametrize(
    ("district_id", "name", "size"),
    [
        ("guild-hall", "Guild Hall", 4),  # "Guild Hall could contain up to 6 cones" = size + 2
        ("aldgate", "Aldgate", 4),  # Example 2: Aldgate receives 4 houses
        ("st-pauls", "St. Pauls", 5),  # Example 6: St. Pauls holds 5 fires
    ],
)
def test_named_objectives_and_their_sizes(board: Board, district_id: str, name: str, size: int) -> None:
    d = _d(board, district_id)
    assert (d.name, d.kind, d.size) == (name, "burnable", size)
    assert d.objective is not None


# --- Token sites and preset trained bands ------------------------------------------------------------


def test_twenty_token_sites_none_on_a_district_of_size_3_or_more(board: Board) -> None:
    sites = [d for d in board.districts if d.token_site]
    assert len(sites) == 20
    for d in sites:
        assert d.kind == "burnable" and d.size is not None and d.size <= 2, d.id


def test_preset_trained_bands_cripplegate_5_st_botolphs_and_hounds_ditch_4(board: Board) -> None:
    bands = {d.id: d.preset_band for d in board.districts if d.preset_band}
    assert bands == {"cripplegate": (5,), "st-botolphs": (4,), "hounds-ditch": (4,)}
    assert _d(board, "cripplegate").name == "Cripplegate"
    assert _d(board, "st-botolphs").name == "St. Botolphs"
    assert _d(board, "hounds-ditch").name == "Hounds Ditch"


def test_preset_trained_bands_lie_outside_the_green_region(board: Board) -> None:
    """R16: trained bands start outside the green region, preset ones included."""
    for d in board.districts:
        if d.preset_band:
            assert d.region != "green", d.id


# --- Rulebook examples -------------------------------------------------------------------------------


def test_example_1_links(board: Board) -> None:
    """Sion College -> Moorgate E, -> Brewer's Hall S; four-way crosses Cripplegate -> Moorgate SE,
    Sion College -> Finsbury NE."""
    assert _links_from(board, "sion-college")["moorgate"] == "E"
    assert _links_from(board, "sion-college")["brewers-hall"] == "S"
    assert _links_from(board, "cripplegate")["moorgate"] == "SE"
    assert _links_from(board, "sion-college")["finsbury"] == "NE"
    assert _d(board, "brewers-hall").name == "Brewer's Hall"


@pytest.mark.parametrize(
    ("start", "target", "cards"),
    [
        ("cripplegate", "moorgate", {"S", "E"}),
        ("moorgate", "cripplegate", {"N", "W"}),
        ("sion-college", "finsbury", {"N", "E"}),
        ("finsbury", "sion-college", {"S", "W"}),
    ],
)
def test_example_1_four_way_movement_cards(board: Board, start: str, target: str, cards: set[str]) -> None:
    assert {card for card in CARD if target in _card_exits(board, start, card)} == cards


def test_example_3_s_bennet_is_adjacent_to_pudding_lane(board: Board) -> None:
    """Pudding Lane lies SE of S. Bennet across a four-way cross: an S or E card would reach it from
    S. Bennet, but it is burning (never a target), so the example's card sets leave it out."""
    assert _links_from(board, "s-bennet")["pudding-lane"] == "SE"


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("N", {"guild-hall", "coleman-street"}),
        ("E", {"s-mary"}),
        ("S", {"tallow-hall"}),
        ("W", {"cheapside"}),
    ],
)
def test_example_3_from_s_bennet(board: Board, card: str, expected: set[str]) -> None:
    assert _card_exits(board, "s-bennet", card) - {"pudding-lane"} == expected


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("N", {"s-mary", "bridgeward", "candlewick-ward", "pepys-house"}),
        ("W", {"tallow-hall", "voyners-hall"}),
        ("E", {"pepys-house", "philpott-lane", "billingsgate"}),
        ("S", set()),
    ],
)
def test_example_3_from_pudding_lane(board: Board, card: str, expected: set[str]) -> None:
    """S. Bennet (NW of Pudding Lane) is on fire in the example, so it is left out."""
    assert _card_exits(board, "pudding-lane", card) - {"s-bennet"} == expected


def test_example_3_pepys_house_is_north_east_of_pudding_lane(board: Board) -> None:
    assert _links_from(board, "pudding-lane")["pepys-house"] == "NE"


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("N", {"guild-hall", "coleman-street", "s-mary", "bridgeward", "candlewick-ward", "pepys-house"}),
        ("E", {"s-mary", "pepys-house", "philpott-lane", "billingsgate"}),
        ("S", {"tallow-hall"}),
        ("W", {"cheapside", "tallow-hall", "voyners-hall"}),
    ],
)
def test_example_3_whole_fire(board: Board, card: str, expected: set[str]) -> None:
    """R2+R3 with Pudding Lane and S. Bennet burning: every target the example names, and no other."""
    assert _card_targets(board, frozenset({"pudding-lane", "s-bennet"}), card) == expected


def test_example_4_burning_chain_is_connected_and_runs_north_then_west(board: Board) -> None:
    assert _connected(board, set(EXAMPLE_4_BURNING))
    assert _links_from(board, "pudding-lane")["s-bennet"] == "NW"
    assert _links_from(board, "s-bennet")["guild-hall"] == "N"
    assert _links_from(board, "guild-hall")["milk-street"] == "W"
    assert _links_from(board, "milk-street")["cheapside"] == "S"


def test_example_4_south_moves_reachable(board: Board) -> None:
    """Cheapside, Tallow Hall, Billingsgate, Coleman Street, Bread Street and Watlin Street are exactly
    the South moves from the fire of EXAMPLE_4_BURNING."""
    assert _card_targets(board, EXAMPLE_4_BURNING, "S") == EXAMPLE_4_SOUTH_MOVES


def test_example_4_priority_leaves_cheapside_tallow_hall_billingsgate(board: Board) -> None:
    """R5: trained bands in Coleman Street and Bread Street, Watlin Street burnt down -> class 1 is
    Cheapside, Tallow Hall and Billingsgate."""
    bands = {"coleman-street", "bread-street"}
    burnt = {"watlin-street"}

    def rank(district_id: str) -> int:
        houses = district_id not in burnt
        band = district_id in bands
        return {(True, False): 1, (True, True): 2, (False, False): 3, (False, True): 4}[(houses, band)]

    targets = _card_targets(board, EXAMPLE_4_BURNING, "S")
    best = min(rank(t) for t in targets)
    assert {t for t in targets if rank(t) == best} == {"cheapside", "tallow-hall", "billingsgate"}


def test_rulebook_spellings(board: Board) -> None:
    names = {
        "pudding-lane": "Pudding Lane", "s-bennet": "S. Bennet", "s-mary": "S. Mary",
        "guild-hall": "Guild Hall", "coleman-street": "Coleman Street", "tallow-hall": "Tallow Hall",
        "cheapside": "Cheapside", "bridgeward": "Bridgeward", "candlewick-ward": "Candlewick Ward",
        "pepys-house": "Pepys' House", "voyners-hall": "Voyners Hall", "philpott-lane": "Philpott Lane",
        "billingsgate": "Billingsgate", "bread-street": "Bread Street", "watlin-street": "Watlin Street",
        "sion-college": "Sion College", "moorgate": "Moorgate", "brewers-hall": "Brewer's Hall",
        "cripplegate": "Cripplegate", "finsbury": "Finsbury", "st-botolphs": "St. Botolphs",
        "hounds-ditch": "Hounds Ditch", "aldgate": "Aldgate", "bethnal": "Bethnal", "st-pauls": "St. Pauls",
        "the-tower": "The Tower",
    }
    assert {i: _d(board, i).name for i in names} == names


def test_ids_and_names_are_unique(board: Board) -> None:
    assert len({d.id for d in board.districts}) == len(board.districts)
    assert len({d.name for d in board.districts}) == len(board.districts)
    assert [d.index for d in board.districts] == list(range(len(board.districts)))


# --- Links -------------------------------------------------------------------------------------------


def test_opposite_directions() -> None:
    assert DIRECTIONS == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert OPPOSITE == {
        "N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE",
    }


def test_links_symmetric_with_opposite_directions(board: Board) -> None:
    """A -> B North means B -> A South; A -> B North-East means B -> A South-West."""
    for i, row in enumerate(board.neighbours):
        for j, way in row:
            assert (i, OPPOSITE[way]) in board.neighbours[j], (board.districts[i].id, board.districts[j].id)


def test_neighbours_sorted_by_index_without_self_links(board: Board) -> None:
    for i, row in enumerate(board.neighbours):
        js = [j for j, _ in row]
        assert js == sorted(set(js))
        assert i not in js


def test_file_lists_each_pair_once_without_self_links(raw: dict[str, Any]) -> None:
    pairs = [frozenset((link["from"], link["to"])) for link in raw["links"]]
    assert all(len(p) == 2 for p in pairs)
    assert len(pairs) == len(set(pairs))


def test_every_district_has_a_link(board: Board) -> None:
    for d in board.districts:
        assert board.neighbours[d.index], d.id


def test_the_map_is_connected(board: Board) -> None:
    assert _connected(board, {d.id for d in board.districts})


def test_diagonal_links_only_at_four_way_crosses(board: Board) -> None:
    """A diagonal pair meets at a corner where four districts meet: the other two border both of the
    pair orthogonally and are linked by the other diagonal."""
    diagonal_pairs = set()
    for d in board.districts:
        for j, way in board.neighbours[d.index]:
            if way not in DIAGONALS:
                continue
            mine = {k for k, w in board.neighbours[d.index] if w not in DIAGONALS}
            theirs = {k for k, w in board.neighbours[j] if w not in DIAGONALS}
            corner = mine & theirs
            other_diagonal = [
                (a, b) for a in corner for b in corner
                if a < b and dict(board.neighbours[a]).get(b) in DIAGONALS
            ]
            assert len(other_diagonal) == 1, (d.id, board.districts[j].id)
            diagonal_pairs.add(frozenset({d.index, j}))
    crosses = len(diagonal_pairs) // 2
    assert 3 + 3 <= crosses <= 3 + 6, "the rulebook's three crosses and a handful more"


def test_positions_on_the_canvas(board: Board) -> None:
    for d in board.districts:
        assert 0 <= d.x <= 1000 and 0 <= d.y <= 1000, d.id
    assert len({(d.x, d.y) for d in board.districts}) == len(board.districts)


def test_positions_agree_with_link_directions(board: Board) -> None:
    """Each link points from one district's position towards the other's, within 60 degrees."""
    for d in board.districts:
        for j, way in board.neighbours[d.index]:
            other = board.districts[j]
            dx, dy = other.x - d.x, other.y - d.y
            ux, uy = VECTOR[way]
            cos = (dx * ux + dy * uy) / (math.hypot(dx, dy) * math.hypot(ux, uy))
            assert cos > math.cos(math.radians(60)), (d.id, other.id, way)


# --- Loader ------------------------------------------------------------------------------------------


def test_shipped_board_is_cached(board: Board) -> None:
    assert load_board() is load_board()
    assert load_board(None) is board


def test_load_board_from_a_path_equals_the_shipped_board(board: Board, tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text(SHIPPED_BOARD.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_board(path) == board
    assert load_board(str(path)) == board


def test_parse_board_builds_the_dataclasses(board: Board, raw: dict[str, Any]) -> None:
    assert parse_board(raw) == board
    guild = board.district("guild-hall")
    assert guild.objective == Objective(vp=6, deck="III")
    assert board.districts[board.index("guild-hall")] is guild


def test_unknown_id_raises_key_error(board: Board) -> None:
    with pytest.raises(KeyError):
        board.index("no-such-district")
    with pytest.raises(KeyError):
        board.district("no-such-district")


def test_load_board_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="board file"):
        load_board(tmp_path / "nothing.json")


def test_load_board_refuses_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text('{"districts": [', encoding="utf-8")
    with pytest.raises(DataError, match="not valid JSON"):
        load_board(path)


def test_load_board_refuses_a_key_given_twice(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text('{"districts": [], "links": [], "links": []}', encoding="utf-8")
    with pytest.raises(DataError, match="'links' appears twice"):
        load_board(path)


def test_a_variant_board_need_not_match_the_shipped_counts(raw: dict[str, Any]) -> None:
    """The 30-per-region, 12-objective and 20-token facts belong to the shipped board, not the schema."""
    _district(raw, "temple")["tokenSite"] = False
    _district(raw, "temple")["size"] = 5
    variant = parse_board(raw)
    assert variant.district("temple").size == 5


Mutation = Callable[[dict[str, Any]], None]
_SHIPPED_LINKS = json.loads(SHIPPED_BOARD.read_text(encoding="utf-8"))["links"]
NEXT_LINK = len(_SHIPPED_LINKS)  # the index of a link appended to the shipped list
FIRST = f"link 0 ({_SHIPPED_LINKS[0]['from']} -> {_SHIPPED_LINKS[0]['to']})"
FIRST_AGAIN = f"link {NEXT_LINK} ({_SHIPPED_LINKS[0]['from']} -> {_SHIPPED_LINKS[0]['to']})"
FIRST_REVERSED = f"link {NEXT_LINK} ({_SHIPPED_LINKS[0]['to']} -> {_SHIPPED_LINKS[0]['from']})"


def _district(data: dict[str, Any], district_id: str) -> dict[str, Any]:
    found = [d for d in data["districts"] if d["id"] == district_id]
    assert len(found) == 1
    result: dict[str, Any] = found[0]
    return result


def _set(district_id: str, key: str, value: object) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        _district(data, district_id)[key] = value

    return mutate


def _drop(district_id: str, key: str) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        del _district(data, district_id)[key]

    return mutate


def _link(n: int, **changes: object) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data["links"][n].update(changes)

    return mutate


def _add_link(link: object) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data["links"].append(link)

    return mutate


def _relist_link(n: int, *, reverse: bool) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        link = dict(data["links"][n])
        if reverse:
            link = {"from": link["to"], "to": link["from"], "dir": OPPOSITE[link["dir"]]}
        data["links"].append(link)

    return mutate


def _duplicate_district(district_id: str) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data["districts"].append(copy.deepcopy(_district(data, district_id)))

    return mutate


def _top(key: str, value: object) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data[key] = value

    return mutate


def _drop_top(key: str) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        del data[key]

    return mutate


def _second_origin(data: dict[str, Any]) -> None:
    temple = _district(data, "temple")
    temple.update(kind="origin", size=0, tokenSite=False)


def _no_origin(data: dict[str, Any]) -> None:
    _district(data, "pudding-lane").update(kind="burnable", size=1)


def _not_an_object_district(data: dict[str, Any]) -> None:
    data["districts"][3] = "temple"


REFUSALS: list[tuple[str, Mutation, str]] = [
    ("missing-links", _drop_top("links"), "'links'"),
    ("extra-top-key", _top("rivers", []), "'rivers'"),
    ("districts-not-list", _top("districts", {}), "'districts' must be a list"),
    ("links-not-list", _top("links", None), "'links' must be a list"),
    ("district-not-object", _not_an_object_district, "district 3"),
    ("bad-id", _set("temple", "id", "The Temple"), "'The Temple'"),
    ("id-not-string", _set("temple", "id", 7), "not 7"),
    ("duplicate-id", _duplicate_district("temple"), "district 'temple': id used twice"),
    ("missing-key", _drop("temple", "tokenSite"), "district 'temple': missing key(s) 'tokenSite'"),
    ("extra-key", _set("temple", "colour", "red"), "district 'temple': unknown key(s) 'colour'"),
    ("empty-name", _set("temple", "name", " "), "district 'temple': 'name'"),
    ("name-not-string", _set("temple", "name", None), "district 'temple': 'name'"),
    ("unknown-region", _set("temple", "region", "red"), "district 'temple': unknown region 'red'"),
    ("unhashable-region", _set("temple", "region", ["purple"]), "district 'temple': unknown region"),
    ("unknown-kind", _set("temple", "kind", "river"), "district 'temple': unknown kind 'river'"),
    ("burnable-size-0", _set("temple", "size", 0), "district 'temple': size must be 1-5"),
    ("burnable-size-6", _set("temple", "size", 6), "district 'temple': size must be 1-5"),
    ("burnable-size-null", _set("temple", "size", None), "district 'temple': size must be 1-5"),
    ("burnable-size-string", _set("temple", "size", "1"), "district 'temple': size must be 1-5"),
    ("burnable-size-bool", _set("temple", "size", True), "district 'temple': size must be 1-5"),
    ("burnable-size-float", _set("temple", "size", 1.0), "district 'temple': size must be 1-5"),
    ("grass-with-size", _set("moorfields", "size", 2), "district 'moorfields': size must be null"),
    ("origin-size-3", _set("pudding-lane", "size", 3), "district 'pudding-lane': size must be 0"),
    ("objective-on-size-2", _set("temple", "objective", {"vp": 2, "deck": "I"}), "district 'temple': only"),
    ("objective-on-grass", _set("moorfields", "objective", {"vp": 2, "deck": "I"}), "district 'moorfields'"),
    ("objective-on-origin", _set("pudding-lane", "objective", {"vp": 2, "deck": "I"}), "'pudding-lane'"),
    ("objective-not-object", _set("aldgate", "objective", 4), "district 'aldgate': 'objective'"),
    ("objective-bad-deck", _set("aldgate", "objective", {"vp": 4, "deck": "IV"}), "district 'aldgate'"),
    ("objective-list-deck", _set("aldgate", "objective", {"vp": 4, "deck": ["II"]}), "district 'aldgate'"),
    ("objective-wrong-vp", _set("aldgate", "objective", {"vp": 6, "deck": "II"}), "district 'aldgate'"),
    ("objective-missing-vp", _set("aldgate", "objective", {"deck": "II"}), "district 'aldgate' objective"),
    ("objective-extra-key", _set("aldgate", "objective", {"vp": 4, "deck": "II", "x": 1}), "'aldgate'"),
    ("token-not-bool", _set("temple", "tokenSite", 1), "district 'temple': 'tokenSite'"),
    ("token-on-grass", _set("moorfields", "tokenSite", True), "district 'moorfields': a token site"),
    ("token-on-origin", _set("pudding-lane", "tokenSite", True), "district 'pudding-lane': a token site"),
    ("band-not-list", _set("cripplegate", "presetBand", 5), "district 'cripplegate': 'presetBand'"),
    ("band-seven-players", _set("cripplegate", "presetBand", [7]), "district 'cripplegate': presetBand"),
    ("band-string", _set("cripplegate", "presetBand", ["5"]), "district 'cripplegate': presetBand"),
    ("band-twice", _set("cripplegate", "presetBand", [5, 5]), "district 'cripplegate': presetBand"),
    ("band-on-origin", _set("pudding-lane", "presetBand", [4]), "district 'pudding-lane'"),
    ("x-off-canvas", _set("temple", "x", 1001), "district 'temple': 'x'"),
    ("y-negative", _set("temple", "y", -1), "district 'temple': 'y'"),
    ("y-float", _set("temple", "y", 10.5), "district 'temple': 'y'"),
    ("x-bool", _set("temple", "x", False), "district 'temple': 'x'"),
    ("two-origins", _second_origin, "'temple'"),
    ("no-origin", _no_origin, "exactly one origin"),
    ("link-not-object", _add_link(["temple", "blackfriars", "E"]), f"link {NEXT_LINK}: must be"),
    ("link-missing-dir", _add_link({"from": "temple", "to": "ludgate"}), "(temple -> ludgate): missing"),
    ("link-extra-key", _link(0, colour="red"), f"{FIRST}: unknown key(s) 'colour'"),
    ("link-unknown-from", _link(0, **{"from": "nowhere"}), "unknown district 'nowhere'"),
    ("link-unknown-to", _link(0, to="nowhere"), "unknown district 'nowhere'"),
    ("link-id-not-string", _link(0, to=3), "'to' must be a district id"),
    ("link-bad-dir", _link(0, dir="NNE"), f"{FIRST}: unknown direction 'NNE'"),
    ("link-lowercase-dir", _link(0, dir="n"), f"{FIRST}: unknown direction 'n'"),
    ("self-link", _add_link({"from": "temple", "to": "temple", "dir": "N"}),
     "(temple -> temple): a district c"),
    ("pair-twice", _relist_link(0, reverse=False), f"{FIRST_AGAIN}: this pair"),
    ("pair-twice-reversed", _relist_link(0, reverse=True), f"{FIRST_REVERSED}: this pair"),
]


@pytest.mark.parametrize(
    ("mutate", "message"), [(m, s) for _, m, s in REFUSALS], ids=[n for n, _, _ in REFUSALS]
)
def test_parse_board_refuses(raw: dict[str, Any], mutate: Mutation, message: str) -> None:
    mutate(raw)
    with pytest.raises(DataError) as caught:
        parse_board(raw)
    assert message in str(caught.value)


@pytest.mark.parametrize("value", [None, [], "board", 3])
def test_parse_board_refuses_a_non_object(value: object) -> None:
    with pytest.raises(DataError, match="board"):
        parse_board(value)
