"""The 2-player expansion: setup (R19), the non-player turn (R20, R21) and the end (R22), with rulings P8 and P9.

Positions are crafted from tests.greatfire.positions: every house is cleared first and only the houses a test
needs are put back, so what the non-player turn must do follows from the position alone.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from firebreak.domain import titles
from firebreak.domain.errors import BadOptions, IllegalAction, NoSystemStep, NotYourTurn
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules import scoring
from firebreak.domain.greatfire.state import Phase
from tests.greatfire.positions import blank, idx, put, restart, run_non_player, to_actions, to_non_player

TITLE = titles.get("greatfire")
Event = dict[str, Any]

# Shipped colour priority cards (large house first, then clockwise round the card).
BLUE_FIRST = ["blue", "green", "red", "yellow", "white", "purple"]
RED_WHITE_BLUE = ["red", "white", "blue", "yellow", "green", "purple"]
# The five districts Pudding Lane's own fire reaches with a North card (N: S. Mary, Candlewick Ward,
# Bridgeward; NW: S. Bennet; NE: Pepys' House).
NORTH_OF_PUDDING_LANE = {"s-bennet", "s-mary", "candlewick-ward", "bridgeward", "pepys-house"}


# ----- helpers ------------------------------------------------------------------------------------------

def two(**options: Any) -> GreatFireMatch:
    """A 2-player match at seat 0's fire phase with no house and no face-down token anywhere."""
    m = blank(seats=2, **options)
    m.houses = [[0] * len(m.comps.colours) for _ in m.houses]
    m.board_tokens = [None] * len(m.board_tokens)
    m._legal = None
    return m


def calm(m: GreatFireMatch) -> None:
    """Leave Pudding Lane a single cone: no district is a source (R1), so the fire phase has no move."""
    put(m, "pudding-lane", cones=1)


def phase(m: GreatFireMatch) -> Phase:
    """The match's phase, read afresh (the phase changes under the type checker's narrowing)."""
    return m.phase


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def band_steps(events: list[Event]) -> list[tuple[str, str]]:
    return [(e["from"], e["to"]) for e in of(events, "bandMoved")]


def spreads(events: list[Event]) -> list[tuple[str, str]]:
    return [(e["from"], e["to"]) for e in of(events, "fireSpread")]


def break_tie(m: GreatFireMatch, district: str) -> list[Event]:
    """The conducting seat breaks the pending tie; the automated steps then run on."""
    (seat,) = m.to_act()
    return m.apply(seat, {"type": "breakTie", "district": district}) + run_non_player(m)


def step(m: GreatFireMatch) -> list[Event]:
    """One automated step or one decision: the first legal action, ending fire and actions phases at once."""
    if m.system_due():
        return m.run_system_step()
    (seat,) = m.to_act()
    legal = m.legal_actions(seat)
    for kind in ("endFire", "endActions"):
        for action in legal:
            if action["type"] == kind:
                return m.apply(seat, action)
    return m.apply(seat, legal[0])


def play_to_end(m: GreatFireMatch, limit: int = 2000) -> list[Event]:
    events: list[Event] = []
    for _ in range(limit):
        if m.is_over():
            return events
        events += step(m)
    raise AssertionError(f"the match did not end within {limit} steps")


def timeline(events: list[Event]) -> list[tuple[Any, ...]]:
    """The turn structure of an event stream: player turns ending, non-player turns, flips, draws, stacks."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        kind = e["type"]
        if kind == "turnEnded":
            entry: tuple[Any, ...] = ("turn", e["seat"])
        elif kind == "nonPlayerTurnStarted":
            entry = ("npc", e["conductor"])
        elif kind == "fireCardFlipped":
            entry = ("flip", e["card"])
        elif kind == "cardDrawn":
            entry = ("draw", e["seat"])
        elif kind == "stackRevealed":
            entry = ("stack", e["stack"], e["seat"], e["byNonPlayer"])
        elif kind == "finalRounds":
            entry = ("final",)
        elif kind in ("conePlaced", "conesLost"):
            entry = ("intensify", e["seat"])
        elif kind == "gameOver":
            entry = ("over",)
        else:
            continue
        if not out or out[-1] != entry or entry[0] != "intensify":
            out.append(entry)
    return out


def setup_match(seats: int = 2, seed: int = 1, **options: Any) -> GreatFireMatch:
    """A fresh match with any redeal declined (the fire stack is then built)."""
    m = TITLE.new_match(seats=seats, seed=seed, options=options)
    assert isinstance(m, GreatFireMatch)
    while m.phase is Phase.REDEAL:
        m.apply(m.turn, {"type": "keepHand"})
    return m


# ----- setup (R19) ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("hidden", [False, True])
def test_r19_two_colours_and_two_pawns_per_seat(hidden: bool) -> None:
    """R19: each player owns two colours and two pawns (one per colour; P4 under Hidden Colours)."""
    for seed in range(10):
        m = setup_match(seed=seed, hiddenColours=hidden)
        assert [len(c) for c in m.colours] == [2, 2]
        assert len({c for seat in m.colours for c in seat}) == 4
        assert [len(p) for p in m.pawns] == [2, 2] and all(d == -1 for p in m.pawns for d in p)
        assert [len(p) for p in m.pawn_colours] == [2, 2]
        assert len({c for seat in m.pawn_colours for c in seat}) == 4
        if not hidden:
            assert m.pawn_colours == m.colours
        for row in m.view(None)["players"]:
            assert len(row["pawnColours"]) == 2
            assert (row["colours"] is None) is hidden


def test_r19_objective_decks_hold_one_copy_and_each_player_gets_one_from_each() -> None:
    """R19: one copy of each objective card is removed; each player gets one card of each deck I, II, III,
    so the two players never hold the same objective (with both copies that happens 1 time in 7 per deck)."""
    decks = {d.id: d.objective.deck for d in setup_match().geo.board.districts if d.objective}
    for seed in range(40):
        m = setup_match(seed=seed)
        for hand in m.objectives:
            assert sorted(decks[o] for o in hand) == ["I", "II", "III"]
        assert all(a != b for a, b in zip(m.objectives[0], m.objectives[1], strict=True))


@pytest.mark.parametrize("start", [0, 1])
def test_r19_r16_three_bands_each_then_two_pawns_each_alternating(start: int) -> None:
    """R19/R16: no preset band for 2 players; 3 bands each placed alternately from the start player, then
    the two pawns each, alternately; then the start player's first turn."""
    m = setup_match(startSeat=start)
    assert m.phase is Phase.PLACE_BANDS and sum(m.bands) == 0
    order = [start, 1 - start] * 3
    for seat in order:
        assert m.to_act() == [seat]
        assert m.legal_actions(1 - seat) == []
        m.apply(seat, m.legal_actions(seat)[0])
    assert sum(m.bands) == 6
    assert phase(m) is Phase.PLACE_PAWNS
    placed = []
    for seat in [start, 1 - start] * 2:
        assert m.to_act() == [seat]
        events = m.apply(seat, m.legal_actions(seat)[-1])
        placed += [(e["seat"], e["pawn"]) for e in of(events, "pawnPlaced")]
    assert placed == [(start, 0), (1 - start, 0), (start, 1), (1 - start, 1)]
    assert all(d >= 0 for p in m.pawns for d in p)
    assert phase(m) is Phase.FIRE and m.to_act() == [start]


