"""The rulings where the rulebook is silent (docs/london-rulings.md), each by its number."""

from __future__ import annotations

import dataclasses
from typing import Any

from firebreak.domain.london.data import Catalogue
from firebreak.domain.london.state import LOAN_TOKENS, Phase
from tests.london.positions import at, bid, build, cid, give, new, own, play, set_hand, show

PAUPERS = cid("Paupers")


def _without_version(m: Any) -> dict[str, Any]:
    return {k: v for k, v in m.to_dict().items() if k != "version"}


def test_l1_an_action_card_can_be_the_discard_of_its_colour() -> None:
    m = new()
    set_hand(m, 0, cid("Vintners"), cid("Huguenots"))
    at(m)
    play(m, {"type": "develop"}, {"type": "play", "card": cid("Vintners")})
    assert {"type": "discard", "card": cid("Huguenots")} in m.legal_actions(0)


def test_l3_the_full_board_drops_its_bottom_row_and_moves_the_top_row_down() -> None:
    m = new()
    top = [cid("Market"), cid("Market", 2), cid("Sheriff")]
    bottom = [cid("Vestry"), None, cid("Vestry", 2)]
    for c in top + bottom:
        if c is not None:
            give(m, 1, c)
            m.hands[1].remove(c)
    m.board_top, m.board_bottom = list(top), list(bottom)
    set_hand(m, 0, *m.hands[0], cid("Library"), cid("Library", 2), cid("School"), cid("Gardens"))
    at(m, Phase.HAND_LIMIT)
    events = play(m, {"type": "discard", "card": cid("Library")})
    assert m.board_bottom == top and m.board_top == [None, None, None]
    assert m.discard == [cid("Vestry"), cid("Library"), cid("Vestry", 2)]
    assert [e["type"] for e in events][:2] == ["discarded", "boardCleared"]
    assert m.turn == 1  # back to 9 cards


def test_l4_nothing_to_draw_skips_the_draw() -> None:
    m = new()
    m.deck = []
    m._legal = None
    assert m.legal_actions(0)[-1] == {"type": "skipDraw"}
    play(m, {"type": "skipDraw"})
    assert m.phase is Phase.ACTION


def test_l5_loans_at_money_decisions_only_and_twelve_at_most() -> None:
    m = new()
    assert {"type": "takeLoan"} in m.legal_actions(0)  # start
    play(m, {"type": "takeLoan"})
    assert (m.money[0], m.loans[0], m.phase) == (15, 1, Phase.START)
    play(m, {"type": "drawDeck"})
    assert {"type": "takeLoan"} in m.legal_actions(0)  # action choice
    play(m, {"type": "drawThree"})
    assert m.phase is Phase.DRAW and {"type": "takeLoan"} not in m.legal_actions(0)
    m.loans = [6, LOAN_TOKENS - 6]
    at(m, money=[5, 5])
    assert {"type": "takeLoan"} not in m.legal_actions(0)
    show(m, bid("Hammersmith"), bid("Lewisham"), bid("Camden"))
    m._legal = None
    assert {"type": "buyLand", "borough": bid("Hammersmith")} not in m.legal_actions(0)  # £15, no loan left


def test_l6_beggars_cannot_be_built_nor_discarded_to_build_except_by_an_ongoing_effect() -> None:
    m = new()
    set_hand(m, 0, PAUPERS, cid("Vintners"), cid("Sheriff"))
    at(m)
    assert {"type": "develop"} not in m.legal_actions(0)  # no pair of one colour, beggars never count
    build(m, 0, [cid("Workhouse")])
    m._legal = None
    play(m, {"type": "develop"})
    assert {"type": "play", "card": PAUPERS} not in m.legal_actions(0)
    play(m, {"type": "play", "card": cid("Sheriff")})
    assert m.legal_actions(0)[0] == {"type": "discard", "card": PAUPERS}
    play(m, {"type": "discard", "card": PAUPERS}, {"type": "newStack"}, {"type": "pay"})
    assert PAUPERS in m.board_top


def test_l7_develop_needs_a_card_and_cancelling_a_staged_card_changes_nothing() -> None:
    m = new()
    build(m, 0, [cid("Market")])
    set_hand(m, 0, cid("Vintners"), cid("Brewery"), cid("Library"))
    at(m)
    before = _without_version(m)
    play(m, {"type": "develop"})
    assert {"type": "endDevelop"} not in m.legal_actions(0)
    play(m, {"type": "cancel"})
    assert _without_version(m) == before
    play(m, {"type": "develop"})
    staged = _without_version(m)
    for steps in (1, 2, 3):
        actions = [{"type": "play", "card": cid("Vintners")}, {"type": "discard", "card": cid("Brewery")},
                   {"type": "placeOn", "stack": 0}][:steps]
        play(m, *actions)
        assert m.phase is (Phase.DISCARD_FOR, Phase.PLACE, Phase.PAY)[steps - 1]
        play(m, {"type": "cancel"})
        assert _without_version(m) == staged
    play(m, {"type": "play", "card": cid("Vintners")}, {"type": "discard", "card": cid("Brewery")},
         {"type": "placeOn", "stack": 0}, {"type": "takeLoan"}, {"type": "cancel"})
    assert m.loans[0] == 1 and m.stacks[0] == [[cid("Market")]]  # the loan stays taken


def test_l8_a_free_borough_is_bought_at_once_and_the_display_shrinks_when_the_deck_is_out() -> None:
    m = new()
    lewisham = m.cat.boroughs[bid("Lewisham")]
    boroughs = {**m.cat.boroughs, lewisham.id: dataclasses.replace(lewisham, cost=3)}
    m.cat = Catalogue(m.cat.cards, boroughs)
    build(m, 0, [cid("Brickworks")], [cid("Magistrates' Court")])
    show(m, bid("Lewisham"), bid("City"))
    m.borough_deck = []
    at(m, money=[0, 5])
    play(m, {"type": "buyLand", "borough": bid("Lewisham")})
    assert m.boroughs[0] == [bid("Lewisham")] and m.money[0] == 0 and m.borough_display == [bid("City")]


