"""Greedy rollouts (domain/greatfire/bots/rollout.py) stop at their horizon and play by the rules; the bench's cheating
levels (bench/oracle.py) answer a listed action in every kind of position, and their worlds know what they say."""

from __future__ import annotations

import random

import pytest

from bench import oracle
from firebreak.domain.contract import Action, Budget
from firebreak.domain.greatfire.bots import lookahead, rollout
from firebreak.domain.greatfire.bots.lookahead import apply
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import Phase
from firebreak.domain.rng import Rng
from tests.greatfire.bot_positions import kinds_of_positions, positions
from tests.greatfire.positions import conserved

BUDGET = Budget(seconds=None, iterations=1)  # one pass over the compared moves


@pytest.mark.parametrize("seats", [2, 4])
def test_a_rollout_stops_when_the_seats_next_turn_begins_or_ends(seats: int) -> None:
    """Horizon 2 stops as the seat's next turn begins, 3 as it ends (or at the end of the game); cones are
    conserved on the way."""
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


def test_greedy_steps_play_only_listed_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every action a rollout applies (whole fire moves and plans included) is one the engine lists then."""
    checked = 0

    def listed_apply(s: GreatFireMatch, seat: int, action: Action) -> None:
        nonlocal checked
        assert action in s.legal_actions(seat), (s.phase, action)
        checked += 1
        apply(s, seat, action)

    monkeypatch.setattr(rollout, "apply", listed_apply)
    monkeypatch.setattr(lookahead, "apply", listed_apply)  # what play_fire_move applies each step with
    for seats in (2, 4):
        for m in positions(seats, seed=5, every=31):
            s = m.clone()
            for _ in range(12):
                if s.is_over():
                    break
                version = s.version
                rollout.greedy_step(s, random.Random(2))
                assert s.version > version
                conserved(s)
    assert checked > 100


@pytest.mark.parametrize("level", sorted(oracle.levels(BUDGET)))
def test_every_level_answers_a_listed_action_the_same_way_twice(level: str) -> None:
    bot = oracle.levels(BUDGET)[level]
    for kind, m in kinds_of_positions():
        seat = m.turn
        action = bot(m, seat, random.Random(3))
        assert action in m.legal_actions(seat), kind
        assert bot(m, seat, random.Random(3)) == action, kind


def test_partial_worlds_know_exactly_the_named_facts() -> None:
    m = next(p for p in positions(4, seed=8) if p.version > 30)
    seat = m.turn
    knows_cards = oracle.Partial(m, seat, ("cards",)).sample(Rng(1))
    assert knows_cards.hands == m.hands and knows_cards.deck == m.deck and knows_cards.box == m.box
    guessed = [oracle.Partial(m, seat, ()).sample(Rng(k)) for k in range(8)]
    assert all(sorted(g.hands[seat]) == sorted(m.hands[seat]) for g in guessed)  # its own hand is never a guess
    assert any(g.hands != m.hands or g.deck != m.deck for g in guessed)
    knows_objectives = oracle.Partial(m, seat, ("objectives",)).sample(Rng(1))
    assert knows_objectives.objectives == m.objectives
    knows_tokens = oracle.Partial(m, seat, ("tokens",)).sample(Rng(1))
    assert knows_tokens.tokens == m.tokens and knows_tokens.board_tokens == m.board_tokens


def test_knowing_the_hands_still_guesses_the_deck_from_the_cards_left() -> None:
    m = next(p for p in positions(4, seed=8) if p.version > 30)
    seat = m.turn
    worlds = [oracle.Partial(m, seat, oracle.SECRETS).sample(Rng(k)) for k in range(8)]
    every_card = sorted(c for h in m.hands for c in h) + sorted(c for c in m.deck + m.box if not c.startswith("#"))
    for w in worlds:
        assert w.hands == m.hands and w.objectives == m.objectives and w.tokens == m.tokens
        assert sorted(c for h in w.hands for c in h) + sorted(
            c for c in w.deck + w.box if not c.startswith("#")) == every_card  # no card made or lost
        assert [c for c in w.deck if c.startswith("#")] == [c for c in m.deck if c.startswith("#")]
    assert any(w.deck != m.deck for w in worlds)