def test_r19_p17_fire_stack_a_to_e_with_2_6_13_12_12_cards() -> None:
    """R19, the component ruling and P17: 2-player stack cards A-E with 2 and 6 fire cards on A and B (the
    expansion's numbers) and 13, 12, 12 on C, D, E, so that 43 cards lie above B, an odd number whose draw is the
    second player's (45 cards; 60 - 10 in hands - 45 = 5 left in the box)."""
    m = setup_match()
    stacks = [c for c in m.deck if c.startswith("#")]
    assert stacks == ["#A", "#B", "#C", "#D", "#E"]
    counts = []
    for k, card in enumerate(m.deck):
        if card.startswith("#"):
            counts.append(0)
        else:
            assert k > 0
            counts[-1] += 1
    assert m.deck[0] == "#A"
    assert counts == [2, 6, 13, 12, 12]
    assert len(m.box) == 5 and [len(h) for h in m.hands] == [5, 5]
    assert Counter(m.box + [c for c in m.deck if not c.startswith("#")] + m.hands[0] + m.hands[1]) == {
        "N": 15, "E": 15, "S": 15, "W": 15}


def test_r19_colour_priority_and_band_movement_decks_of_twelve_shuffled() -> None:
    """R19/R20: 12 colour priority cards (each colour is the large house on two; each card orders all six)
    and 12 band movement cards (one per objective district), both shuffled by the seed."""
    m = setup_match()
    cards = m.comps.colour_priority
    assert len(cards) == 12 and sorted(m.priority_deck) == list(range(12))
    assert all(sorted(card) == sorted(m.comps.colours) for card in cards)
    assert Counter(card[0] for card in cards) == {c: 2 for c in m.comps.colours}
    objectives = sorted(d.id for d in m.geo.board.districts if d.objective)
    assert len(objectives) == 12 and sorted(m.movement_deck) == objectives
    orders = {(tuple(setup_match(seed=s).priority_deck), tuple(setup_match(seed=s).movement_deck)) for s in range(4)}
    assert len(orders) > 1
    assert m.priority_discard == [] and m.movement_discard == []


def test_r19_more_destruction_is_refused_for_two_seats() -> None:
    """The expansion has its own end (R22): the More Destruction option does not apply to 2 seats."""
    with pytest.raises(BadOptions):
        TITLE.new_match(seats=2, seed=1, options={"moreDestruction": True})


# ----- player turns with two pawns (R19) -----------------------------------------------------------------

def test_r19_move_either_or_both_pawns() -> None:
    """R19: movePawn is listed for both pawns; the player may move each with its own action points."""
    m = two()
    m.pawns[0] = [idx(m, "holborn"), idx(m, "aldgate")]
    to_actions(m)
    moves = {(a["pawn"], a["to"]) for a in m.legal_actions(0) if a["type"] == "movePawn"}
    assert (0, "newgate") in moves and (0, "aldgate") not in moves
    assert (1, "crutched-friars") in moves and (1, "holborn") not in moves
    assert {p for p, _ in moves} == {0, 1}
    m.apply(0, {"type": "movePawn", "pawn": 1, "to": "crutched-friars"})
    m.apply(0, {"type": "movePawn", "pawn": 0, "to": "newgate"})
    m.apply(0, {"type": "movePawn", "pawn": 1, "to": "minories"})
    assert m.pawns[0] == [idx(m, "newgate"), idx(m, "minories")]
    assert m.ap == 1
    with pytest.raises(IllegalAction):
        m.apply(0, {"type": "movePawn", "pawn": 2, "to": "ludgate"})


@pytest.mark.parametrize("pawn", [0, 1])
def test_r19_r11b_put_out_with_either_pawn(pawn: int) -> None:
    """R19/R11b: a contained fire can be put out by the player whose either pawn stands there."""
    m = two()
    put(m, "leadenhall", cones=1, bands=1)
    here, elsewhere = idx(m, "leadenhall"), idx(m, "holborn")
    m.pawns[0] = [here, elsewhere] if pawn == 0 else [elsewhere, here]
    to_actions(m)
    assert {"type": "putOut", "district": "leadenhall"} in m.legal_actions(0)
    m.apply(0, {"type": "putOut", "district": "leadenhall"})
    assert m.put_out[0] == 1 and m.cones[idx(m, "leadenhall")] == 0


def test_r19_r17_score_counts_surviving_houses_of_both_colours() -> None:
    """R19/R17: a player scores 2 VP for each surviving house of either of their two colours."""
    m = two()
    first, second = (m.comps.colours[c] for c in m.colours[0])
    other = next(c for c in m.comps.colours if m.comps.colours.index(c) not in m.colours[0])
    put(m, "aldgate", houses={first: 2, second: 1, other: 1})
    put(m, "holborn", houses={second: 2})
    score = scoring.score(m, 0)
    assert score["housesLeft"] == 5 and score["houses"] == 10
    assert m.view(None)["players"][0]["housesLost"] == 40 - 5


# ----- the non-player fire expansion (R20, R21) ----------------------------------------------------------

def test_r20_colour_rule_1_most_houses_of_the_large_house_colour() -> None:
    """R20 colour rule 1: among the targets of the best fire movement class, the fire takes the one with
    the most houses of the large house's colour (red): Candlewick Ward (2 red) over S. Mary and S. Bennet
    (1 red each) and Bridgeward (2 blue, no red); the flipped card goes to the discard pile."""
    m = two()
    put(m, "s-mary", houses={"red": 1})
    put(m, "candlewick-ward", houses={"red": 2})
    put(m, "bridgeward", houses={"blue": 2})
    put(m, "s-bennet", houses={"yellow": 1, "red": 1})
    put(m, "pepys-house", houses={"white": 1})
    deck, discard = len(m.deck), len(m.discard)
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    assert of(events, "fireCardFlipped")[0]["card"] == "N"
    assert of(events, "priorityCardFlipped")[0]["colours"] == RED_WHITE_BLUE
    assert spreads(events) == [("pudding-lane", "candlewick-ward")]
    assert of(events, "housesBurnt")[0]["houses"] == {"red": 2}
    assert not of(events, "tieToBreak")
    assert len(m.deck) == deck and m.discard[-1] == "N" and len(m.discard) == discard + 1


