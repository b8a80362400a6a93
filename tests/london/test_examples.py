"""Every worked example of the rulebook, as a position, the actions and the outcome."""

from __future__ import annotations

from firebreak.domain.london.state import Phase
from tests.london.positions import at, bid, build, cid, give, new, own, play, set_hand, show

VAUXHALL, HOSPITAL, GARDENS = cid("Vauxhall Gardens"), cid("Hospital"), cid("Gardens")
HUGUENOTS, VINTNERS = cid("Huguenots"), cid("Vintners")
DOCKS, TOWN_HOUSES, STEAMBOATS, PAUPERS = cid("West India Docks"), cid("Town Houses"), cid("Steamboats"), cid(
    "Paupers")


def _develop_example():
    m = new()
    set_hand(m, 0, VAUXHALL, HOSPITAL, GARDENS, HUGUENOTS, VINTNERS)
    return at(m, money=[5, 5])


def test_develop_example_discard_vauxhall_gardens_to_build_the_hospital_for_2() -> None:
    m = _develop_example()
    play(m, {"type": "develop"}, {"type": "play", "card": HOSPITAL})
    assert {a["card"] for a in m.legal_actions(0) if a["type"] == "discard"} == {VAUXHALL, GARDENS}
    play(m, {"type": "discard", "card": VAUXHALL})
    assert m.phase is Phase.PAY and m.pending is not None and m.pending["amount"] == 2
    play(m, {"type": "pay"})
    assert m.money[0] == 3 and m.stacks[0] == [[HOSPITAL]] and m.board_top[0] == VAUXHALL
    assert sorted(m.hands[0]) == sorted([GARDENS, HUGUENOTS, VINTNERS])


def test_develop_example_discard_the_hospital_to_build_gardens_saving_money() -> None:
    m = _develop_example()
    play(m, {"type": "develop"}, {"type": "play", "card": GARDENS}, {"type": "discard", "card": HOSPITAL})
    assert m.phase is Phase.DEVELOP and m.money[0] == 5 and m.stacks[0] == [[GARDENS]]
    assert m.board_top[0] == HOSPITAL


def test_develop_example_discard_huguenots_to_play_vintners() -> None:
    m = _develop_example()
    play(m, {"type": "develop"}, {"type": "play", "card": VINTNERS})
    assert [a["card"] for a in m.legal_actions(0) if a["type"] == "discard"] == [HUGUENOTS]
    play(m, {"type": "discard", "card": HUGUENOTS}, {"type": "pay"})
    assert m.stacks[0] == [[VINTNERS]] and m.board_top[0] == HUGUENOTS


def test_develop_example_play_huguenots_keep_vintners_and_draw_two() -> None:
    """L1: the action card needs no discard, draws 2, then leaves the game."""
    m = _develop_example()
    play(m, {"type": "develop"}, {"type": "play", "card": HUGUENOTS})
    assert m.phase is Phase.DRAW and m.draws_left == 2 and VINTNERS in m.hands[0]
    play(m, {"type": "drawDeck"}, {"type": "drawDeck"})
    assert m.phase is Phase.DEVELOP and len(m.hands[0]) == 6 and HUGUENOTS in m.discard
    assert m.stacks[0] == [] and {"type": "endDevelop"} in m.legal_actions(0)


def _land_example(money: int = 6):
    m = new()
    show(m, bid("Hammersmith"), bid("Lewisham"), bid("Southwark & Bermondsey"))
    own(m, 0, bid("Wandsworth"))
    return at(m, money=[money, 5], poverty=[5, 0])


def test_land_example_hammersmith_needs_a_loan() -> None:
    m = _land_example()
    play(m, {"type": "buyLand", "borough": bid("Hammersmith")})
    assert m.legal_actions(0) == [{"type": "takeLoan"}, {"type": "cancel"}]
    play(m, {"type": "cancel"})
    assert m.phase is Phase.ACTION and m.boroughs[0] == [bid("Wandsworth")] and m.money[0] == 6


