"""Hidden information: hands, the deck order, covered and face-down cards stay out of other seats' views (L18)."""

from __future__ import annotations

import json
import random

from firebreak.domain.events import visible_to
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.state import Phase
from tests.london.positions import at, build, cid, lift, new, play, set_hand


def _text(view: object) -> str:
    return json.dumps(view)


def test_other_hands_and_the_deck_are_counts_only() -> None:
    m = new(3)
    v = m.view(1)
    assert v["you"]["hand"] == sorted(m.hands[1])
    for row in v["players"]:
        assert "hand" not in row and row["handSize"] == 6
    text = _text(v)
    for seat in (0, 2):
        assert not any(c in text for c in m.hands[seat])
    assert not any(c in text for c in m.deck)
    assert v["deck"]["count"] == len(m.deck) and sum(v["deck"]["byDeck"].values()) == len(m.deck)
    assert "you" not in m.view(None) and not any(c in _text(m.view(None)) for h in m.hands for c in h)


def test_l18_covered_and_face_down_cards_are_hidden_from_others_until_the_end() -> None:
    m = new()
    build(m, 0, [cid("Guildhall"), cid("Vintners")], [cid("Market")], down=(cid("Vintners"),))
    m._legal = None
    other = m.view(1)["players"][0]["stacks"]
    assert other == [[{"hidden": True, "covered": True}, {"hidden": True, "faceUp": False}],
                     [{"card": cid("Market"), "faceUp": True}]]
    mine = m.view(0)["players"][0]["stacks"]
    assert mine[0] == [{"card": cid("Guildhall"), "faceUp": True}, {"card": cid("Vintners"), "faceUp": False}]
    m.phase = Phase.OVER
    assert m.view(1)["players"][0]["stacks"] == mine and "result" in m.view(1)


def test_l18_a_card_taken_from_the_board_is_known_to_all() -> None:
    m = new()
    lift(m, cid("Hospital"))
    m.board_top[0] = cid("Hospital")
    m._legal = None
    events = play(m, {"type": "drawBoard", "card": cid("Hospital")})
    assert m.view(1)["players"][0]["knownHand"] == [cid("Hospital")]
    assert events[0] == {"type": "drew", "seat": 0, "from": "board", "card": cid("Hospital"), "count": 1,
                         "version": 1}


def test_a_deck_draw_is_private_with_a_public_twin() -> None:
    m = new()
    events = play(m, {"type": "drawDeck"})
    card = m.hands[0][-1]
    assert [e for e in visible_to(events, 1) if card in _text(e)] == []
    assert any(e.get("card") == card for e in visible_to(events, 0))
    assert any(e["type"] == "drew" and e["count"] == 1 for e in visible_to(events, None))


def test_staging_shows_others_only_the_action() -> None:
    """What a seat is staging (the card, its discard) is its own; others see the step "develop"."""
    m = new()
    set_hand(m, 0, cid("Vintners"), cid("Brewery"))
    at(m)
    play(m, {"type": "develop"}, {"type": "play", "card": cid("Vintners")})
    assert m.view(1)["phase"] == "develop" and cid("Vintners") not in _text(m.view(1))
    assert m.view(0)["you"]["pending"] == {"for": "play", "card": cid("Vintners")}


def test_resample_keeps_the_view_and_redraws_the_rest() -> None:
    """The resampled copy shows the seat exactly its view; hidden cards move; the copy depends on the view only."""
    m = new(3, seed=4)
    rng = random.Random(2)
    for _ in range(120):
        seat = m.turn
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    moved = False
    for seat in range(3):
        copy = m.resample(seat, random.Random(9))
        assert copy.view(seat) == m.view(seat)
        assert copy.hands[seat] == m.hands[seat]
        moved |= copy.deck != m.deck
        again = copy.resample(seat, random.Random(9))
        assert again.to_dict() == copy.resample(seat, random.Random(9)).to_dict()
        assert m.resample(seat, random.Random(9)).to_dict() == again.to_dict()
        assert isinstance(copy, LondonMatch)
    assert moved