def test_r20_colour_rule_2_second_colour_breaks_a_tie() -> None:
    """R20 colour rule 2: S. Mary, Candlewick Ward and Bridgeward hold one red each; the card's second colour
    (white) breaks the tie: Bridgeward. S. Bennet's two blue do not count, having no red."""
    m = two()
    put(m, "s-mary", houses={"red": 1})
    put(m, "candlewick-ward", houses={"red": 1, "blue": 1})
    put(m, "bridgeward", houses={"red": 1, "white": 1})
    put(m, "s-bennet", houses={"blue": 2})
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("pudding-lane", "bridgeward")]


def test_r20_colour_rule_2_when_no_target_holds_the_large_house_colour() -> None:
    """R20 colour rule 2: no target holds red, so the second colour (white) decides: Pepys' House."""
    m = two()
    put(m, "s-mary", houses={"blue": 1})
    put(m, "candlewick-ward", houses={"green": 2})
    put(m, "pepys-house", houses={"white": 1})
    put(m, "bridgeward", houses={"purple": 2})
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("pudding-lane", "pepys-house")]


@pytest.mark.parametrize(
    ("candlewick", "bridgeward", "expected"),
    [
        ({"red": 1, "blue": 1}, {"red": 1, "yellow": 1}, "candlewick-ward"),   # third colour: blue
        ({"yellow": 1, "purple": 1}, {"yellow": 1, "green": 1}, "bridgeward"),  # fifth colour: green
        ({"purple": 2}, {"purple": 1, "red": 0}, "candlewick-ward"),             # sixth colour: purple
    ],
)
def test_r20_colour_rule_3_further_colours_clockwise(candlewick: dict[str, int], bridgeward: dict[str, int],
                                                     expected: str) -> None:
    """R20 colour rule 3: while tied, each further colour clockwise on the card (red, white, blue, yellow,
    green, purple) is considered in turn until one separates the tied targets."""
    m = two()
    put(m, "candlewick-ward", houses=candlewick)
    put(m, "bridgeward", houses=bridgeward)
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("pudding-lane", expected)]


def test_r20_r21_colour_rule_4_the_conducting_seat_breaks_a_true_tie() -> None:
    """R20 colour rule 4 / R21 (npcTies "conductor"): Candlewick Ward and Bridgeward hold the same houses of
    every colour; seat 1, who conducts, chooses. Until then no automated step is due and seat 0 cannot act."""
    m = two()
    put(m, "candlewick-ward", houses={"red": 1, "blue": 1})
    put(m, "bridgeward", houses={"blue": 1, "red": 1})
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall", conductor=1)
    events = run_non_player(m)
    assert not of(events, "fireSpread")
    (tie,) = of(events, "tieToBreak")
    assert tie["kind"] == "target" and tie["seat"] == 1
    assert set(tie["options"]) == {"candlewick-ward", "bridgeward"}
    assert m.phase is Phase.NON_PLAYER_CHOICE and m.npc_choice is not None and m.npc_choice["kind"] == "target"
    assert m.to_act() == [1] and not m.system_due()
    assert m.legal_actions(0) == []
    assert sorted(a["district"] for a in m.legal_actions(1)) == ["bridgeward", "candlewick-ward"]
    assert {a["type"] for a in m.legal_actions(1)} == {"breakTie"}
    with pytest.raises(NoSystemStep):
        m.run_system_step()
    with pytest.raises(NotYourTurn):
        m.apply(0, {"type": "breakTie", "district": "bridgeward"})
    with pytest.raises(IllegalAction):
        m.apply(1, {"type": "breakTie", "district": "s-mary"})
    events = break_tie(m, "bridgeward")
    assert {"type": "tieBroken", "kind": "target", "district": "bridgeward", "by": 1} in [
        {k: v for k, v in e.items() if k != "version"} for e in events]
    assert spreads(events) == [("pudding-lane", "bridgeward")]
    assert of(events, "housesBurnt")[0]["houses"] == {"red": 1, "blue": 1}
    assert phase(m) is Phase.FIRE and m.turn == 0


def test_r20_colour_rule_4_tie_may_include_empty_districts_but_class_4_stays_out() -> None:
    """R20 colour rule 4 "(which may include an empty district)": every target north of Pudding Lane is burnt
    out, so all are tied, except Bridgeward, whose band puts it in the last class (R5 class 4)."""
    m = two()
    put(m, "bridgeward", bands=1)
    to_non_player(m, card="N", priority=BLUE_FIRST, objective="guild-hall")
    run_non_player(m)
    assert m.npc_choice is not None and m.npc_choice["kind"] == "target"
    assert set(m.npc_choice["options"]) == NORTH_OF_PUDDING_LANE - {"bridgeward"}
    events = break_tie(m, "pepys-house")
    assert spreads(events) == [("pudding-lane", "pepys-house")]


def test_r21_random_ties_are_broken_by_the_seed_reproducibly() -> None:
    """R21 (npcTies "random"): no seat is asked; the seed picks among the tied targets (event tieBroken
    by "seed"); the same seed and position give the same pick, and different seeds do not all agree."""

    def run(seed: int) -> tuple[GreatFireMatch, list[Event]]:
        m = two(seed=seed, npcTies="random")
        to_non_player(m, card="N", priority=BLUE_FIRST, objective="guild-hall")
        return m, run_non_player(m)

    m, events = run(3)
    again, events_again = run(3)
    assert events == events_again and m.to_dict() == again.to_dict()
    assert not of(events, "tieToBreak")
    (broken,) = of(events, "tieBroken")
    assert broken["by"] == "seed" and broken["kind"] == "target" and broken["district"] in NORTH_OF_PUDDING_LANE
    assert spreads(events) == [("pudding-lane", broken["district"])]
    assert m.phase is Phase.FIRE and m.turn == 1
    picks = {of(run(seed)[1], "tieBroken")[0]["district"] for seed in range(12)}
    assert len(picks) > 1


def test_r20_r5_fire_movement_class_comes_before_the_colour() -> None:
    """R20 colour rule 1 follows the fire movement priority (R5) first: S. Mary (one blue house, no band,
    class 1) is taken over Bridgeward (two red houses and a band, class 2) although red is the large house."""
    m = two()
    put(m, "s-mary", houses={"blue": 1})
    put(m, "bridgeward", houses={"red": 2}, bands=1)
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("pudding-lane", "s-mary")]


