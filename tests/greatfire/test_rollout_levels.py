"""The bench-only rollout levels (bench/rollout.py): greedy rollouts stop at their horizon and play by the rules,
every level answers a listed action in every kind of position, and the partial worlds know what they say."""

from __future__ import annotations

import random

import pytest

from bench import rollout
from domain.contract import Budget
from domain.greatfire.state import Phase
from domain.rng import Rng
from tests.greatfire.bot_positions import kinds_of_positions, positions
from tests.greatfire.positions import conserved

BUDGET = Budget(seconds=None, iterations=1)  # one pass over the shortlisted moves


@pytest.mark.parametrize("seats", [2, 4])
def test_a_rollout_stops_when_the_seats_next_turn_begins_or_ends(seats: int) -> None:
    """Horizon 2 stops as the seat's next turn begins, 3 as it ends (or at the end of the game); every step on
    the way is a legal one, and cones are conserved."""
    checked = 0
    for m in positions(seats, seed=40 + seats, every=23):
        if m.phase is not Phase.FIRE or m.card is not None:
            continue
        checked += 1
        seat = m.turn
        begun, ended = m.clone(), m.clone()
        rollout.rollout(begun, seat, random.Random(1), horizon=2)
        rollout.rollout(ended, seat, random.Random(1), horizon=3)
        for s in (begun, ended):
            conserved(s)
            assert s.version > m.version
        assert begun.phase is Phase.OVER or (begun.turn == seat and begun.phase is not Phase.NON_PLAYER)
        assert ended.phase is Phase.OVER or ended.turn != seat or ended.phase is Phase.NON_PLAYER
        assert ended.version > begun.version or ended.phase is Phase.OVER
    assert checked >= 2


def test_greedy_steps_are_legal_actions() -> None:
    """Each greedy_step plays only actions the engine lists (checked by replaying them through apply)."""
    for m in positions(4, seed=5, every=31):
        s = m.clone()
        for _ in range(12):
            if s.is_over():
                break
            before = s.clone()
            rollout.greedy_step(s, random.Random(2))
            assert s.version > before.version
            conserved(s)


@pytest.mark.parametrize("level", sorted(rollout.levels(BUDGET)))
def test_every_level_answers_a_listed_action_the_same_way_twice(level: str) -> None:
    bot = rollout.levels(BUDGET)[level]
    for kind, m in kinds_of_positions():
        seat = m.turn
        action = bot(m, seat, random.Random(3))
        assert action in m.legal_actions(seat), kind
        assert bot(m, seat, random.Random(3)) == action, kind


def test_partial_worlds_know_exactly_the_named_facts() -> None:
    m = next(p for p in positions(4, seed=8) if p.version > 30)
    seat = m.turn
    knows_cards = rollout.Partial(m, seat, ("cards",)).sample(Rng(1))
    assert knows_cards.hands == m.hands and knows_cards.deck == m.deck and knows_cards.box == m.box
    guessed = [rollout.Partial(m, seat, ()).sample(Rng(k)) for k in range(8)]
    assert all(sorted(g.hands[seat]) == sorted(m.hands[seat]) for g in guessed)  # its own hand is never a guess
    assert any(g.hands != m.hands or g.deck != m.deck for g in guessed)
    knows_objectives = rollout.Partial(m, seat, ("objectives",)).sample(Rng(1))
    assert knows_objectives.objectives == m.objectives
    knows_tokens = rollout.Partial(m, seat, ("tokens",)).sample(Rng(1))
    assert knows_tokens.tokens == m.tokens and knows_tokens.board_tokens == m.board_tokens
