"""The belief over the rivals' hands kept from every fire move (bots/hands.py): exact bookkeeping of the hand's
compositions, what a choice tells, and that it reads the seat's views alone."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from bench.hand_information import measure
from firebreak.domain import titles
from firebreak.domain.greatfire.bots.greedy import greedy
from firebreak.domain.greatfire.bots.hands import (
    BETA,
    SLIP,
    HandBelief,
    HandWorlds,
    RivalHand,
    choice_likelihood,
    composition,
    dealt,
    hands_of,
)
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.rng import Rng
from tests.greatfire.positions import scrambled

TITLE = titles.get("greatfire")
POOL = (10, 10, 10, 10)


def test_a_hand_of_five_has_56_compositions_and_the_deal_is_hypergeometric() -> None:
    assert len(hands_of(5)) == 56
    deal = dealt(5, (1, 1, 1, 2))
    assert sum(deal.values()) == pytest.approx(1.0)
    assert deal[(1, 1, 1, 2)] == pytest.approx(1.0)  # five of the pool's five cards
    two = dealt(2, (2, 2, 0, 0))
    assert two[(1, 1, 0, 0)] == pytest.approx(4 / 6) and two[(2, 0, 0, 0)] == pytest.approx(1 / 6)


def test_playing_the_worse_card_tells_the_better_one_was_likely_not_held() -> None:
    """W played while E rates 1 VP better: a hand with E is BETA-softmax unlikely to play W; N and S give no move."""
    likelihood = choice_likelihood("W", {"E": 2.0, "W": 1.0})
    weak = math.exp(-BETA) / (1 + math.exp(-BETA))
    assert likelihood((2, 0, 2, 1)) == pytest.approx(1.0)  # W the only card with a move
    assert likelihood((1, 1, 1, 2)) == pytest.approx((1 - SLIP) * weak + SLIP / 2)
    assert likelihood((1, 1, 3, 0)) == 0.0  # a hand without W cannot have played it


def test_the_bookkeeping_keeps_a_distribution_over_hands_of_the_right_size() -> None:
    hand = RivalHand(5, POOL)
    hand.weigh(choice_likelihood("W", {"E": 2.0, "W": 1.0}), POOL)
    hand.remove("W", POOL)
    assert hand.size == 4 and all(sum(h) == 4 for h in hand.dist)
    assert sum(hand.dist.values()) == pytest.approx(1.0)
    with_e = sum(p for h, p in hand.dist.items() if h[1])
    at_random = sum(p for h, p in dealt(4, POOL).items() if h[1])  # about 0.70
    assert with_e < at_random / 3  # E far less likely than in four cards dealt at random
    hand.draw(POOL)
    assert hand.size == 5 and sum(hand.dist.values()) == pytest.approx(1.0)
    hand.lose()
    assert hand.size == 4 and sum(hand.dist.values()) == pytest.approx(1.0)


def _view(version: int, phase: str, turn: int, sizes: list[int], discard: dict[str, int]) -> dict[str, Any]:
    """The fields of a seat-0 view the belief reads."""
    return {"version": version, "phase": phase, "turn": turn, "stage": {"card": None, "source": None},
            "players": [{"handSize": n} for n in sizes], "discardCards": discard,
            "you": {"hand": ["N", "N", "E", "S", "W"]}}


def test_a_rival_in_its_discard_phase_holds_no_card_that_gives_a_move() -> None:
    """R8: a rival whose fire phase opens as a discard phase holds only cards that give no move (here N and E give
    one); the card it discards (W, the public pile grows by it) leaves its hand."""
    belief = HandBelief(0, rate=lambda view, viewer, rival: {"N": 1.0, "E": 0.5})
    none = dict.fromkeys("NESW", 0)
    belief.observe(_view(1, "actions", 0, [5, 5, 5, 5], none))
    belief.observe(_view(2, "discard", 1, [5, 5, 5, 5], none))
    belief.observe(_view(3, "placeCones", 1, [5, 4, 5, 5], {**none, "W": 1}))
    hand = belief.hand(1)
    assert belief.rivals[1].size == 4 and sum(hand.values()) == pytest.approx(1.0)
    assert all(h[0] == 0 and h[1] == 0 for h in hand)  # neither N nor E held
    assert sum(p for h, p in belief.hand(2).items() if h[0] or h[1]) > 0.9  # the other rivals as dealt


def _followed(seed: int) -> tuple[GreatFireMatch, HandBelief, int]:
    """A four-greedy game followed by seat 0's belief until seat 0's fire decision after step 120."""
    m = TITLE.new_match(seats=4, seed=seed)
    assert isinstance(m, GreatFireMatch)
    belief = HandBelief(0)
    step = 0
    while True:
        view = m.view(0)
        belief.observe(view)
        if m.system_due():
            m.run_system_step()
            continue
        (seat,) = m.to_act()
        if seat == 0 and step > 120 and m.phase.value == "fire" and m.card is None:
            return m, belief, step
        for r, hand in belief.rivals.items():
            assert hand.size == len(m.hands[r])  # the counts follow the views
            assert hand.dist.get(composition(m.hands[r]), 0.0) > 0  # the truth is never ruled out
        m.apply(seat, greedy(m, seat, random.Random(step)))
        step += 1


@pytest.mark.parametrize("seed", [41, 42])
def test_the_belief_follows_a_game_and_never_rules_out_the_truth(seed: int) -> None:
    m, belief, _ = _followed(seed)
    worlds = HandWorlds(m.view(0), 0, belief)
    for k in range(5):
        world = worlds.sample(Rng(k))
        assert world.view(0) == m.view(0)  # every guess fits what the seat sees
        cards = [c for h in world.hands for c in h] + [c for c in world.deck if not c.startswith("#")]
        assert sorted(cards + world.box + world.discard) == sorted(world.comps.fire_deck())  # every card once


def test_twins_with_the_same_public_history_keep_the_same_belief() -> None:
    """No peeking: twins that differ in the rivals' hands from the start but show seat 0 the same views keep the
    same belief."""
    m = TITLE.new_match(seats=4, seed=43)
    assert isinstance(m, GreatFireMatch)
    a, b = m.clone(), scrambled(m, 0)
    b.deck, b.box, b.board_tokens, b.rng = list(a.deck), list(a.box), list(a.board_tokens), Rng(a.rng.state)
    beliefs = HandBelief(0), HandBelief(0)
    rng = random.Random(43)
    for step in range(160):
        if a.view(0) != b.view(0):
            break
        for belief, twin in zip(beliefs, (a, b), strict=True):
            belief.observe(twin.view(0))
        assert {r: h.dist for r, h in beliefs[0].rivals.items()} == {r: h.dist for r, h in beliefs[1].rivals.items()}
        if a.system_due():
            a.run_system_step()
            b.run_system_step()
            continue
        (seat,) = a.to_act()
        legal_b = b.legal_actions(seat)
        choice = greedy(a, seat, random.Random(step))
        if choice not in legal_b:
            choice = rng.choice([x for x in a.legal_actions(seat) if x in legal_b])
        a.apply(seat, choice)
        b.apply(seat, choice)
    assert step > 60


def test_the_bench_reads_some_but_little_of_the_hands() -> None:
    """bench/hand_information.py on three games: the belief gives the true hands more than the deal did, far from
    knowing them."""
    out = measure(3, 90000, 2)
    ceiling = sum(out["ceiling nats"]) / len(out["ceiling nats"])
    every = sum(out["every move nats"]) / len(out["every move nats"])
    assert 0 < every < ceiling
    assert all(0 <= c <= 5 for c in out["every move cards"])