def test_r20_r5_houses_with_a_band_come_before_empty_districts() -> None:
    """R20 with R5: Bridgeward (houses and a band, class 2) beats the burnt-out districts (class 3); the band
    goes on the arriving cone and the houses stand (R6)."""
    m = two()
    put(m, "bridgeward", houses={"green": 1}, bands=1)
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    (spread,) = of(events, "fireSpread")
    assert (spread["from"], spread["to"], spread["contained"]) == ("pudding-lane", "bridgeward", True)
    assert m.houses[idx(m, "bridgeward")][m.comps.colours.index("green")] == 1


def test_r20_source_is_pudding_lane_whenever_its_fire_reaches_the_target() -> None:
    """R20 source: Royal Exchange is reached through Candlewick Ward (6 cones), which is connected to Pudding
    Lane (2 cones): the cone comes from Pudding Lane, which is then refilled (R9)."""
    m = two()
    put(m, "pudding-lane", cones=2)
    put(m, "candlewick-ward", cones=6)
    put(m, "royal-exchange", houses={"yellow": 2})
    to_non_player(m, card="N", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("pudding-lane", "royal-exchange")]
    assert m.cones[idx(m, "candlewick-ward")] == 6
    assert m.cones[idx(m, "royal-exchange")] == 4
    assert m.cones[m.geo.origin] == 6


def test_r20_source_unconnected_to_pudding_lane_is_the_connected_district_with_most_cones() -> None:
    """R20 source: with a South card Pudding Lane reaches nothing; Baynard's Castle is reached from the fire
    of Ludgate (4 cones) and St. Pauls (3 cones): the cone comes from Ludgate, the most cones."""
    m = two()
    put(m, "ludgate", cones=4)
    put(m, "st-pauls", cones=3)
    put(m, "baynards-castle", houses={"green": 1})
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("ludgate", "baynards-castle")]
    assert m.cones[idx(m, "ludgate")] == 3 and m.cones[idx(m, "st-pauls")] == 3


def test_r20_r21_source_tie_is_the_conducting_seats_choice() -> None:
    """R20 source tie: Ludgate and St. Pauls hold 3 cones each; the conducting seat chooses the source."""
    m = two()
    put(m, "ludgate", cones=3)
    put(m, "st-pauls", cones=3)
    put(m, "baynards-castle", houses={"green": 1})
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    (tie,) = of(events, "tieToBreak")
    assert tie["kind"] == "source" and set(tie["options"]) == {"ludgate", "st-pauls"}
    assert m.to_act() == [0]
    events = break_tie(m, "st-pauls")
    assert spreads(events) == [("st-pauls", "baynards-castle")]
    assert m.cones[idx(m, "ludgate")] == 3 and m.cones[idx(m, "st-pauls")] == 2


def test_r20_r21_a_target_tie_then_a_source_tie_are_two_decisions() -> None:
    """R20 colour rule 4, then the source tie: Baynard's Castle and Blackfriars hold one green house each (South
    card); seat 0 picks Blackfriars, then, Ludgate and St. Pauls holding 3 cones each, the source."""
    m = two()
    put(m, "ludgate", cones=3)
    put(m, "st-pauls", cones=3)
    put(m, "baynards-castle", houses={"green": 1})
    put(m, "blackfriars", houses={"green": 1})
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="guild-hall")
    run_non_player(m)
    assert m.npc_choice is not None and m.npc_choice["kind"] == "target"
    assert set(m.npc_choice["options"]) == {"baynards-castle", "blackfriars"}
    events = break_tie(m, "blackfriars")
    (tie,) = of(events, "tieToBreak")
    assert tie["kind"] == "source" and set(tie["options"]) == {"ludgate", "st-pauls"}
    events = break_tie(m, "st-pauls")
    assert spreads(events) == [("st-pauls", "blackfriars")]


def test_r20_token_in_the_burnt_district_is_removed_unseen() -> None:
    """R20: the fire burns S. Mary, where a token lies: it leaves the game; no seat gains or sees it."""
    m = two()
    put(m, "s-mary", houses={"red": 1}, token="doubleMove")
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("pudding-lane", "s-mary")]
    assert [e["district"] for e in of(events, "tokenRemoved")] == ["s-mary"]
    assert not of(events, "tokenTaken") and not of(events, "tokenRevealed")
    assert all("token" not in e and "audience" not in e for e in events)
    assert m.board_tokens[idx(m, "s-mary")] is None
    assert m.tokens == [[], []]
    assert m.view(None)["districts"]["s-mary"]["token"] is False


def test_r20_token_in_a_district_the_fire_moves_into_is_removed_even_when_contained() -> None:
    """R20 ("if the fire moves into a space containing a black token remove the token"): S. Mary holds a red house,
    a free band and a token; the fire moves in (class 2 beats the empty class-3 districts), the band contains it,
    the house stays, and the token still leaves the game unseen."""
    m = two()
    put(m, "s-mary", houses={"red": 1}, bands=1, token="victoryPoint")
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("pudding-lane", "s-mary")]
    (spread,) = of(events, "fireSpread")
    assert spread["contained"] is True
    assert [e["district"] for e in of(events, "tokenRemoved")] == ["s-mary"]
    assert not of(events, "tokenTaken") and all("token" not in e and "audience" not in e for e in events)
    assert m.board_tokens[idx(m, "s-mary")] is None and m.tokens == [[], []]
    assert sum(m.houses[idx(m, "s-mary")]) == 1
    assert m.view(0)["districts"]["s-mary"]["token"] is False


def test_r20_no_fire_move_skips_to_band_movement() -> None:
    """R20 "no fire movement is possible": a South card with only Pudding Lane on fire moves nothing
    (noFireMove); the band movement phase still happens."""
    m = two()
    put(m, "mercers-hall", bands=1)
    cones = list(m.cones)
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    assert of(events, "noFireMove") and not of(events, "fireSpread")
    assert m.cones == cones
    assert of(events, "movementCardFlipped")[0]["objective"] == "guild-hall"
    assert band_steps(events)[0][0] == "mercers-hall"
    types = [e["type"] for e in events]
    assert types.index("noFireMove") < types.index("movementCardFlipped") < types.index("nonPlayerTurnEnded")


