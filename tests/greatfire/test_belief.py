"""The belief read from the rivals' fire moves (bots/belief.py) and the reader level (bots/reader.py): it weighs
hands and objectives as the modelled choice says, and it is a function of the seat's views alone."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import Budget
from firebreak.domain.greatfire.bots.belief import (
    BETA,
    Belief,
    BeliefWorlds,
    Evidence,
    Move,
    choosing_fire,
    rival_moves,
)
from firebreak.domain.greatfire.bots.greedy import greedy
from firebreak.domain.greatfire.bots.reader import ReadingBot
from firebreak.domain.greatfire.match import Determinizer, GreatFireMatch
from firebreak.domain.rng import Rng
from tests.greatfire.bot_positions import ViewOnly
from tests.greatfire.positions import scrambled

TITLE = titles.get("greatfire")


def _evidence(played: str, size: int = 5) -> Evidence:
    """Seat 1 played `played` when E would have rated 2.0 and W 1.0; N and S gave no move; W saves objective X."""
    moves = (Move("E", 2.0, {"x": 0.0}), Move("W", 1.0, {"x": 1.5}))
    return Evidence(1, played, moves, size)


def _world(hand: list[str], objectives: list[str] | None = None) -> GreatFireMatch:
    m = TITLE.new_match(seats=4, seed=3)
    assert isinstance(m, GreatFireMatch)
    m.hands[1] = list(hand)
    m.objectives[1] = list(objectives or [])
    return m


def _belief(*evidence: Evidence) -> Belief:
    b = Belief(0)
    b.evidence = {ev.seat: ev for ev in evidence}
    return b


def test_playing_the_worse_card_tells_the_better_one_was_not_held() -> None:
    """W played while E would rate better: hands that had E then are unlikely; a hand without E is certain."""
    b = _belief(_evidence("W", size=5))
    weak = math.exp(-BETA) / (1 + math.exp(-BETA))  # E held beside W: softmax over the two ratings
    # One card drawn since (five in hand): any of the five may be the new one, the hand then is the rest and W.
    assert b.likelihood(_world(["N", "N", "S", "S", "W"])) == pytest.approx(1.0)
    assert b.likelihood(_world(["N", "N", "S", "S", "E"])) == pytest.approx((1 + 4 * weak) / 5)
    assert b.likelihood(_world(["E", "E", "E", "E", "E"])) == pytest.approx(weak)
    # No draw since (four in hand: the final rounds): the hand then is the four and W.
    assert b.likelihood(_world(["N", "N", "S", "E"])) == pytest.approx(weak)
    assert b.likelihood(_world(["N", "N", "S", "S"])) == pytest.approx(1.0)
    # More cards than one draw explains: no evidence.
    assert _belief(_evidence("W", size=3)).likelihood(_world(["E", "E", "E", "E", "E"])) == 1.0


def test_the_best_card_played_tells_nothing_against_any_hand() -> None:
    """E was the best card: no hand is much less likely than another (only the softmax's margin for W beside it)."""
    b = _belief(_evidence("E"))
    beside_w = 1 / (1 + math.exp(-BETA))
    assert b.likelihood(_world(["E", "W", "W", "W", "W"])) == pytest.approx(beside_w)
    assert b.likelihood(_world(["N", "S", "N", "S", "N"])) == pytest.approx(1.0)
    assert b.likelihood(_world(["W", "E", "N", "S", "E"])) == pytest.approx((1 + 4 * beside_w) / 5)  # W the draw


def test_an_objective_can_explain_the_choice() -> None:
    """W saves district x, an objective of the rival in one world: there holding E beside W is the likely case."""
    b = _belief(_evidence("W"))
    hand = ["E", "E", "E", "E", "E"]
    assert b.likelihood(_world(hand, ["x"])) > 0.9
    assert b.likelihood(_world(hand, ["y"])) < 0.01


def _greedy_game(seed: int) -> tuple[GreatFireMatch, Belief, list[tuple[dict[str, Any], str, list[str]]]]:
    """A four-greedy game played until seat 0 has read three rival fire moves; the moves read, with true hands."""
    m = TITLE.new_match(seats=4, seed=seed)
    assert isinstance(m, GreatFireMatch)
    belief = Belief(0)
    read: list[tuple[dict[str, Any], str, list[str]]] = []
    step = 0
    while len(read) < 3:
        view = m.view(0)
        belief.observe(view)
        if m.system_due():
            m.run_system_step()
            continue
        (seat,) = m.to_act()
        hand = list(m.hands[seat])
        m.apply(seat, greedy(m, seat, random.Random(step)))
        step += 1
        if choosing_fire(view) == seat != 0 and m.card is not None:
            read.append((view, m.card, hand))
    belief.observe(m.view(0))
    return m, belief, read


def test_the_belief_reads_each_rival_fire_move_from_the_views() -> None:
    """Each rival's last fire move is read: the card it played and its moves, rated from the view before it."""
    _, belief, read = _greedy_game(11)
    for view, card, _ in read:
        ev = belief.evidence[view["turn"]]
        assert ev.played == card
        assert ev.moves == rival_moves(view, 0, view["turn"])
        assert ev.hand_size == view["players"][view["turn"]]["handSize"]
    assert 0 not in belief.evidence  # its own moves teach the seat nothing


def test_with_the_true_objectives_the_played_card_is_the_best_of_the_true_hand() -> None:
    """The model is greedy's own rating: given the rival's true objectives, it explains every greedy fire move."""
    for seed in (11, 12, 13):
        m, _, read = _greedy_game(seed)
        for view, card, hand in read:
            rival = view["turn"]
            ratings = Evidence(rival, card, rival_moves(view, 0, rival), 5).ratings(m.objectives[rival])
            held = {c: ratings[c] for c in hand if c in ratings}
            assert ratings[card] == pytest.approx(max(held.values()))


def test_the_true_world_is_likelier_than_uniform_guesses() -> None:
    """Over a few greedy games the rivals' true hands and objectives weigh more than the sampler's guesses."""
    true_log = guessed_log = 0.0
    for seed in (21, 22, 23, 24):
        m, belief, _ = _greedy_game(seed)
        guesses = Determinizer(m.view(0), 0)
        true_log += math.log(belief.likelihood(m))
        guessed_log += sum(math.log(belief.likelihood(guesses.sample(Rng(k)))) for k in range(20)) / 20
    assert true_log > guessed_log + 1.0


def test_a_view_of_the_same_version_again_changes_nothing() -> None:
    m, belief, _ = _greedy_game(11)
    before = dict(belief.evidence)
    belief.observe(m.view(0))
    assert belief.evidence == before


def test_resampling_prefers_the_likelier_guesses() -> None:
    """BeliefWorlds keeps guesses in proportion to the belief: the kept ones weigh more than uniform ones."""
    m, belief, _ = _greedy_game(21)
    worlds = BeliefWorlds(m.view(0), 0, belief)
    uniform = Determinizer(m.view(0), 0)
    kept = sum(belief.likelihood(worlds.sample(Rng(k))) for k in range(30)) / 30
    drawn = sum(belief.likelihood(uniform.sample(Rng(k))) for k in range(30)) / 30
    assert kept > drawn
    for k in range(5):  # every kept world is consistent with the view
        assert worlds.sample(Rng(k)).view(0) == m.view(0)


def _twins_played_on(seed: int) -> tuple[GreatFireMatch, GreatFireMatch, Belief, Belief]:
    """Twins differing in the rivals' hands, objectives and tokens (positions.scrambled; the deck and the face-down
    tokens kept, so seat 0 draws and takes the same), played on with the same public choices (greedy's on the
    first, when the second allows it) while each feeds its own belief its views."""
    m, _, _ = _greedy_game(seed)
    a, b = m.clone(), scrambled(m, 0)
    b.deck, b.box, b.board_tokens, b.rng = list(a.deck), list(a.box), list(a.board_tokens), Rng(a.rng.state)
    assert a.to_dict() != b.to_dict() and a.view(0) == b.view(0)
    beliefs = Belief(0), Belief(0)
    rng = random.Random(seed)
    for step in range(200):
        assert a.view(0) == b.view(0)
        for belief, twin in zip(beliefs, (a, b), strict=True):
            belief.observe(twin.view(0))
        assert beliefs[0].evidence == beliefs[1].evidence
        if a.system_due():
            a.run_system_step()
            b.run_system_step()
            continue
        (seat,) = a.to_act()
        if seat == 0 and step > 60 and a.phase.value == "fire" and a.card is None:
            assert any(a.hands[r] != b.hands[r] for r in (1, 2, 3))  # still twins in the rivals' hands
            return a, b, beliefs[0], beliefs[1]
        legal_b = b.legal_actions(seat)
        choice = greedy(a, seat, random.Random(step))
        if choice not in legal_b:
            common = [x for x in a.legal_actions(seat) if x in legal_b]
            choice = rng.choice(common)
        a.apply(seat, choice)
        b.apply(seat, choice)
    raise AssertionError("seat 0 never came to a fire move")


@pytest.mark.parametrize("seed", [31, 32])
def test_twins_with_the_same_public_history_give_the_same_belief_and_decision(seed: int) -> None:
    """No peeking: the belief follows the public history only, and the reader decides the same on both twins."""
    a, b, belief_a, belief_b = _twins_played_on(seed)
    assert belief_a.evidence  # rivals' fire moves were read on the way
    assert belief_a.evidence == belief_b.evidence
    world = Determinizer(a.view(0), 0).sample(Rng(1))
    assert belief_a.likelihood(world) == belief_b.likelihood(world)
    seat = a.turn
    budget = Budget(seconds=None, iterations=14)
    bot_a, bot_b = ReadingBot(budget), ReadingBot(budget)
    bot_a.beliefs[seat], bot_b.beliefs[seat] = belief_a, belief_b
    first = bot_a(a, seat, random.Random(4))
    assert bot_b(b, seat, random.Random(4)) == first
    assert bot_b(ViewOnly(b), seat, random.Random(4)) == first  # type: ignore[arg-type]
