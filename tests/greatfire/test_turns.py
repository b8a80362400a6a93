"""Draw, intensify (R12), the final rounds (R13) and More Destruction."""

from __future__ import annotations

import pytest

from firebreak.domain.errors import IllegalAction
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import Phase
from tests.greatfire.positions import blank, idx, put, restart, to_actions


def finish_fire_phase(m: GreatFireMatch) -> None:
    """Play the first legal fire decisions until the actions phase opens."""
    while m.phase in (Phase.FIRE, Phase.DISCARD, Phase.PLACE_CONES) and not m.is_over():
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        m.apply(seat, next((a for a in legal if a["type"] == "endFire"), legal[0]))


def play_turn(m: GreatFireMatch) -> int:
    """Play one whole turn with the first legal choices and ending actions at once; return its seat."""
    seat = m.turn
    finish_fire_phase(m)
    m.apply(seat, {"type": "endActions"})
    while m.phase is Phase.PLACE_CONES:
        m.apply(seat, m.legal_actions(seat)[0])
    return seat


def test_draw_back_to_five_and_the_card_is_private() -> None:
    m = blank(hand=["N", "E", "S", "W", "N"])
    m.deck = ["#A", "S", "E", "W"]
    finish_fire_phase(m)
    events = m.apply(0, {"type": "endActions"})
    assert len(m.hands[0]) == 5 and m.hands[0][-1] == "W"
    drawn = [e for e in events if e["type"] == "cardDrawn"]
    seen = [e for e in events if e["type"] == "cardSeen"]
    assert drawn and "card" not in drawn[0]
    assert seen == [{"type": "cardSeen", "seat": 0, "card": "W", "audience": [0], "version": m.version}]
    assert m.turn == 1 and m.phase is Phase.FIRE


def burning_setup(m: GreatFireMatch) -> None:
    """Guild Hall (size 4) burning with 4 cones, Cheapside (size 2) with 4, S. Bennet (2) contained."""
    put(m, "guild-hall", cones=4, houses={})
    put(m, "cheapside", cones=4, houses={})
    put(m, "s-bennet", cones=1, bands=1)


def test_r12_stack_card_revealed_intensifies_three_cones_within_size_plus_two() -> None:
    m = blank(hand=["N", "N", "N", "N", "N"])
    burning_setup(m)
    m.deck = ["#A", "S", "#B", "E"]
    to_actions(m)
    events = m.apply(0, {"type": "endActions"})
    assert {"type": "stackRevealed", "seat": 0, "stack": "B", "byNonPlayer": False, "version": m.version} in events
    assert m.phase is Phase.PLACE_CONES and m.to_act() == [0]
    legal = {a["district"] for a in m.legal_actions(0)}
    assert "guild-hall" in legal            # 4 cones, size 4: up to 6
    assert "cheapside" not in legal          # 4 cones, size 2: already at size + 2
    assert "s-bennet" not in legal           # contained, not burning
    assert "pudding-lane" not in legal
    with pytest.raises(IllegalAction):
        m.apply(0, {"type": "placeCone", "district": "cheapside"})
    supply = m.supply
    m.apply(0, {"type": "placeCone", "district": "guild-hall"})
    m.apply(0, {"type": "placeCone", "district": "guild-hall"})
    assert m.cones[idx(m, "guild-hall")] == 6
    assert m.supply == supply - 2
    # Guild Hall is full now; the third cone goes wherever else fits, if anywhere.
    if m.phase is Phase.PLACE_CONES:
        assert "guild-hall" not in {a["district"] for a in m.legal_actions(0)}
        m.apply(0, m.legal_actions(0)[0])
    assert m.deck == ["#A", "S"]
    assert m.turn == 1 and m.phase is Phase.FIRE


def test_r12_cones_that_cannot_be_placed_are_lost() -> None:
    m = blank(hand=["N", "N", "N", "N", "N"])
    put(m, "guild-hall", cones=5, houses={})
    m.deck = ["#A", "S", "#B", "E"]
    to_actions(m)
    events = m.apply(0, {"type": "endActions"})
    assert [a["district"] for a in m.legal_actions(0)] == ["guild-hall"]  # 5 cones, size 4: one more fits
    while m.phase is Phase.PLACE_CONES:
        events += m.apply(0, m.legal_actions(0)[0])
    lost = [e for e in events if e["type"] == "conesLost"]
    placed = [e for e in events if e["type"] == "conePlaced"]
    assert len(placed) == 1 and [e["cones"] for e in lost] == [2]


@pytest.mark.parametrize(("more", "rounds"), [(False, 1), (True, 2)])
def test_r13_after_the_last_card_everyone_plays_once_more_from_the_next_seat(more: bool, rounds: int) -> None:
    m = blank(seats=3, hand=["N", "N", "N", "N", "N"], moreDestruction=more)
    m.hands[1] = ["E"] * 5
    m.hands[2] = ["W"] * 5
    m.deck = ["#A", "S"]
    restart(m)
    drawer = play_turn(m)
    assert drawer == 0
    assert m.turns_left == 3 * rounds - 1 and m.view(None)["turnsLeft"] == 3 * rounds - 1
    assert m.deck == []
    order = []
    while not m.is_over():
        order.append(play_turn(m))
    assert order == [1, 2, 0] * rounds
    assert [len(h) for h in m.hands] == [5 - rounds] * 3
    assert m.to_act() == [] and m.legal_actions(0) == []
    assert m.result() is not None


def test_r13_no_draw_in_the_final_round() -> None:
    m = blank(seats=3, hand=["N"] * 5)
    m.deck = []
    m.turns_left = 2
    restart(m)
    play_turn(m)
    assert len(m.hands[0]) == 4 and m.turns_left == 1