def test_r20_empty_priority_and_movement_decks_reshuffle_their_discards() -> None:
    """R20: "if no cards remain, shuffle the discard pile to form a new deck" (both non-player decks)."""
    m = two()
    m.priority_discard, m.priority_deck = list(m.priority_deck), []
    m.movement_discard, m.movement_deck = list(m.movement_deck), []
    to_non_player(m, card="S", conductor=0)
    events = run_non_player(m)
    assert of(events, "priorityDeckShuffled") and of(events, "movementDeckShuffled")
    assert len(m.priority_deck) == 11 and len(m.priority_discard) == 1
    assert len(m.movement_deck) == 11 and len(m.movement_discard) == 1
    assert m.npc_objective == m.movement_discard[0]
    assert m.npc_priority == m.priority_discard[0]


# ----- trained band movement (R20, P8) ---------------------------------------------------------------------

def test_r20_band_rule_1_the_two_closest_bands_able_to_move_in_the_cards_direction() -> None:
    """R20 band rule 1, objective Royal Exchange, South card: Candlewick Ward (distance 1) cannot move south
    (only Pudding Lane lies there) and Fenchurch (distance 1) is pinned on a cone, so the two closest able
    bands are Bridgeward (1) and Crutched Friars (2); Minories (3) stays."""
    m = two()
    calm(m)
    for district in ("candlewick-ward", "bridgeward", "crutched-friars", "minories"):
        put(m, district, bands=1)
    put(m, "fenchurch", cones=1, bands=1)
    put(m, "east-smithfield", houses={"blue": 1})
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="royal-exchange")
    events = run_non_player(m)
    assert of(events, "noFireMove")
    assert sorted(band_steps(events)) == [("bridgeward", "philpott-lane"), ("crutched-friars", "east-smithfield")]
    assert all(e["seat"] is None for e in of(events, "bandMoved"))
    for district in ("candlewick-ward", "minories", "fenchurch"):
        assert m.bands[idx(m, district)] == 1


def test_r20_band_rule_1_distance_never_through_pudding_lane() -> None:
    """R20 band rule 1, objective Custom House, West card: Voyners Hall is 3 spaces away through Pudding Lane
    but 6 without; Aldgate is 4 and The Tower 1: The Tower and Aldgate move, Voyners Hall stays."""
    m = two()
    calm(m)
    for district in ("voyners-hall", "aldgate", "the-tower"):
        put(m, district, bands=1)
    put(m, "drapers-hall", houses={"blue": 1})
    to_non_player(m, card="W", priority=BLUE_FIRST, objective="custom-house")
    events = run_non_player(m)
    assert sorted(band_steps(events)) == [("aldgate", "drapers-hall"), ("the-tower", "custom-house")]
    assert m.bands[idx(m, "voyners-hall")] == 1


def test_r20_band_rule_1_distance_never_through_grass() -> None:
    """R20 band rule 1, objective Bedlam, South card: St. Giles is 2 spaces away across Moorfields (grass) but 3
    without; Austin Friars is 1 and Moorgate 2. St. Giles could make the best move (a burning cone in
    Cripplegate), yet Austin Friars and Moorgate are the two closest."""
    m = two()
    calm(m)
    for district in ("st-giles", "austin-friars", "moorgate"):
        put(m, district, bands=1)
    put(m, "cripplegate", cones=1)
    put(m, "mercers-hall", houses={"blue": 1})
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="bedlam")
    events = run_non_player(m)
    assert sorted(band_steps(events)) == [("austin-friars", "mercers-hall"), ("moorgate", "bassishaw")]
    assert m.bands[idx(m, "st-giles")] == 1


def test_p8_band_on_grass_is_one_step_beyond_its_nearest_non_grass_neighbour() -> None:
    """P8, objective Bedlam, South card: the band on Moorfields (grass, next to Bedlam) counts 1; Moorgate is
    2 and Aldersgate 3: Moorfields and Moorgate move, Aldersgate stays."""
    m = two()
    calm(m)
    for district in ("moorfields", "moorgate", "aldersgate"):
        put(m, district, bands=1)
    put(m, "bedlam", houses={"blue": 1})
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="bedlam")
    events = run_non_player(m)
    assert sorted(band_steps(events)) == [("moorfields", "bedlam"), ("moorgate", "bassishaw")]
    assert m.bands[idx(m, "aldersgate")] == 1


def test_r20_band_rule_2a_most_uncontained_cones_and_a_band_entering_fire_is_pinned() -> None:
    """R20 band rule 2a: from Austin Friars (East card) the band steps into Gresham College's burning cone
    rather than Drapers Hall's three houses, and stops there pinned on the cone (R11)."""
    m = two()
    calm(m)
    put(m, "austin-friars", bands=1)
    put(m, "gresham-college", cones=1)
    put(m, "drapers-hall", houses={"blue": 3})
    put(m, "royal-exchange", bands=1)
    put(m, "fenchurch", houses={"red": 1})
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    moved = {(e["from"], e["to"]): e["pinned"] for e in of(events, "bandMoved")}
    assert moved == {("austin-friars", "gresham-college"): True, ("royal-exchange", "fenchurch"): False}
    assert m.bands[idx(m, "gresham-college")] == 1 and not m.burning(idx(m, "gresham-college"))
    assert m.view(None)["districts"]["gresham-college"]["pinnedBands"] == 1


def test_r20_band_rule_2b_most_houses_a_contained_fire_counts_no_cones() -> None:
    """R20 band rules 2a/2b: from Royal Exchange (East card), Leadenhall's fire is contained (2 cones, 2 bands:
    no uncontained cone), so the houses decide: Fenchurch (2) over Leadenhall (1)."""
    m = two()
    calm(m)
    put(m, "royal-exchange", bands=1)
    put(m, "leadenhall", cones=2, bands=2, houses={"blue": 1})
    put(m, "fenchurch", houses={"blue": 1, "red": 1})
    put(m, "brewers-hall", bands=1)
    put(m, "moorgate", houses={"green": 1})
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    assert sorted(band_steps(events)) == [("brewers-hall", "moorgate"), ("royal-exchange", "fenchurch")]
    assert m.bands[idx(m, "leadenhall")] == 2


def test_r20_r21_band_rule_2c_the_conducting_seat_chooses_the_step() -> None:
    """R20 band rule 2c: from Royal Exchange (East card) Leadenhall and Fenchurch hold one house each and no
    fire: the conducting seat chooses (kind bandMove)."""
    m = two()
    calm(m)
    put(m, "royal-exchange", bands=1)
    put(m, "leadenhall", houses={"blue": 1})
    put(m, "fenchurch", houses={"red": 1})
    put(m, "brewers-hall", bands=1)
    put(m, "moorgate", houses={"green": 1})
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall", conductor=1)
    events = run_non_player(m)
    (tie,) = of(events, "tieToBreak")
    assert tie["kind"] == "bandMove" and tie["band"] == "royal-exchange" and tie["seat"] == 1
    assert set(tie["options"]) == {"leadenhall", "fenchurch"}
    events += break_tie(m, "leadenhall")
    assert sorted(band_steps(events)) == [("brewers-hall", "moorgate"), ("royal-exchange", "leadenhall")]
    assert m.to_act() == [0] and not m.system_due()