def test_land_example_lewisham_rids_poverty_and_covers_the_old_borough() -> None:
    m = _land_example()
    play(m, {"type": "buyLand", "borough": bid("Lewisham")}, {"type": "pay"})
    assert m.money[0] == 2 and m.poverty[0] == 1 and m.prestige_land[0] == 1
    assert m.boroughs[0] == [bid("Wandsworth"), bid("Lewisham")] and m.top_borough(0) == m.borough(bid("Lewisham"))
    assert m.phase is Phase.DRAW and m.draws_left == 1
    assert bid("Lewisham") not in m.borough_display and len(m.borough_display) == 3
    play(m, {"type": "drawDeck"})
    assert m.turn == 1


def test_land_example_southwark_and_bermondsey_effects() -> None:
    m = _land_example(money=5)
    play(m, {"type": "buyLand", "borough": bid("Southwark & Bermondsey")}, {"type": "pay"})
    assert m.money[0] == 0 and m.poverty[0] == 2 and m.prestige_land[0] == 1 and m.draws_left == 3


def _run_example():
    m = new()
    build(m, 0, [HOSPITAL], [DOCKS], [TOWN_HOUSES], [STEAMBOATS])
    own(m, 0, bid("Lewisham"), bid("Greenwich"), bid("Southwark & Bermondsey"))
    set_hand(m, 0, PAUPERS, cid("Market"))
    return at(m, money=[3, 5], poverty=[4, 0])


def test_running_example_part_1() -> None:
    """L9 (per blue card), L10 (per river borough), L11 (the Hospital flips instead), L12 (the borough's run)."""
    m = _run_example()
    play(m, {"type": "run"}, {"type": "activate", "card": DOCKS})
    assert m.phase is Phase.ACTIVATION_DISCARD
    play(m, {"type": "discard", "card": PAUPERS})
    assert m.money[0] == 10 and m.phase is Phase.FLIP  # the Hospital could flip instead; the Docks flip
    play(m, {"type": "flip", "card": DOCKS})
    play(m, {"type": "activate", "card": TOWN_HOUSES})
    assert m.prestige_play[0] == 2  # one per blue card: Town Houses and the Hospital (L9)
    assert m.legal_actions(0) == [{"type": "flip", "card": TOWN_HOUSES}, {"type": "flip", "card": HOSPITAL}]
    play(m, {"type": "flip", "card": HOSPITAL})
    assert TOWN_HOUSES in m.face_up_tops(0)
    assert {"type": "activate", "card": TOWN_HOUSES} not in m.legal_actions(0)
    play(m, {"type": "activate", "card": STEAMBOATS})  # two river boroughs: £4, flips at once
    assert m.money[0] == 14 and STEAMBOATS in m.face_down[0] and m.phase is Phase.RUN
    events = play(m, {"type": "endRun"})
    gained = [e for e in events if e["type"] == "gained"]
    assert gained[0]["source"] == bid("Southwark & Bermondsey") and gained[0]["povertyGained"] == 1
    assert m.poverty[0] == 4 + 1 + 4 + 0 + 1  # + the borough, 4 stacks, no loan, 1 card in hand


def test_running_example_part_2_poverty_and_no_repaying_until_the_next_turn() -> None:
    m = new()
    build(m, 0, [cid("Guildhall")], [cid("Observatory")], [cid("Alderman")], [cid("Brickworks")])
    own(m, 0, bid("Lewisham"))
    set_hand(m, 0, cid("Market"), cid("Market", 2))
    at(m, money=[30, 5], poverty=[4, 0], loans=[1, 0])
    play(m, {"type": "run"})
    assert {"type": "repayLoan"} not in m.legal_actions(0)
    play(m, {"type": "endRun"})
    assert m.poverty[0] == 11 and m.turn == 1
    play(m, {"type": "skipDraw"} if not m.deck else {"type": "drawDeck"}, {"type": "drawThree"},
         *[{"type": "drawDeck"}] * 3)
    while m.turn == 1:
        play(m, m.legal_actions(1)[-1])
    assert m.turn == 0 and {"type": "repayLoan"} in m.legal_actions(0)
    play(m, {"type": "repayLoan"})
    assert m.loans[0] == 0 and m.money[0] == 15


def test_give_helper_keeps_every_card_once() -> None:
    m = _run_example()
    give(m, 1, VINTNERS)
    from tests.london.positions import all_cards
    assert sorted(all_cards(m)) == sorted(m.cat.cards)
