"""The search bot: it reads only its seat's view, determinizations are consistent, and it plays legally."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firebreak.domain.bots import choose_action, levels, random_bot
from firebreak.domain.contract import Action, Budget
from firebreak.domain.greatfire.bots.search import (
    KEEP,
    PLANS,
    Arm,
    root_moves,
    search_bot_with,
    search_from_view,
    set_priors,
    shortlist,
)
from firebreak.domain.greatfire.match import Determinizer, GreatFireMatch, determinize
from firebreak.domain.greatfire.state import TOTAL_CONES, Phase
from firebreak.domain.greatfire.title import GREAT_FIRE
from firebreak.domain.rng import Rng
from tests.greatfire.bot_positions import ViewOnly, kinds_of_positions, new_match, play, positions
from tests.greatfire.positions import blank, put, scrambled, to_actions

POSITIONS = kinds_of_positions()


@pytest.mark.parametrize(("kind", "position"), POSITIONS, ids=[k for k, _ in POSITIONS])
def test_the_bot_sees_only_its_view(kind: str, position: GreatFireMatch) -> None:
    """Two matches that differ only in what the seat cannot see give the same decision for the same seed."""
    seat = position.turn
    other = scrambled(position, seat)
    assert other.to_dict() != position.to_dict()
    assert other.view(seat) == position.view(seat)
    bot = search_bot_with(budget_seconds=None, iterations=24)
    first = bot(position, seat, random.Random(5))
    assert bot(other, seat, random.Random(5)) == first
    assert bot(ViewOnly(position), seat, random.Random(5)) == first  # type: ignore[arg-type]
    assert first in position.legal_actions(seat)


def test_the_search_level_reads_only_the_view() -> None:
    """The registered level works on an object that offers view() and nothing else."""
    assert "search" in levels(GREAT_FIRE)
    _, position = POSITIONS[0]
    action = choose_action(GREAT_FIRE, "search", ViewOnly(position), position.turn,  # type: ignore[arg-type]
                           random.Random(1), Budget(seconds=None, iterations=8))
    assert action in position.legal_actions(position.turn)


def test_same_view_same_seed_same_decision() -> None:
    """With an iteration budget the decision is a function of the view and the seed."""
    for _, position in POSITIONS:
        view = position.view(position.turn)
        budget = Budget(seconds=None, iterations=16)
        a = search_from_view(view, position.turn, random.Random(3), budget)
        b = search_from_view(view, position.turn, random.Random(3), budget)
        assert a == b


@pytest.mark.parametrize(("seats", "seed", "options"), [
    (4, 21, {}), (3, 22, {"hiddenColours": True}), (5, 23, {"moreDestruction": True}),
    (6, 24, {"hiddenColours": True}), (2, 25, {"npcTies": "conductor", "hiddenColours": True}),
])
def test_determinization_is_consistent_and_playable(seats: int, seed: int, options: dict[str, Any]) -> None:
    """A sample shows the seat exactly its view and legal actions, keeps every count, and plays to the end."""
    for k, m in enumerate(positions(seats, seed, every=17, **options)):
        if m.phase is Phase.REDEAL:
            continue
        seat = m.turn
        view = m.view(seat)
        s = determinize(view, seat, Rng(seed * 100 + k))
        assert s.view(seat) == view
        assert s.legal_actions(seat) == m.legal_actions(seat)
        assert s.supply + sum(s.cones) + sum(s.put_out) == TOTAL_CONES
        assert sum(map(sum, s.houses)) == sum(map(sum, m.houses))
        assert [len(h) for h in s.hands] == [len(h) for h in m.hands]
        assert sorted(s.hands[seat]) == sorted(m.hands[seat])
        assert s.objectives[seat] == m.objectives[seat] and s.colours[seat] == m.colours[seat]
        assert sorted(s.tokens[seat]) == sorted(m.tokens[seat])
        assert [len(t) for t in s.tokens] == [len(t) for t in m.tokens]
        assert [t is None for t in s.board_tokens] == [t is None for t in m.board_tokens]
        # the same cards in all (hands, deck, box, discard) and the same stack cards in the same places
        every = sorted(c for h in s.hands for c in h) + sorted(s.deck + s.box + s.discard)
        assert sorted(every) == sorted([c for h in m.hands for c in h] + m.deck + m.box + m.discard)
        assert [c for c in s.deck if c.startswith("#")] == [c for c in m.deck if c.startswith("#")]
        assert [i for i, c in enumerate(s.deck) if c.startswith("#")] == [
            i for i, c in enumerate(m.deck) if c.startswith("#")]
        if k % 3 == 0:
            rng = random.Random(k)
            for _ in range(5000):
                if s.is_over():
                    break
                if s.system_due():
                    s.run_system_step()
                    continue
                (turn,) = s.to_act()
                s.apply(turn, random_bot(s, turn, rng))
            assert s.is_over() and s.result() is not None


def test_samples_vary_only_in_what_is_hidden() -> None:
    """Different seeds give different guesses of the hidden facts, never different public ones."""
    m = next(m for m in positions(4, 31) if m.phase is Phase.ACTIONS and m.version > 60)
    det = Determinizer(m.view(m.turn), m.turn)
    samples = [det.sample(Rng(k)) for k in range(12)]
    assert len({str(s.hands) for s in samples}) > 1
    assert len({str(s.objectives) for s in samples}) > 1
    for s in samples:
        assert s.view(m.turn) == m.view(m.turn)


@pytest.mark.parametrize(("seats", "seed", "options"), [
    (2, 41, {"npcTies": "conductor"}), (3, 42, {"hiddenColours": True}), (4, 43, {}), (6, 44, {}),
])
def test_the_bot_only_plays_legal_actions(seats: int, seed: int, options: dict[str, Any]) -> None:
    """Whole games with one search seat (tiny budget) among random seats: every action is listed."""
    bot = search_bot_with(budget_seconds=None, iterations=4)
    rng = random.Random(seed)
    searched = 0

    def pick(m: GreatFireMatch, seat: int) -> Action:
        nonlocal searched
        action: Action = bot(m, seat, rng) if seat == 0 else random_bot(m, seat, rng)
        assert action in m.legal_actions(seat)
        searched += seat == 0
        return action

    for _ in play(new_match(seats, seed, **options), pick):
        pass
    assert searched > 20


def test_in_the_actions_phase_root_moves_are_whole_plans() -> None:
    """Each root move spends the action points towards an aim and ends the phase; ending at once is one."""
    m = blank()
    put(m, "newgate", cones=2, bands=2, houses={})
    m.pawns[0] = [m.geo.index["holborn"]]
    to_actions(m)
    moves = root_moves(m, 0)
    assert ({"type": "endActions"},) in moves and len(moves) <= PLANS + 1
    legal = m.legal_actions(0)
    for move in moves:
        assert move[-1] == {"type": "endActions"} and move[0] in legal
    walk_and_put_out = ({"type": "movePawn", "pawn": 0, "to": "newgate"},
                        {"type": "putOut", "district": "newgate"}, {"type": "putOut", "district": "newgate"})
    assert any(move[:3] == walk_and_put_out for move in moves)


def test_priors_rate_each_root_move_against_the_best() -> None:
    """The greedy rating of each root move's outcome, relative to the best one (0), breaks the search's ties."""
    _, position = next((k, p) for k, p in POSITIONS if k == "actions")
    arms = [Arm(move) for move in root_moves(position.clone(), position.turn)]
    set_priors(position.clone(), position.turn, arms)
    assert max(a.prior for a in arms) == 0.0 and all(a.prior <= 0.0 for a in arms)


def test_the_search_compares_only_the_moves_the_prior_rates_best_and_passing() -> None:
    arms = [Arm(({"type": "spreadFire", "district": str(k)},), prior=-float(k)) for k in range(10)]
    arms.append(Arm(({"type": "endFire"},), prior=-20.0))
    kept = shortlist(arms)
    assert [a.prior for a in kept] == [*(-float(k) for k in range(KEEP)), -20.0]


def _compared_in_the_actions_phase() -> tuple[GreatFireMatch, list[Arm]]:
    """The actions-phase position and the moves the search compares there, best prior first."""
    _, position = next((k, p) for k, p in POSITIONS if k == "actions")
    seat = position.turn
    world = Determinizer(position.view(seat), seat).sample(Rng(1))
    arms = [Arm(move) for move in root_moves(world, seat)]
    set_priors(world, seat, arms)  # in the actions phase they read nothing hidden: any world gives them
    return position, sorted(shortlist(arms), key=lambda a: -a.prior)


def test_a_budget_smaller_than_the_moves_compares_only_the_best_by_prior() -> None:
    """With one rollout to spend the search takes the move the prior rates best; with two it compares the two."""
    position, ranked = _compared_in_the_actions_phase()
    seat = position.turn
    assert len(ranked) > 2
    one = search_from_view(position.view(seat), seat, random.Random(2), Budget(seconds=None, iterations=1))
    assert one == ranked[0].move[0]
    two = search_from_view(position.view(seat), seat, random.Random(2), Budget(seconds=None, iterations=2))
    assert two in (ranked[0].move[0], ranked[1].move[0])


def test_a_time_budget_plays_whole_passes_and_at_least_one() -> None:
    """A budget too short for a second pass gives exactly the one-pass decision (the same worlds, in order)."""
    position, compared = _compared_in_the_actions_phase()
    seat = position.turn
    one_pass = len(compared)
    view = position.view(seat)
    timed = search_from_view(view, seat, random.Random(4), Budget(seconds=1e-6))
    assert timed == search_from_view(view, seat, random.Random(4), Budget(seconds=None, iterations=one_pass))
    assert timed in position.legal_actions(seat)