def test_r20_a_single_movable_band_moves_two_spaces() -> None:
    """R20: "only one Trained Band cone is able to move": it moves 2 spaces, each by rules 2a-2c. Austin Friars
    -> Drapers Hall (3 houses, over Gresham College's none) -> Aldgate (the only eastward step). The band on
    Leadenhall's cone is pinned and does not count."""
    m = two()
    calm(m)
    put(m, "austin-friars", bands=1)
    put(m, "drapers-hall", houses={"blue": 3})
    put(m, "leadenhall", cones=1, bands=1)
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    assert band_steps(events) == [("austin-friars", "drapers-hall"), ("drapers-hall", "aldgate")]
    assert m.bands[idx(m, "aldgate")] == 1 and m.bands[idx(m, "austin-friars")] == 0


def test_r20_a_single_band_pinned_after_its_first_space_stops() -> None:
    """R20/R11: the single movable band enters Gresham College's uncovered cone and is pinned: no second step."""
    m = two()
    calm(m)
    put(m, "austin-friars", bands=1)
    put(m, "gresham-college", cones=1)
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    assert band_steps(events) == [("austin-friars", "gresham-college")]
    assert of(events, "bandMoved")[0]["pinned"] is True
    assert m.bands[idx(m, "gresham-college")] == 1


def test_r20_r11_a_free_band_beside_a_pinned_one_moves_and_the_pinned_one_stays() -> None:
    """R20/R11: Leadenhall holds 1 cone and 2 bands: one band is pinned on the cone, the other is free. The free
    one is the only band able to move (East card), so it goes two spaces: Crutched Friars, then Minories (2
    houses, over East Smithfield's none); the fire in Leadenhall stays contained."""
    m = two()
    calm(m)
    put(m, "leadenhall", cones=1, bands=2)
    put(m, "minories", houses={"red": 2})
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    assert band_steps(events) == [("leadenhall", "crutched-friars"), ("crutched-friars", "minories")]
    assert m.bands[idx(m, "leadenhall")] == 1 and m.contained(idx(m, "leadenhall"))


def test_r20_no_band_able_to_move_none_moves() -> None:
    """R20: "If no Trained Band cone is able to move, then none will move": the only bands are pinned (Fenchurch)
    or have nowhere to go south but Pudding Lane (Candlewick Ward)."""
    m = two()
    calm(m)
    put(m, "fenchurch", cones=1, bands=1)
    put(m, "candlewick-ward", bands=1)
    bands = list(m.bands)
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="royal-exchange")
    events = run_non_player(m)
    assert of(events, "noBandMove") and not of(events, "bandMoved")
    assert m.bands == bands
    assert of(events, "nonPlayerTurnEnded") and m.to_act() == [1] and not m.system_due()


def test_r20_three_bands_at_the_same_distance_the_highest_priority_moves_go() -> None:
    """R20: three bands 1 space from Guild Hall (East card): Brewers Hall can step onto a burning cone
    (Moorgate, rule a), Coleman Street into 3 houses (Mercers Hall), Milk Street into 2 (Guild Hall): the first
    two move."""
    m = two()
    calm(m)
    for district in ("brewers-hall", "coleman-street", "milk-street"):
        put(m, district, bands=1)
    put(m, "moorgate", cones=1)
    put(m, "mercers-hall", houses={"blue": 3})
    put(m, "guild-hall", houses={"blue": 2})
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    assert not of(events, "tieToBreak")
    assert sorted(band_steps(events)) == [("brewers-hall", "moorgate"), ("coleman-street", "mercers-hall")]
    assert m.bands[idx(m, "milk-street")] == 1


def test_r20_r21_three_bands_still_tied_the_conducting_seat_chooses() -> None:
    """R20: three bands 1 space from Guild Hall whose best steps are equal (one house each, no fire): the
    conducting seat picks the two that move, one at a time (kind "band")."""
    m = two()
    calm(m)
    for district in ("brewers-hall", "coleman-street", "milk-street"):
        put(m, district, bands=1)
    for district in ("moorgate", "mercers-hall", "guild-hall"):
        put(m, district, houses={"green": 1})
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall")
    events = run_non_player(m)
    (tie,) = of(events, "tieToBreak")
    assert tie["kind"] == "band"
    assert set(tie["options"]) == {"brewers-hall", "coleman-street", "milk-street"}
    events = m.apply(0, {"type": "breakTie", "district": "milk-street"}) + run_non_player(m)
    (tie,) = of(events, "tieToBreak")
    assert tie["kind"] == "band" and set(tie["options"]) == {"brewers-hall", "coleman-street"}
    events = break_tie(m, "coleman-street")
    assert sorted(band_steps(events)) == [("coleman-street", "mercers-hall"), ("milk-street", "guild-hall")]
    assert m.bands[idx(m, "brewers-hall")] == 1


def test_r20_two_bands_tied_for_the_second_place_the_better_move_goes() -> None:
    """R20 rule 1 with the "same distance" sentence read for any tie at the boundary (the engine's reading):
    Austin Friars is closest to Bedlam (1); Moorgate and Cripplegate tie at 2 for the second place; Cripplegate
    can step south onto Sion College's burning cone, Moorgate only into empty Bassishaw: Cripplegate moves."""
    m = two()
    calm(m)
    for district in ("austin-friars", "moorgate", "cripplegate"):
        put(m, district, bands=1)
    put(m, "sion-college", cones=1)
    put(m, "mercers-hall", houses={"blue": 1})
    to_non_player(m, card="S", priority=BLUE_FIRST, objective="bedlam")
    events = run_non_player(m)
    assert not of(events, "tieToBreak")
    assert sorted(band_steps(events)) == [("austin-friars", "mercers-hall"), ("cripplegate", "sion-college")]
    assert m.bands[idx(m, "moorgate")] == 1


def test_r20_fire_first_then_bands_a_band_heads_for_the_new_fire() -> None:
    """R20: the fire phase comes before the band movement. The fire burns S. Mary (red, North card); then the only
    band, in Tallow Hall, steps north-east into S. Mary's uncovered cone (rule 2a) rather than into Cheapside's two
    houses, is pinned, and so does not take its second step."""
    m = two()
    put(m, "s-mary", houses={"red": 1})
    put(m, "cheapside", houses={"blue": 2})
    put(m, "tallow-hall", bands=1)
    to_non_player(m, card="N", priority=RED_WHITE_BLUE, objective="guild-hall")
    events = run_non_player(m)
    assert spreads(events) == [("pudding-lane", "s-mary")]
    assert band_steps(events) == [("tallow-hall", "s-mary")]
    assert of(events, "bandMoved")[0]["pinned"] is True
    assert m.contained(idx(m, "s-mary"))
    types = [e["type"] for e in events]
    assert types.index("fireSpread") < types.index("movementCardFlipped") < types.index("bandMoved")