def test_l11_the_hospital_flips_instead_only_while_face_up() -> None:
    m = new()
    build(m, 0, [cid("Hospital")], [cid("Vintners")], [cid("Brewery")])
    set_hand(m, 0)
    at(m)
    play(m, {"type": "run"}, {"type": "activate", "card": cid("Vintners")}, {"type": "flip", "card": cid("Hospital")})
    assert m.face_up_tops(0) == [cid("Vintners"), cid("Brewery")]
    play(m, {"type": "activate", "card": cid("Brewery")})
    assert m.phase is Phase.RUN and cid("Brewery") in m.face_down[0]  # no Hospital face up: no choice


def test_l12_the_top_boroughs_run_effect_applies_once_even_if_not_chosen() -> None:
    m = new()
    own(m, 0, bid("Wandsworth"), bid("City"))
    set_hand(m, 0)
    at(m, money=[0, 5])
    play(m, {"type": "run"}, {"type": "runBorough"})
    assert m.money[0] == 3 and {"type": "runBorough"} not in m.legal_actions(0)
    play(m, {"type": "endRun"})
    assert m.money[0] == 3 and m.poverty[0] == 0  # City's £3 once; Wandsworth is covered
    m2 = new()
    own(m2, 0, bid("Wandsworth"))
    set_hand(m2, 0)
    at(m2)
    play(m2, {"type": "run"}, {"type": "endRun"})
    assert m2.poverty[0] == 2


def test_l13_draws_from_an_activation_come_after_the_flip() -> None:
    m = new()
    build(m, 0, [cid("Coffee House")])
    set_hand(m, 0)
    at(m)
    play(m, {"type": "run"}, {"type": "activate", "card": cid("Coffee House")})
    assert cid("Coffee House") in m.face_down[0] and m.phase is Phase.DRAW
    play(m, {"type": "drawDeck"})
    assert m.phase is Phase.RUN and len(m.hands[0]) == 1


def test_l14_any_card_pays_an_activation() -> None:
    m = new()
    build(m, 0, [cid("West India Docks")])
    set_hand(m, 0, cid("Huguenots"), PAUPERS)
    at(m)
    play(m, {"type": "run"}, {"type": "activate", "card": cid("West India Docks")})
    assert m.legal_actions(0) == [{"type": "discard", "card": cid("Huguenots")}, {"type": "discard", "card": PAUPERS},
                                  {"type": "cancel"}]


def test_l15_loans_are_repaid_at_the_start_only_one_by_one() -> None:
    m = new()
    at(m, Phase.START, money=[31, 5], loans=[3, 0])
    assert m.legal_actions(0)[0] == {"type": "repayLoan"}
    play(m, {"type": "repayLoan"}, {"type": "repayLoan"})
    assert (m.money[0], m.loans[0]) == (1, 1) and {"type": "repayLoan"} not in m.legal_actions(0)
    play(m, {"type": "drawDeck"})
    assert {"type": "repayLoan"} not in m.legal_actions(0)


def test_l16_the_hand_limit_is_checked_at_the_end_of_the_turn() -> None:
    m = new()
    build(m, 0, [cid("Gentlemen's Club")])
    give(m, 0, cid("Market"))
    at(m)
    play(m, {"type": "drawThree"}, {"type": "drawDeck"}, {"type": "drawDeck"})
    assert len(m.hands[0]) == 9 and m.phase is Phase.DRAW  # no limit while the turn goes on
    play(m, {"type": "drawDeck"})
    assert m.turn == 1  # 10 cards: the Club raises the limit to 10
    play(m, {"type": "drawDeck"}, {"type": "drawThree"}, *[{"type": "drawDeck"}] * 3)
    assert m.phase is Phase.HAND_LIMIT and len(m.hands[1]) == 10
    play(m, {"type": "discard", "card": m.hands[1][0]})
    assert m.turn == 0


def test_l19_a_cost_is_fixed_when_staged_even_covering_the_discount() -> None:
    m = new()
    build(m, 0, [cid("Alderman")])
    set_hand(m, 0, cid("Hospital"), cid("Library"))
    at(m)
    play(m, {"type": "develop"}, {"type": "play", "card": cid("Hospital")}, {"type": "discard", "card": cid("Library")},
         {"type": "placeOn", "stack": 0})
    assert m.pending is not None and m.pending["amount"] == 1
    play(m, {"type": "pay"})
    assert m.money[0] == 4 and m.stacks[0] == [[cid("Alderman"), cid("Hospital")]]


def test_l1_an_action_card_with_a_cost_is_paid_then_leaves_the_game() -> None:
    m = new()
    set_hand(m, 0, cid("Great Exhibition"))
    at(m, money=[1, 5])
    play(m, {"type": "develop"}, {"type": "play", "card": cid("Great Exhibition")})
    assert m.legal_actions(0) == [{"type": "takeLoan"}, {"type": "cancel"}]
    events = play(m, {"type": "takeLoan"}, {"type": "pay"})
    assert (m.money[0], m.loans[0], m.prestige_play[0]) == (9, 1, 3)
    assert m.discard == [cid("Great Exhibition")] and m.stacks[0] == [] and m.phase is Phase.DEVELOP
    assert [e["type"] for e in events] == ["loanTaken", "actionPlayed", "gained"]
    assert m.legal_actions(0)[-1] == {"type": "endDevelop"}