# ----- the sequence of turns (R20, R22) --------------------------------------------------------------------

def test_r20_a_non_player_turn_follows_every_player_turn_conducted_by_that_player() -> None:
    """R20: after seat 0's turn comes a non-player turn conducted by seat 0, then seat 1's turn, then a non-player
    turn conducted by seat 1, then seat 0 again. While it runs no seat may act."""
    m = two()
    put(m, "aldgate", houses={"blue": 2})
    sequence: list[tuple[str, int]] = []
    while len(sequence) < 6:
        if m.system_due():
            assert m.to_act() == [] and m.legal_actions(0) == [] and m.legal_actions(1) == []
            with pytest.raises(NotYourTurn):
                m.apply(m.turn, {"type": "endActions"})
        else:
            with pytest.raises(NoSystemStep):
                m.run_system_step()
        for e in step(m):
            if e["type"] == "turnEnded":
                sequence.append(("player", e["seat"]))
            elif e["type"] == "nonPlayerTurnStarted":
                sequence.append(("nonPlayer", e["conductor"]))
                assert m.view(None)["nonPlayer"]["conductor"] == e["conductor"]
    assert sequence == [("player", 0), ("nonPlayer", 0), ("player", 1), ("nonPlayer", 1), ("player", 0),
                        ("nonPlayer", 0)]


def test_r20_stack_card_uncovered_by_the_flip_the_conductor_intensifies_at_the_end() -> None:
    """R20/R12: the non-player flip uncovers stack card C: the conducting seat (1) places 3 cones, after the
    band movement, then seat 0's turn starts."""
    m = two()
    put(m, "guild-hall", cones=4)
    put(m, "billingsgate", houses={"blue": 1})
    m.deck = ["#A", "N", "N", "#B", "N", "N", "#C"]
    to_non_player(m, card="E", priority=BLUE_FIRST, objective="guild-hall", conductor=1)
    events = m.run_system_step()
    assert [(e["stack"], e["seat"], e["byNonPlayer"]) for e in of(events, "stackRevealed")] == [("C", 1, True)]
    assert spreads(events) == [("pudding-lane", "billingsgate")]
    assert m.phase is Phase.NON_PLAYER  # the intensify waits for the end of the non-player turn
    assert m.deck == ["#A", "N", "N", "#B", "N", "N"]
    events = run_non_player(m)
    assert of(events, "nonPlayerTurnEnded") and of(events, "noBandMove")
    assert phase(m) is Phase.PLACE_CONES and m.to_act() == [1] and m.legal_actions(0) == []
    assert m.view(None)["stage"] == {"conesToPlace": 3, "reason": "nonPlayer"}
    assert {a["district"] for a in m.legal_actions(1)} == {"guild-hall", "billingsgate"}
    m.apply(1, {"type": "placeCone", "district": "guild-hall"})
    m.apply(1, {"type": "placeCone", "district": "guild-hall"})
    events = m.apply(1, {"type": "placeCone", "district": "billingsgate"})
    assert m.cones[idx(m, "guild-hall")] == 6 and m.cones[idx(m, "billingsgate")] == 3
    assert of(events, "turnStarted") == [{"type": "turnStarted", "seat": 0, "version": m.version}]
    assert phase(m) is Phase.FIRE and m.turns_left is None


def test_r20_r12_a_players_draw_uncovers_c_they_intensify_then_the_non_player_turn() -> None:
    """R12/R20: seat 0's draw uncovers stack card C: seat 0 places 3 cones (an ordinary intensify), and only then
    the non-player turn it conducts begins."""
    m = two(hand=["N"] * 5)
    put(m, "guild-hall", cones=4)
    put(m, "st-pauls", cones=5)
    m.deck = ["#A", "S", "E", "#B", "W", "N", "#C", "S"]
    restart(m)
    events: list[Event] = []
    while not of(events, "nonPlayerTurnStarted"):
        events += step(m)
    assert timeline(events) == [("draw", 0), ("stack", "C", 0, False), ("intensify", 0), ("turn", 0), ("npc", 0)]
    assert len(of(events, "conePlaced")) == 3 and m.turns_left is None
    assert m.deck == ["#A", "S", "E", "#B", "W", "N"]


def test_r22_player_draw_uncovers_b_the_exact_end_sequence() -> None:
    """R22/P9: seat 0's draw uncovers B: seat 0 intensifies; then a non-player turn (conducted by 0), seat 1's
    final turn (no draw), a non-player turn (conducted by 1), seat 0's final turn (no draw), and the game is
    over with no further non-player turn. Exactly the two cards under B are flipped; uncovering A does not
    intensify."""
    m = two(hand=["N"] * 5)
    m.hands[1] = ["E"] * 5
    put(m, "guild-hall", cones=4)
    put(m, "st-pauls", cones=5)
    m.deck = ["#A", "S", "E", "#B", "W"]
    restart(m)
    events = play_to_end(m)
    assert timeline(events) == [
        ("draw", 0), ("stack", "B", 0, False), ("final",), ("intensify", 0), ("turn", 0),
        ("npc", 0), ("flip", "E"),
        ("turn", 1),
        ("npc", 1), ("flip", "S"), ("stack", "A", 1, True),
        ("turn", 0),
        ("over",),
    ]
    assert len(of(events, "conePlaced")) == 3
    assert m.deck == [] and [len(h) for h in m.hands] == [4, 4]
    assert m.is_over() and not m.system_due() and m.to_act() == []
    with pytest.raises(NoSystemStep):
        m.run_system_step()
    assert m.result() is not None


def test_r22_non_player_flip_uncovers_b() -> None:
    """R22: the non-player flip (conducted by seat 0) uncovers B: seat 0 intensifies at the end of that
    non-player turn; nobody draws from then on; seat 1's final turn, a non-player turn, seat 0's final turn,
    and the game is over."""
    m = two(hand=["N"] * 5)
    m.hands[1] = ["E"] * 5
    put(m, "guild-hall", cones=4)
    put(m, "st-pauls", cones=5)
    m.deck = ["#A", "S", "E", "#B", "N", "W"]
    restart(m)
    events = play_to_end(m)
    assert timeline(events) == [
        ("draw", 0), ("turn", 0),
        ("npc", 0), ("flip", "N"), ("stack", "B", 0, True), ("final",), ("intensify", 0),
        ("turn", 1),
        ("npc", 1), ("flip", "E"),
        ("turn", 0),
        ("over",),
    ]
    assert [len(h) for h in m.hands] == [4, 4]
    assert m.deck == ["#A", "S"]


def _random_game(seed: int, options: dict[str, object]) -> tuple[GreatFireMatch, list[Event]]:
    rng = random.Random(seed)
    m = TITLE.new_match(seats=2, seed=seed, options=options)
    assert isinstance(m, GreatFireMatch)
    events: list[Event] = []
    for _ in range(5000):
        if m.is_over():
            break
        if m.system_due():
            events += m.run_system_step()
        else:
            (seat,) = m.to_act()
            events += m.apply(seat, rng.choice(m.legal_actions(seat)))
    assert m.is_over()
    return m, events


@pytest.mark.parametrize(("seed", "ties"), [(11, "conductor"), (12, "random"), (13, "conductor"), (14, "random")])
def test_r20_r22_a_full_random_game_has_24_player_turns_and_23_non_player_turns(seed: int, ties: str) -> None:
    """R20/R22 with the shipped counts (45 cards on A-E, P17): players draw the odd cards, so E and D are uncovered
    by non-player flips, C by the start player's draw and B by the second player's, A by the last non-player
    flip; 22 player turns and 21 non-player turns up to B, then non-player, the first player's final turn,
    non-player, the second player's final turn: 24 and 23 turns, alternating, 12 for each player."""
    m, events = _random_game(seed, {"npcTies": ties})
    turns = [("player", e["seat"]) if e["type"] == "turnEnded" else ("nonPlayer", e["conductor"])
             for e in events if e["type"] in ("turnEnded", "nonPlayerTurnStarted")]
    assert [kind for kind, _ in turns] == ["player", "nonPlayer"] * 23 + ["player"]
    for (_, played), (_, conducted) in zip(turns[::2], turns[1::2], strict=False):
        assert conducted == played
    assert [seat for _, seat in turns[::2]] == [m.start, 1 - m.start] * 12
    assert [(e["stack"], e["seat"], e["byNonPlayer"]) for e in of(events, "stackRevealed")] == [
        ("E", 1 - m.start, True), ("D", 1 - m.start, True), ("C", m.start, False), ("B", 1 - m.start, False),
        ("A", m.start, True)]
    assert len(of(events, "fireCardFlipped")) == 23
    assert len(of(events, "cardDrawn")) == 22
    assert len(of(events, "nonPlayerTurnStarted")) == 23
    assert len(of(events, "turnStarted")) == 24


def test_r22_component_ruling_both_players_take_the_same_number_of_turns_in_every_game() -> None:
    """R22 and the component ruling: B is always uncovered by the second player's draw, so over many seeds (both
    start seats, both tie modes, Hidden Colours or not) the two players take the same number of turns."""
    for seed in range(40):
        options: dict[str, object] = {"npcTies": ("conductor", "random")[seed % 2], "hiddenColours": seed % 3 == 0,
                                      "startSeat": seed % 2}
        m, events = _random_game(1000 + seed, options)
        turns = Counter(e["seat"] for e in of(events, "turnStarted"))
        assert turns[0] == turns[1] == 12, (seed, turns)
        (b,) = [e for e in of(events, "stackRevealed") if e["stack"] == "B"]
        assert b["seat"] == 1 - m.start and not b["byNonPlayer"]


def test_r20_the_first_player_turn_after_setup_announces_turn_started() -> None:
    """Every player turn opens with a turnStarted event, the first one too (the last pawn placed starts it)."""
    m = setup_match(seed=4, startSeat=1)
    events: list[Event] = []
    while m.phase in (Phase.PLACE_BANDS, Phase.PLACE_PAWNS):
        (seat,) = m.to_act()
        events = m.apply(seat, m.legal_actions(seat)[0])
    assert m.phase is Phase.FIRE and m.turn == 1
    assert [e for e in events if e["type"] == "turnStarted"] == [
        {"type": "turnStarted", "seat": 1, "version": m.version}]


def test_r8_no_move_at_the_very_first_turn_is_revealed_to_everyone() -> None:
    """R8 at the first turn after setup: the start player holds five South cards and only Pudding Lane burns (it
    has no southward link): the hand is revealed in an event everyone sees, then a discard is owed."""
    m = setup_match(seed=4, startSeat=0)
    while len([d for p in m.pawns for d in p if d < 0]) > 1:
        (seat,) = m.to_act()
        m.apply(seat, m.legal_actions(seat)[0])
    m.hands[0] = ["S"] * 5
    (seat,) = m.to_act()
    events = m.apply(seat, m.legal_actions(seat)[0])
    assert phase(m) is Phase.DISCARD and m.to_act() == [0]
    assert [e for e in events if e["type"] == "handRevealed"] == [
        {"type": "handRevealed", "seat": 0, "hand": ["S"] * 5, "version": m.version}]


# ----- views (R18, R20) ------------------------------------------------------------------------------------

def test_r18_r20_the_non_player_section_is_public_and_the_deck_orders_are_hidden() -> None:
    """R20/R18: the face-up fire card, colour priority card, movement card and the pending tie are the same in
    every view; the order of the colour priority and movement decks is in no view."""
    m = two()
    to_non_player(m, card="N", priority=BLUE_FIRST, objective="guild-hall", conductor=1)
    run_non_player(m)
    views = [m.view(seat) for seat in (None, 0, 1)]
    section = views[0]["nonPlayer"]
    assert all(v["nonPlayer"] == section for v in views)
    assert section["conductor"] == 1 and section["fireCard"] == "N" and section["priorityCard"] == BLUE_FIRST
    assert section["movementCard"] is None
    assert section["tie"]["kind"] == "target" and set(section["tie"]["options"]) == NORTH_OF_PUDDING_LANE
    assert views[0]["phase"] == "nonPlayerChoice" and views[0]["toAct"] == [1]
    shuffled = m.clone()
    shuffled.priority_deck.reverse()
    shuffled.movement_deck.reverse()
    assert shuffled.priority_deck != m.priority_deck and shuffled.movement_deck != m.movement_deck
    for seat in (None, 0, 1):
        assert shuffled.view(seat) == m.view(seat)
    break_tie(m, "s-mary")
    section = m.view(None)["nonPlayer"]
    assert section["movementCard"] == "guild-hall" and section["tie"] is None
    assert section["fireCard"] == "N" and section["priorityCard"] == BLUE_FIRST
    assert all(m.view(seat)["nonPlayer"] == section for seat in (0, 1))
